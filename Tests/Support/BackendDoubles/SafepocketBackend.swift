import Crypto
import Foundation
import ProcessTestSupport
import LoopbackHTTPServer
import OpenAPIModel

/// A Safepocket backend that behaves as its native API guide says, on a
/// loopback socket: `/auth/token` redeems an authorization code only with
/// the PKCE verifier whose S256 challenge the authorization URL carried, and
/// refreshes with rotation (a used refresh token is refused); every other
/// operation needs an unexpired bearer token and answers with the spec's
/// own success status and example; errors are the guide's envelope with a `traceId`.
///
/// ``authorize(_:)`` plays the hosted UI: it reads the URL an app opened and
/// returns the redirect with a code and the app's state.
package final class SafepocketBackend: Sendable {
    /// What the backend has seen.
    package struct Counters: Sendable {
        /// Refresh grants received, accepted or not.
        package var refreshes = 0
        /// Code exchanges received, accepted or not.
        package var codeExchanges = 0
    }

    private struct State {
        var counters = Counters()
        var codes: [String: (challenge: String, redirectURI: String)] = [:]
        var accessTokens: [String: ContinuousClock.Instant] = [:]
        var refreshTokens: Set<String> = []
        var issuedTokens: [String] = []
        var secretsSeen: [String] = []
        var accessTokenLifetime: Duration = .seconds(3600)
    }

    private struct Route {
        let method: String
        let segments: [String]
        let operationID: String
        let status: Int
        let example: Data
    }

    /// The server.
    package let server: LoopbackHTTPServer
    /// A fault to answer instead of the real behaviour (nil: behave).
    package let fault = Mutex<(@Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply?)?>(nil)
    private let state = Mutex(State())

    /// Starts the backend; the examples come from `specs/safepocket.yaml`.
    package init(keepAlive: Bool = true) throws {
        let examples = try SpecExamples("safepocket.yaml")
        let routes = try examples.document.operations.compactMap { path, method, operation, _ -> Route? in
            guard let id = operation.operationId, id != "exchangeToken" else { return nil }
            let success = try examples.responses(of: id).first { (200..<300).contains($0.status) }
            return Route(
                method: method.rawValue.uppercased(), segments: path.split(separator: "/").map(String.init), operationID: id,
                status: success?.status ?? 200, example: success?.body ?? Data("{}".utf8))
        }
        let state = self.state
        let fault = self.fault
        server = try LoopbackHTTPServer(keepAlive: keepAlive) { request in
            if let reply = fault.withLock({ $0 })?(request) { return reply }
            return state.withLock { Self.handle(request, routes: routes, state: &$0) }
        }
    }

    deinit { server.shutdown() }

    /// `http://127.0.0.1:PORT`.
    package var baseURL: URL { server.baseURL }
    /// What the backend has seen so far.
    package var counters: Counters { state.withLock { $0.counters } }
    /// Every access and refresh token issued so far.
    package var issuedTokens: [String] { state.withLock { $0.issuedTokens } }
    /// The refresh tokens the server would still accept.
    package var liveRefreshTokens: Set<String> { state.withLock { $0.refreshTokens } }
    /// Every secret that crossed the wire: tokens, authorization codes, PKCE verifiers.
    package var secrets: [String] { state.withLock { $0.issuedTokens + $0.secretsSeen } }
    /// Makes every access token issued so far expired.
    package func expireAccessTokens() {
        state.withLock { state in
            for token in state.accessTokens.keys { state.accessTokens[token] = .now - .seconds(1) }
        }
    }

    /// Plays the hosted UI for an authorization URL the app opened: checks
    /// what PKCE needs, remembers the challenge with a new code, and returns
    /// the redirect carrying the code and the app's `state`. Nil when the URL
    /// lacks a required parameter.
    package func authorize(_ url: URL) -> URL? {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        guard value("response_type") == "code", value("code_challenge_method") == "S256", let challenge = value("code_challenge"),
            let redirect = value("redirect_uri"), let state = value("state"), value("client_id") != nil
        else { return nil }
        let code = UUID().uuidString.lowercased()
        self.state.withLock {
            $0.codes[code] = (challenge, redirect)
            $0.secretsSeen.append(code)
        }
        var components = URLComponents(string: redirect)!
        components.queryItems = [URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: state)]
        return components.url
    }

    /// The S256 challenge of a verifier, computed as the server does.
    package static func challenge(for verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The guide's error envelope.
    package static func envelope(_ status: Int, _ code: String, _ message: String, headers: [(String, String)] = []) -> LoopbackHTTPServer.Reply {
        .json(status, JSONText.text(["error": ["code": code, "message": message], "traceId": "trace-\(status)-\(code.lowercased())"]), headers: headers)
    }

    private static func handle(_ request: LoopbackHTTPServer.Request, routes: [Route], state: inout State) -> LoopbackHTTPServer.Reply {
        func issue(into state: inout State) -> [String: Any] {
            let access = "at-" + UUID().uuidString.lowercased()
            let refresh = "rt-" + UUID().uuidString.lowercased()
            state.accessTokens[access] = .now + state.accessTokenLifetime
            state.refreshTokens.insert(refresh)
            state.issuedTokens += [access, refresh]
            return ["accessToken": access, "refreshToken": refresh, "expiresIn": 3600, "tokenType": "Bearer", "traceId": "trace-token"]
        }
        if request.method == "POST", request.path == "/auth/token" {
            let body = JSONText.object(request.body) ?? [:]
            if let verifier = body["codeVerifier"] as? String { state.secretsSeen.append(verifier) }
            switch body["grantType"] as? String {
            case "authorization_code":
                state.counters.codeExchanges += 1
                guard let code = body["code"] as? String, let issued = state.codes.removeValue(forKey: code) else {
                    return envelope(400, "INVALID_REQUEST", "Unknown or used authorization code")
                }
                guard body["redirectUri"] as? String == issued.redirectURI else {
                    return envelope(400, "INVALID_REQUEST", "redirectUri does not match the authorization request")
                }
                guard let verifier = body["codeVerifier"] as? String, challenge(for: verifier) == issued.challenge else {
                    return envelope(400, "INVALID_REQUEST", "PKCE verification failed")
                }
                return .json(200, JSONText.text(issue(into: &state)))
            case "refresh_token":
                state.counters.refreshes += 1
                guard let token = body["refreshToken"] as? String, state.refreshTokens.remove(token) != nil else {
                    return envelope(401, "UNAUTHENTICATED", "Invalid refresh token")
                }
                return .json(200, JSONText.text(issue(into: &state)))
            default:
                return envelope(400, "INVALID_REQUEST", "grantType must be authorization_code or refresh_token")
            }
        }
        let segments = request.path.split(separator: "/").map(String.init)
        guard let route = routes.first(where: { route in
            route.method == request.method && route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }) else {
            return envelope(404, "NOT_FOUND", "No route")
        }
        guard let header = request.header("Authorization"), header.hasPrefix("Bearer "),
            let expiry = state.accessTokens[String(header.dropFirst(7))], expiry > .now
        else {
            return envelope(401, "UNAUTHENTICATED", "Access token missing or expired")
        }
        return .respond(status: route.status, headers: [("Content-Type", "application/json")], body: Array(route.example))
    }
}
