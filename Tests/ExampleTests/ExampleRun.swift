import BackendDoubles
import Foundation
import ProcessTestSupport
import Testing

/// What one run of a sample app printed.
struct ExampleRun {
    let status: Int32
    let stdout: [String]
    let stderr: String

    /// The stdout lines as JSON objects.
    var objects: [[String: Any]] {
        stdout.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// Runs the built executable `name` with `arguments` and waits for it.
    static func run(_ name: String, _ arguments: [String]) async throws -> ExampleRun {
        let executable = try #require(ChildProcess.executable(named: name), "\(name) is not built beside the tests")
        let run = try await ChildProcess.run(executable, arguments: arguments)
        return ExampleRun(status: run.status, stdout: run.stdout.split(separator: "\n").map(String.init), stderr: run.stderr)
    }
}

/// A fresh folder for a sample app's state.
func makeStateFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

extension ExampleRun {
    /// Signs `safepocket-example` in through `backend`'s hosted page, as a
    /// user would: `authorize-url`, the page, then `exchange` with the
    /// redirect's code and state (after `--`: a random state can begin with
    /// `-`, which would read as an option).
    static func signInSafepocket(_ common: [String], through backend: SafepocketBackend) async throws {
        let start = try await run("safepocket-example", common + ["authorize-url"])
        let text = try #require(start.objects.first?["authorize_url"] as? String, "\(start.stderr)")
        let redirect = try #require(URL(string: text).flatMap(backend.authorize), "the URL carries what PKCE needs")
        let items = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let code = try #require(items.first { $0.name == "code" }?.value)
        let state = try #require(items.first { $0.name == "state" }?.value)
        let exchange = try await run("safepocket-example", common + ["exchange", "--", code, state])
        #expect(exchange.status == 0, "\(exchange.stderr)")
    }
}
