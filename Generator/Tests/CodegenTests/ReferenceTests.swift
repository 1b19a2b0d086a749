import Codegen
import Foundation
import OpenAPIModel
import Testing

/// Reference tests: each `Generator/Tests/References/ReferenceName/name.yaml`
/// must generate exactly the Swift files beside it, file for file. A mismatch
/// prints a unified diff. After an intended change to the generator,
/// `UPDATE_REFERENCES=1 swift test --filter ReferenceTests` rewrites the
/// expectations; review them in the diff before committing.
///
/// Each folder is also a target of the package (`Reference<Name>`, listed in
/// `Package.swift`'s `generatorReferences`), which this test target depends
/// on: every build of the tests compiles every expectation against
/// ClientRuntime, so a reference that reads right but does not build fails
/// the build. An update that writes code which does not compile stops the
/// next test build, this test included: put the last good references back
/// (`git checkout Generator/Tests/References`), mend the generator, and
/// update again.
@Suite struct ReferenceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("References")

    /// The references' folders (each a target: `ReferenceAssumedMarks`).
    static var cases: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { (try? spec(of: $0)) != nil }.sorted()
    }

    /// The spec in a reference's folder (`assumed-marks.yaml`): the one `.yaml` there.
    static func spec(of reference: String) throws -> String {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(reference).path).filter { $0.hasSuffix(".yaml") }
        guard files.count == 1 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(reference): \(files.count) specs"]) }
        return files[0]
    }

    /// Every generated file of a reference's spec, by name.
    static func generate(_ reference: String) throws -> [(name: String, contents: String)] {
        let spec = try Self.spec(of: reference)
        let result = OpenAPILoader.load(path: folder.appendingPathComponent(reference).appendingPathComponent(spec).path)
        #expect(result.errors.isEmpty, "\(result.errors)")
        let document = try #require(result.document)
        return try ClientGenerator.generate(document, options: GeneratorOptions(moduleName: "Reference", specName: spec)).map { ($0.name, $0.contents) }
    }

    /// The Swift files of a reference's folder, by name.
    static func expected(_ name: String) throws -> [String: String] {
        let directory = folder.appendingPathComponent(name)
        var files: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasSuffix(".swift") {
            files[file] = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        }
        return files
    }

    /// A component scalar named like a type of Swift or the runtime (`Date`,
    /// `UUID`) is used as the type it stands for, not under a made-up name
    /// (`DateSchema`) that hides that it is a `CalendarDate`; an object of
    /// such a name is still declared, with a suffix.
    @Test func aScalarNamedLikeABuiltInTypeIsThatType() throws {
        let models = try #require(Self.generate("ReferenceInlineAndOddNames").first { $0.name == "Models.swift" }?.contents)
        #expect(models.contains("public let on: CalendarDate?"))
        #expect(models.contains("public let ids: [LowercaseUUID]?"))
        #expect(models.contains("public let failure: ErrorSchema?"))
        #expect(!models.contains("DateSchema") && !models.contains("UUIDSchema"))
    }

    @Test func everyFeatureHasAReference() {
        #expect(Self.cases.count >= 10, "references found: \(Self.cases)")
    }

    @Test func everyReferenceIsCompiledByTheTests() throws {
        // A folder Package.swift does not list would be compared, never compiled.
        let manifest = try String(contentsOf: Self.folder.appendingPathComponent("../../../Package.swift").standardizedFileURL, encoding: .utf8)
        for reference in Self.cases {
            let name = String(try Self.spec(of: reference).dropLast(".yaml".count))
            #expect(manifest.contains("\"\(name)\""), "\(name) is not in Package.swift's generatorReferences")
        }
    }

    @Test(arguments: cases) func generatedCodeMatchesTheReference(_ name: String) throws {
        let actual = try Self.generate(name)
        if ProcessInfo.processInfo.environment["UPDATE_REFERENCES"] == "1" {
            let directory = Self.folder.appendingPathComponent(name)
            for stale in try Self.expected(name).keys where !actual.contains(where: { $0.name == stale }) {
                try FileManager.default.removeItem(at: directory.appendingPathComponent(stale))
            }
            for file in actual { try file.contents.write(to: directory.appendingPathComponent(file.name), atomically: true, encoding: .utf8) }
            return
        }
        let expected = try Self.expected(name)
        #expect(Set(expected.keys) == Set(actual.map(\.name)), "\(name): the files generated differ from the reference's; run with UPDATE_REFERENCES=1")
        for file in actual {
            let reference = expected[file.name] ?? ""
            if file.contents != reference {
                Issue.record("\(name)'s spec does not generate \(name)/\(file.name):\n\(Self.unifiedDiff(expected: reference, actual: file.contents))")
            }
        }
    }

    @Test func generationIsDeterministic() throws {
        for name in Self.cases {
            let first = try Self.generate(name), second = try Self.generate(name)
            #expect(first.map(\.name) == second.map(\.name) && first.map(\.contents) == second.map(\.contents),
                "\(name) generates different output on a second run")
        }
    }

    /// `diff -u` of the expected and the generated text.
    static func unifiedDiff(expected: String, actual: String) -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reference-diff-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let expectedURL = directory.appendingPathComponent("expected.swift")
        let actualURL = directory.appendingPathComponent("generated.swift")
        try? expected.write(to: expectedURL, atomically: true, encoding: .utf8)
        try? actual.write(to: actualURL, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["diff", "-u", expectedURL.path, actualURL.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            return "(diff could not run: \(error))"
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
