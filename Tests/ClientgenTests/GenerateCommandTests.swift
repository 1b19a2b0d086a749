import Foundation
import Testing

/// `clientgen generate`, run as the built executable: writing a client,
/// byte-for-byte repeatable output, and the drift check that `make check`
/// and CI run.
@Suite struct GenerateCommandTests {
    let lint = LintCommandTests()

    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("clientgen-generate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func contents(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
        }
        return result
    }

    @Test func generatesTheSameBytesTwice() throws {
        let first = try temporaryFolder()
        let second = try temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let one = try lint.clientgen(["generate", "specs/safepocket.yaml", "--output", first.path, "--module", "SafepocketAPI"])
        let two = try lint.clientgen(["generate", "specs/safepocket.yaml", "--output", second.path, "--module", "SafepocketAPI"])
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
        let files = try contents(first)
        #expect(files.keys.sorted() == ["Client.swift", "Models.swift", "Operations.swift"])
        #expect(files == (try contents(second)))
        // The committed client is what the spec produces.
        let committed = try contents(LintCommandTests.packageRoot.appendingPathComponent("Sources/Clients/SafepocketAPI"))
        #expect(files == committed, "Sources/Clients/SafepocketAPI is stale: run make generate")
    }

    @Test func checkNamesEveryDriftedFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["generate", "specs/soul.yaml", "--output", folder.path, "--module", "SoulAPI"]
        #expect(try lint.clientgen(arguments).status == 0)
        let clean = try lint.clientgen(arguments + ["--check"])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stderr.contains("generated code matches the specs"))

        // A hand edit, a deleted file and a stray file are each named.
        let models = folder.appendingPathComponent("Models.swift")
        let edited = try String(contentsOf: models, encoding: .utf8).replacingOccurrences(of: "public var phone: PhoneNumber", with: "public var phone: String")
        try edited.write(to: models, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Operations.swift"))
        try "// by hand\n".write(to: folder.appendingPathComponent("Extra.swift"), atomically: true, encoding: .utf8)
        let drifted = try lint.clientgen(arguments + ["--check"])
        #expect(drifted.status == 1)
        #expect(drifted.stderr.contains("\(folder.path)/Models.swift (differs)"))
        #expect(drifted.stderr.contains("\(folder.path)/Operations.swift (missing)"))
        #expect(drifted.stderr.contains("\(folder.path)/Extra.swift (not generated from the spec)"))
        #expect(drifted.stderr.contains("3 generated files differ"))

        // Generating again repairs the folder and removes the stray file.
        #expect(try lint.clientgen(arguments).status == 0)
        #expect(try lint.clientgen(arguments + ["--check"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Extra.swift").path))
    }

    @Test func theCommittedClientsMatchTheSpecs() throws {
        let run = try lint.clientgen(["generate", "--config", "specs/clients.json", "--check"])
        #expect(run.status == 0, "generated code drifted from specs/: \(run.stderr)")
    }

    @Test func aSpecWithErrorsGeneratesNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("broken.yaml")
        try "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Nope'}\n"
            .write(to: spec, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out")
        let run = try lint.clientgen(["generate", spec.path, "--output", output.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("broken.yaml:7:"))
        #expect(run.stderr.contains("no client generated"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func badArgumentsAreUsageErrors() throws {
        let run = try lint.clientgen(["generate", "specs/soul.yaml"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--output"))
        let missing = try lint.clientgen(["generate", "--config", "no-such.json"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no-such.json"))
    }
}
