import Foundation
import LoopbackHTTPServer
import OpenAPIModel
import RuntimeSupport
import SandboxCore

/// A Safepocket backend that behaves as its native API guide says, on a
/// loopback socket: the sandbox's ``SafepocketBehaviour`` for sign-in and
/// tokens (`/auth/token` redeems a code only with the PKCE verifier of its
/// S256 challenge, refreshes rotate, every other operation needs an
/// unexpired bearer token), and the spec's own success status and example
/// for the finance operations, so tests can name the example's ids; errors
/// are the guide's envelope with a `traceId`.
///
/// ``authorize(_:)`` plays the hosted UI: it reads the URL an app opened and
/// returns the redirect with a code and the app's state.
package final class SafepocketBackend: Sendable {
    /// What the backend has seen.
    package typealias Counters = SafepocketBehaviour.Counters

    private struct Route {
        let method: String
        let segments: [String]
        let status: Int
        let example: Data
    }

    /// The server.
    package let server: LoopbackHTTPServer
    /// A fault to answer instead of the real behaviour (nil: behave).
    package let fault = Locked<(@Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply?)?>(nil)
    private let behaviour: SafepocketBehaviour

    /// Starts the backend; the examples come from `specs/safepocket.yaml`.
    /// `now` is the backend's clock (the expiry of the tokens it issues),
    /// and Plaid Link tokens live `linkTokenLifetime`.
    package init(keepAlive: Bool = true, linkTokenLifetime: Duration = .seconds(4 * 3600), now: @escaping @Sendable () -> Date = Date.init) throws {
        behaviour = SafepocketBehaviour(ledger: false, linkTokenLifetime: linkTokenLifetime, now: now)
        let examples = try SpecExamples("safepocket.yaml")
        let routes = try examples.document.operations.compactMap { path, method, operation, _ -> Route? in
            guard let id = operation.operationId, id != "exchangeToken" else { return nil }
            let success = try examples.responses(of: id).first { (200..<300).contains($0.status) }
            return Route(
                method: method.rawValue.uppercased(), segments: path.split(separator: "/").map(String.init),
                status: success?.status ?? 200, example: success?.body ?? Data("{}".utf8))
        }
        let behaviour = self.behaviour
        let fault = self.fault
        server = try LoopbackHTTPServer(keepAlive: keepAlive) { request in
            if let reply = fault.read()?(request) { return reply }
            let segments = request.path.split(separator: "/").map(String.init)
            guard request.path == "/auth/token" || routes.contains(where: { route in
                route.method == request.method && route.segments.count == segments.count
                    && zip(route.segments, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
            }) else {
                return SafepocketBehaviour.envelope(404, "NOT_FOUND", "No route").loopbackReply
            }
            if let reply = behaviour.respond(to: request.contractRequest) { return reply.loopbackReply }
            let route = routes.first { route in
                route.method == request.method && route.segments.count == segments.count
                    && zip(route.segments, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
            }!
            return .respond(status: route.status, headers: [("Content-Type", "application/json")], body: Array(route.example))
        }
    }

    deinit { server.shutdown() }

    /// `http://127.0.0.1:PORT`.
    package var baseURL: URL { server.baseURL }
    /// What the backend has seen so far.
    package var counters: Counters { behaviour.counters }
    /// Every access and refresh token issued so far.
    package var issuedTokens: [String] { behaviour.issuedTokens }
    /// The refresh tokens the server would still accept.
    package var liveRefreshTokens: Set<String> { behaviour.liveRefreshTokens }
    /// Every secret that crossed the wire: tokens, authorization codes, PKCE verifiers.
    package var secrets: [String] { behaviour.secrets }
    /// Makes every access token issued so far expired.
    package func expireAccessTokens() { behaviour.expireAccessTokens() }
    /// Plays Plaid Link: the public token for a live `linkToken`, nil for
    /// an unknown or expired one.
    package func completeLink(linkToken: String) -> String? { behaviour.completeLink(linkToken: linkToken) }

    /// Plays the hosted UI for an authorization URL the app opened: the
    /// redirect carrying a new code and the app's `state`, or nil when the
    /// URL lacks a parameter PKCE needs.
    package func authorize(_ url: URL) -> URL? {
        behaviour.authorize(query: URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery).flatMap(URL.init(string:))
    }

    /// The S256 challenge of a verifier, computed as the server does.
    package static func challenge(for verifier: String) -> String { SafepocketBehaviour.challenge(for: verifier) }

    /// The guide's error envelope.
    package static func envelope(_ status: Int, _ code: String, _ message: String, headers: [(String, String)] = []) -> LoopbackHTTPServer.Reply {
        var reply = SafepocketBehaviour.envelope(status, code, message)
        reply.headers += headers.map { (name: $0.0, value: $0.1) }
        return reply.loopbackReply
    }
}
