import Foundation
import ProcessTestSupport
import LoopbackHTTPServer

/// A SOUL backend that behaves as the SOUL document says, on a loopback
/// socket: OTP request and verify (the staging preview code 123456), a rate
/// limit on code requests with `Retry-After`, access tokens that expire,
/// refresh tokens that rotate (a used one is refused), logout, moods and the
/// health check. Tests inject faults with ``fault``.
package final class SoulBackend: Sendable {
    /// The server's settings.
    package struct Settings: Sendable {
        /// Staging (`DEV_MODE=true`): the request answer carries
        /// `preview_code` and 123456 is accepted.
        package var isStaging = true
        /// Code requests allowed per number before a 429.
        package var codeRequestsPerNumber = 3
        /// The `Retry-After` of that 429 (seconds); nil sends none.
        package var rateLimitRetryAfter: Int? = 30
        /// How long an access token is accepted.
        package var accessTokenLifetime: Duration = .seconds(3600)
        /// The code production sends by SMS (random when nil).
        package var smsCode: String?

        /// The defaults.
        package init() {}
    }

    /// What the backend has seen, for assertions.
    package struct Counters: Sendable {
        /// `POST /api/auth/refresh` calls, accepted or not.
        package var refreshCalls = 0
        /// Refresh calls with a token that was already used or revoked.
        package var refusedRefreshes = 0
        /// Code requests, by number.
        package var codeRequests: [String: Int] = [:]
        /// Moods created.
        package var moodsCreated = 0
    }

    private struct State {
        var settings: Settings
        var counters = Counters()
        var issuedTokens: [String] = []
        var accessTokens: [String: (user: Int, expires: ContinuousClock.Instant)] = [:]
        var refreshTokens: [String: Int] = [:]
        var codes: [String: String] = [:]
        var codeHistory: Set<String> = []
        var users: [String: Int] = [:]
        var moods: [Int: [[String: Any]]] = [:]
        var nextMood = 1
    }

    /// The server.
    package let server: LoopbackHTTPServer
    /// A fault to answer instead of the real behaviour (nil: behave).
    package let fault = Mutex<(@Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply?)?>(nil)
    private let state: Mutex<State>

    /// Starts the backend on a free loopback port.
    package init(settings: Settings = Settings(), keepAlive: Bool = true) throws {
        let state = Mutex(State(settings: settings))
        let fault = self.fault
        self.state = state
        server = try LoopbackHTTPServer(keepAlive: keepAlive) { request in
            if let reply = fault.withLock({ $0 })?(request) { return reply }
            return state.withLock { Self.handle(request, state: &$0) }
        }
    }

    deinit { server.shutdown() }

    /// `http://127.0.0.1:PORT`.
    package var baseURL: URL { server.baseURL }
    /// What the backend has seen so far.
    package var counters: Counters { state.withLock { $0.counters } }
    /// Changes the settings.
    package func update(_ change: (inout Settings) -> Void) { state.withLock { change(&$0.settings) } }
    /// Makes every access token issued so far expired.
    package func expireAccessTokens() {
        state.withLock { state in
            for token in state.accessTokens.keys { state.accessTokens[token]?.expires = .now - .seconds(1) }
        }
    }
    /// The code sent to `phone` by SMS (production mode), for a test to type.
    package func code(sentTo phone: String) -> String? { state.withLock { $0.codes[phone] } }
    /// Every access and refresh token issued so far.
    package var issuedTokens: [String] { state.withLock { $0.issuedTokens } }
    /// Every secret that crossed the wire: tokens, OTP codes, and the full
    /// phone numbers (which must be masked in logs).
    package var secrets: [String] {
        state.withLock { state in
            state.issuedTokens + Array(state.codeHistory) + state.counters.codeRequests.keys.flatMap { [$0, String($0.dropFirst())] }
        }
    }
    /// The refresh tokens the server would still accept.
    package var liveRefreshTokens: Set<String> { state.withLock { Set($0.refreshTokens.keys) } }

    private static func handle(_ request: LoopbackHTTPServer.Request, state: inout State) -> LoopbackHTTPServer.Reply {
        let body = JSONText.object(request.body) ?? [:]
        func detail(_ status: Int, _ text: String, headers: [(String, String)] = []) -> LoopbackHTTPServer.Reply {
            .json(status, JSONText.text(["detail": text]), headers: headers)
        }
        func issueTokens(for user: Int, into state: inout State) -> (access: String, refresh: String) {
            let access = "at-" + UUID().uuidString.lowercased()
            let refresh = "rt-" + UUID().uuidString.lowercased()
            state.issuedTokens += [access, refresh]
            state.accessTokens[access] = (user, .now + state.settings.accessTokenLifetime)
            state.refreshTokens[refresh] = user
            return (access, refresh)
        }
        func authenticatedUser(_ state: State) -> Int? {
            guard let header = request.header("Authorization"), header.hasPrefix("Bearer "),
                let entry = state.accessTokens[String(header.dropFirst(7))], entry.expires > .now
            else { return nil }
            return entry.user
        }
        let isE164 = { (phone: String) in phone.range(of: #"^\+[1-9]\d{1,14}$"#, options: .regularExpression) != nil }

        switch (request.method, request.path) {
        case ("POST", "/api/auth/otp/request"):
            guard let phone = body["phone"] as? String else { return detail(400, "phone required") }
            guard isE164(phone) else { return detail(400, "Invalid phone number") }
            state.counters.codeRequests[phone, default: 0] += 1
            if state.counters.codeRequests[phone]! > state.settings.codeRequestsPerNumber {
                return detail(429, "Too many requests", headers: state.settings.rateLimitRetryAfter.map { [("Retry-After", String($0))] } ?? [])
            }
            if state.settings.isStaging {
                state.codes[phone] = "123456"
                state.codeHistory.insert("123456")
                return .json(200, #"{"status":"ok","preview_code":"123456"}"#)
            }
            let code = state.settings.smsCode ?? String(format: "%06d", Int.random(in: 0..<1_000_000))
            state.codes[phone] = code
            state.codeHistory.insert(code)
            return .json(200, #"{"status":"ok"}"#)
        case ("POST", "/api/auth/verify-otp"):
            guard let phone = body["phone"] as? String, let otp = body["otp"] as? String else { return detail(400, "phone and otp required") }
            guard isE164(phone) else { return detail(400, "Invalid phone number") }
            guard let expected = state.codes[phone], otp == expected else { return detail(400, "Invalid OTP") }
            state.codes[phone] = nil
            let user = state.users[phone] ?? (state.users.count + 1)
            state.users[phone] = user
            let tokens = issueTokens(for: user, into: &state)
            return .json(200, JSONText.text([
                "access_token": tokens.access, "token_type": "bearer", "refresh_token": tokens.refresh,
                "user": ["id": user, "email": "\(phone)@example.com"],
            ]))
        case ("POST", "/api/auth/refresh"):
            state.counters.refreshCalls += 1
            guard let old = body["old_refresh_token"] as? String, let user = state.refreshTokens.removeValue(forKey: old) else {
                state.counters.refusedRefreshes += 1
                return detail(401, "Invalid refresh token")
            }
            let tokens = issueTokens(for: user, into: &state)
            return .json(200, JSONText.text(["access_token": tokens.access, "refresh_token": tokens.refresh]))
        case ("POST", "/api/auth/logout"):
            if let token = body["refresh_token"] as? String { state.refreshTokens[token] = nil }
            return .json(200, #"{"status":"ok"}"#)
        case ("GET", "/api/moods"):
            guard let user = authenticatedUser(state) else { return detail(401, "Invalid token") }
            return .json(200, JSONText.text(Array(state.moods[user, default: []].reversed())))
        case ("POST", "/api/moods"):
            guard let user = authenticatedUser(state) else { return detail(401, "Invalid token") }
            guard let score = body["score"] as? Int, (1...10).contains(score) else { return detail(422, "score must be 1 to 10") }
            let mood: [String: Any] = [
                "id": state.nextMood, "score": score, "note": body["note"] ?? NSNull(), "created_at": "2025-01-15T08:30:00Z",
            ]
            state.nextMood += 1
            state.counters.moodsCreated += 1
            state.moods[user, default: []].append(mood)
            return .json(200, JSONText.text(mood))
        case ("GET", "/healthz"):
            return .json(200, #"{"status":"ok","db":true,"redis":true}"#)
        default:
            return detail(404, "Not Found")
        }
    }
}
