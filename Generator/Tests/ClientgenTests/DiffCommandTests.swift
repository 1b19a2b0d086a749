import Foundation
import Testing

/// `clientgen diff`, run as the built executable: exit statuses (0 clean, 1
/// breaking with --fail-on, 2 bad input), git refs, the ignore file, JSON.
@Suite struct DiffCommandTests {
    let runner = LintCommandTests()

    private func copyOfSoul(_ edit: (String) -> String) throws -> String {
        let text = try String(contentsOf: LintCommandTests.repositoryRoot.appendingPathComponent("specs/soul.yaml"), encoding: .utf8)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("soul-\(UUID().uuidString).yaml").path
        try edit(text).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// SOUL with the health check moved from `/healthz` to `/health` and its
    /// operation id renamed: a removed path (ERR) and an added one (INFO).
    private func breakingSoul() throws -> String {
        try copyOfSoul { text in
            text.replacingOccurrences(of: "operationId: checkHealth", with: "operationId: getHealth")
                .replacingOccurrences(of: "  /healthz:", with: "  /health:")
        }
    }

    @Test func noChangeExitsZero() async throws {
        let run = try await runner.clientgen(["diff", "specs/soul.yaml", "specs/soul.yaml", "--fail-on", "WARN"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("0 ERR, 0 WARN, 0 INFO"))
    }

    @Test func breakingChangeExitsOneOnlyWithFailOn() async throws {
        let revision = try breakingSoul()
        defer { try? FileManager.default.removeItem(atPath: revision) }
        let report = try await runner.clientgen(["diff", "specs/soul.yaml", revision, "--config", "specs/clients.json"])
        #expect(report.status == 0)
        let failing = try await runner.clientgen(["diff", "specs/soul.yaml", revision, "--fail-on", "ERR", "--format", "json", "--module", "SoulAPI"])
        #expect(failing.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(failing.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        let removed = try #require(findings.first { $0["id"] as? String == "api-path-removed-without-deprecation" })
        #expect(removed["level"] as? String == "ERR")
        #expect(removed["operation"] as? String == "GET /healthz")
        #expect(removed["swiftSymbols"] as? [String] == ["SoulAPI.Client.checkHealth()"])
        #expect(findings.contains { $0["id"] as? String == "endpoint-added" && $0["level"] as? String == "INFO" })
    }

    @Test func ignoredFindingsAreListedButDoNotFail() async throws {
        let revision = try breakingSoul()
        let ignore = FileManager.default.temporaryDirectory.appendingPathComponent("ignore-\(UUID().uuidString).txt").path
        defer {
            try? FileManager.default.removeItem(atPath: revision)
            try? FileManager.default.removeItem(atPath: ignore)
        }
        try "api-path-removed-* | GET /healthz | the health check moved; no app calls it\n".write(toFile: ignore, atomically: true, encoding: .utf8)
        let run = try await runner.clientgen(["diff", "specs/soul.yaml", revision, "--fail-on", "ERR", "--ignore", ignore])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("ignored: the health check moved; no app calls it"))
        #expect(run.stdout.contains("1 ignored"))
    }

    @Test func githubAnnotationsPointAtTheRevision() async throws {
        let revision = try copyOfSoul { $0.replacingOccurrences(of: "operationId: checkHealth", with: "operationId: getHealth") }
        defer { try? FileManager.default.removeItem(atPath: revision) }
        let run = try await runner.clientgen(["diff", "specs/soul.yaml", revision, "--format", "github", "--module", "SoulAPI"])
        #expect(run.stdout.hasPrefix("::warning file=\(revision),line="), "\(run.stdout)")
        #expect(run.stdout.contains("title=WARN api-operation-id-removed::GET /healthz: api operation id checkHealth removed and replaced with getHealth"))
    }

    @Test func gitReferencesAreRead() async throws {
        let run = try await runner.clientgen(["diff", "HEAD:specs/soul.yaml", "specs/soul.yaml"])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func badInputExitsTwoWithAClearMessage() async throws {
        let missing = try await runner.clientgen(["diff", "specs/none.yaml", "specs/soul.yaml"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("'specs/none.yaml' does not exist"))

        let unknownRef = try await runner.clientgen(["diff", "no-such-branch:specs/soul.yaml", "specs/soul.yaml"])
        #expect(unknownRef.status == 2)
        #expect(unknownRef.stderr.contains("'no-such-branch' is not a git commit, branch or tag"))

        let invalid = try copyOfSoul { $0.replacingOccurrences(of: "openapi: 3.0.3", with: "swagger: '2.0'") }
        defer { try? FileManager.default.removeItem(atPath: invalid) }
        let broken = try await runner.clientgen(["diff", "specs/soul.yaml", invalid])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("is not a valid spec"))

        let badIgnore = try copyOfSoul { _ in "response-* GET /x no separators\n" }
        defer { try? FileManager.default.removeItem(atPath: badIgnore) }
        let ignoreRun = try await runner.clientgen(["diff", "specs/soul.yaml", "specs/soul.yaml", "--ignore", badIgnore])
        #expect(ignoreRun.status == 2)
        #expect(ignoreRun.stderr.contains(":1: expected 'rule id | METHOD /path | reason'"))
    }
}
