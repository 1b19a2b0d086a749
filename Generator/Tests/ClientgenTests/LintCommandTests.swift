import Foundation
import ProcessTestSupport
import Testing

/// `clientgen lint`, run as the built executable: exit codes, the
/// `file:line:column` text on stderr, and `--format json`.
@Suite struct LintCommandTests {
    struct MissingExecutable: Error {}

    typealias Run = CompletedRun

    /// The `clientgen` executable that `swift build` put beside the test bundle.
    static let executable = ChildProcess.executable(named: "clientgen")

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func clientgen(_ arguments: [String]) async throws -> Run {
        guard let executable = Self.executable else {
            Issue.record("clientgen must be built beside the test bundle (swift build builds it)")
            throw MissingExecutable()
        }
        return try await ChildProcess.run(executable, arguments: arguments, in: Self.repositoryRoot)
    }

    func temporarySpec(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString).yaml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func ourSpecsAreClean() async throws {
        let specs = ["securenode", "soul", "safepocket", "mobiletracker"].map { "specs/\($0).yaml" }
        let run = try await clientgen(["lint", "--strict"] + specs)
        #expect(run.status == 0, "\(run.stderr)")
        for spec in specs { #expect(run.stderr.contains("\(spec): 0 errors, 0 warnings")) }
    }

    @Test func theSpecsGuessesAreListedWithTheirPositionsAndFailNothing() async throws {
        let path = try temporarySpec("""
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths:
              /a:
                get:
                  parameters:
                    - {name: from, in: query, x-assumed: true, schema: {type: string, pattern: '^[0-9]{4}-[0-9]{2}$'}}
                  responses:
                    '200': {description: ok}
            components:
              schemas:
                Mood:
                  type: object
                  x-assumed: true
                  properties:
                    score: {type: integer}
                Page:
                  type: object
                  properties:
                    cursor: {type: string, x-assumed: true}
            """)
        let run = try await clientgen(["lint", "--strict", path])
        #expect(run.status == 0, "an assumption is not a warning: \(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains(": assumed: ") } == [
            "\(path):7:11: assumed: parameter from (query) of GET /a (its constraints)",
            "\(path):13:7: assumed: schema Mood (its constraints and every property)",
            "\(path):20:17: assumed: property Page.cursor (its presence, type and constraints)",
        ])
        #expect(run.stderr.contains("\(path): 0 errors, 0 warnings, 3 assumptions (x-assumed)"))
        let ours = try await clientgen(["lint", "specs/soul.yaml"])
        #expect(ours.stderr.contains("specs/soul.yaml: 0 errors, 0 warnings, 4 assumptions (x-assumed)"))
    }

    @Test func errorsExitOneWithPositions() async throws {
        let path = try temporarySpec("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Nope'}\n")
        let run = try await clientgen(["lint", path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(path):7:23: error: '#/components/responses/Nope' does not resolve"))
        #expect(run.stderr.contains("\(path): 1 error, 0 warnings"))
    }

    @Test func warningsAloneExitZeroUnlessStrict() async throws {
        let path = try temporarySpec("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents: {schemas: {N: {type: int}}}\n")
        let lenient = try await clientgen(["lint", path])
        #expect(lenient.status == 0)
        #expect(lenient.stderr.contains("\(path):4:34: warning: unknown schema type 'int'"))
        #expect(try await clientgen(["lint", "--strict", path]).status == 1)
    }

    @Test func jsonFormat() async throws {
        let path = try temporarySpec("info: {title: T}\n")
        let run = try await clientgen(["lint", "--format", "json", path])
        #expect(run.status == 1)
        let diagnostics = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(diagnostics.count == 1)
        let first = try #require(diagnostics.first)
        #expect(first["severity"] as? String == "error")
        #expect(first["code"] as? String == "missing-openapi-version")
        #expect(first["file"] as? String == path)
        #expect(first["line"] as? Int == 1 && first["column"] as? Int == 1)
        #expect(first["hint"] is String)
    }

    @Test func anyFailingFileFailsTheRun() async throws {
        let good = try temporarySpec("openapi: 3.1.0\ninfo: {title: T, version: '1'}\n")
        let bad = try temporarySpec("openapi: 3.1.0\ninfo: {title: \"T}\n")
        let run = try await clientgen(["lint", good, bad])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(good): 0 errors, 0 warnings"))
        #expect(run.stderr.contains("\(bad):2:15: error: YAML syntax error: unterminated quoted string"))
    }
}
