import Codegen
import Foundation
import OpenAPIModel
import Testing

/// Reference tests: each `References/NAME.yaml` must generate exactly
/// `References/NAME.swift` (all generated files, one after another). A
/// mismatch prints a unified diff. After an intended change to the
/// generator, `UPDATE_REFERENCES=1 swift test --filter ReferenceTests`
/// rewrites the expectations; review them in the diff before committing.
/// `make references` (run by CI) compiles every expectation as a module of
/// its own, so a reference that reads right but does not build fails too.
@Suite struct ReferenceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("References")

    static var cases: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Every generated file of a spec, each headed by its name.
    static func generate(_ name: String) throws -> String {
        let path = folder.appendingPathComponent(name + ".yaml").path
        let result = OpenAPILoader.load(path: path)
        #expect(result.errors.isEmpty, "\(result.errors)")
        let document = try #require(result.document)
        let files = ClientGenerator.generate(document, options: GeneratorOptions(moduleName: "Reference", specName: name + ".yaml"))
        return files.map { "// ==== \($0.name) ====\n" + $0.contents }.joined(separator: "\n")
    }

    @Test func everyFeatureHasAReference() {
        #expect(Self.cases.count >= 10, "references found: \(Self.cases)")
    }

    @Test(arguments: cases) func generatedCodeMatchesTheReference(_ name: String) throws {
        let actual = try Self.generate(name)
        let expectedURL = Self.folder.appendingPathComponent(name + ".swift")
        if ProcessInfo.processInfo.environment["UPDATE_REFERENCES"] == "1" {
            try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
            return
        }
        let expected = try #require(try? String(contentsOf: expectedURL, encoding: .utf8), "no \(name).swift: run with UPDATE_REFERENCES=1 to create it")
        if actual != expected {
            Issue.record("\(name).yaml does not generate \(name).swift:\n\(Self.unifiedDiff(expected: expected, actual: actual))")
        }
    }

    @Test func generationIsDeterministic() throws {
        for name in Self.cases {
            #expect(try Self.generate(name) == Self.generate(name), "\(name) generates different output on a second run")
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
