import ContractCheck
import Foundation
import LoopbackHTTPServer
import RuntimeSupport
import SandboxCore

/// The whole sandbox (`make sandbox`) on a loopback socket, in strict mode:
/// the four backends with state, every request checked against its spec as
/// a real backend would take it (what a spec marks `x-assumed` held to its
/// type only), and every answer against its spec too. What an SDK test uses
/// to show a request the spec's guesses did not foresee still goes through.
package final class SandboxServer: Sendable {
    /// The server.
    package let server: LoopbackHTTPServer
    /// The sandbox's log lines (a request refused, an answer that broke the spec).
    package let log = Locked<[String]>([])

    private let sandbox: Sandbox

    /// Starts the sandbox over the specs in the package's `specs/` folder,
    /// its backends set by `configure`.
    package init(_ configure: (inout StandardBackends) -> Void = { _ in }) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var backends = StandardBackends()
        configure(&backends)
        let log = self.log
        let sandbox = Sandbox(
            backends: try backends.load(specsFolder: root.appendingPathComponent("specs").path), strict: true,
            log: { line in log.withLock { $0.append(line) } })
        self.sandbox = sandbox
        server = try LoopbackHTTPServer { request in sandbox.handle(request.contractRequest).loopbackReply }
    }

    /// Plays a hosted sign-in page (Safepocket's `oauth2/authorize`): the
    /// redirect the page sends the browser to, read from its `Location`.
    package func redirect(of url: URL) -> URL? {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let reply = sandbox.handle(ContractRequest(method: "GET", path: parts.path, query: parts.percentEncodedQuery, headers: [], body: nil))
        return reply.header("Location").flatMap(URL.init(string:))
    }

    deinit { server.shutdown() }

    /// The base URL of one backend: `http://127.0.0.1:PORT/safepocket`.
    package func baseURL(of backend: String) -> URL { server.baseURL.appendingPathComponent(backend) }
}
