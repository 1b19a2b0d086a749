import ContractCheck
import Foundation
import RuntimeSupport

/// SOUL as its integration guide describes it: OTP request and verify
/// (staging previews and accepts 123456; production "sends" a code by SMS
/// that ``code(sentTo:)`` reveals), a rate limit on code requests answered
/// 429 with `Retry-After`, access tokens that expire after
/// ``Settings/accessTokenLifetime``, refresh tokens that rotate (a used one
/// is refused with 401), logout revoking a refresh token, moods per user,
/// and the health check. Errors are FastAPI's `{"detail": ...}`.
public final class SoulBehaviour: SandboxBehaviour {
    /// The backend's settings.
    public struct Settings: Sendable {
        /// Staging (`DEV_MODE=true`): the request answer carries
        /// `preview_code` and 123456 is accepted.
        public var isStaging = true
        /// Code requests allowed per number within ``rateLimitWindow`` before a 429.
        public var codeRequestsPerNumber = 3
        /// The window the code-request limit counts in.
        public var rateLimitWindow: Duration = .seconds(60)
        /// The `Retry-After` of that 429 (seconds); nil sends none.
        public var rateLimitRetryAfter: Int? = 30
        /// How long an access token is accepted.
        public var accessTokenLifetime: Duration = .seconds(3600)
        /// The code production sends by SMS (random when nil).
        public var smsCode: String?
        /// Moods in a shape the spec did not guess (the document defines
        /// none): each entry with `mood_id`, `score`, `note`, `recorded_at`
        /// and `tags`, without `id` and `created_at`. A client must still
        /// read them (the spec marks the mood `x-assumed`).
        public var moodsInAnotherShape = false

        /// The defaults: staging, 3 code requests a minute, one-hour tokens.
        public init() {}
    }

    /// What the backend has seen.
    public struct Counters: Sendable {
        /// `POST /api/auth/refresh` calls, accepted or not.
        public var refreshCalls = 0
        /// Refresh calls with a token that was already used or revoked.
        public var refusedRefreshes = 0
        /// Code requests, by number (all time).
        public var codeRequests: [String: Int] = [:]
        /// Code requests refused by the rate limit.
        public var rateLimited = 0
        /// Moods created.
        public var moodsCreated = 0
        /// Requests refused because their access token had expired.
        public var expiredTokens = 0
    }

    private struct State {
        var settings: Settings
        var counters = Counters()
        var issuedTokens: [String] = []
        var accessTokens: [String: (user: Int, expires: Date)] = [:]
        var refreshTokens: [String: Int] = [:]
        var codes: [String: String] = [:]
        var codeHistory: Set<String> = []
        var recentCodeRequests: [String: [Date]] = [:]
        var users: [String: Int] = [:]
        var moods: [Int: [[String: Any]]] = [:]
        var nextMood = 1
    }

    private let state: Locked<State>
    private let now: @Sendable () -> Date

    /// A backend with `settings`, reading the time from `now`.
    public init(settings: Settings = Settings(), now: @escaping @Sendable () -> Date = Date.init) {
        state = Locked(State(settings: settings))
        self.now = now
    }

    /// What the backend has seen so far.
    public var counters: Counters { state.withLock { $0.counters } }
    /// Changes the settings.
    public func update(_ change: (inout Settings) -> Void) { state.withLock { change(&$0.settings) } }
    /// Makes every access token issued so far expired.
    public func expireAccessTokens() {
        let past = now().addingTimeInterval(-1)
        state.withLock { state in
            for token in state.accessTokens.keys { state.accessTokens[token]?.expires = past }
        }
    }
    /// The code sent to `phone` by SMS (production mode), for a test to type.
    public func code(sentTo phone: String) -> String? { state.withLock { $0.codes[phone] } }
    /// Every access and refresh token issued so far.
    public var issuedTokens: [String] { state.withLock { $0.issuedTokens } }
    /// Every secret that crossed the wire: tokens, OTP codes, and the full
    /// phone numbers (which must be masked in logs).
    public var secrets: [String] {
        state.withLock { state in
            state.issuedTokens + Array(state.codeHistory) + state.counters.codeRequests.keys.flatMap { [$0, String($0.dropFirst())] }
        }
    }
    /// The refresh tokens the server would still accept.
    public var liveRefreshTokens: Set<String> { state.withLock { Set($0.refreshTokens.keys) } }

    public func expireToken(of request: ContractRequest) -> Bool {
        guard let token = SandboxJSON.bearer(request) else { return false }
        let past = now().addingTimeInterval(-1)
        return state.withLock { state in
            guard state.accessTokens[token] != nil else { return false }
            state.accessTokens[token]?.expires = past
            return true
        }
    }

    public func summary() -> [String: Any] {
        state.withLock { state in
            [
                "users": state.users.count, "moodsCreated": state.counters.moodsCreated, "refreshCalls": state.counters.refreshCalls,
                "refusedRefreshes": state.counters.refusedRefreshes, "codeRequests": state.counters.codeRequests.values.reduce(0, +),
                "rateLimited": state.counters.rateLimited, "expiredTokens": state.counters.expiredTokens,
                "liveRefreshTokens": state.refreshTokens.count,
            ]
        }
    }

    public func respond(to request: ContractRequest) -> SandboxReply? {
        let time = now()
        return state.withLock { Self.handle(request, at: time, state: &$0) }
    }

    /// A protected operation (the moods) with an access token this backend
    /// did not issue, or one that expired: FastAPI's 401.
    public func refuseCredential(of request: ContractRequest) -> SandboxReply? {
        guard request.path == "/api/moods" else { return nil }
        let time = now()
        return state.withLock { Self.user(of: request, at: time, state: &$0) } == nil ? SandboxJSON.reply(401, ["detail": "Invalid token"]) : nil
    }

    /// FastAPI's `{"detail": ...}`, the body of every error the document shows.
    public func errorReply(status: Int, message: String, violations: [ContractViolation]) -> SandboxReply? {
        SandboxJSON.reply(status, ["detail": message])
    }

    /// The user whose live access token `request` carries, or nil (an
    /// expired one is counted).
    private static func user(of request: ContractRequest, at now: Date, state: inout State) -> Int? {
        guard let token = SandboxJSON.bearer(request), let entry = state.accessTokens[token] else { return nil }
        guard entry.expires > now else {
            state.counters.expiredTokens += 1
            return nil
        }
        return entry.user
    }

    private static func handle(_ request: ContractRequest, at now: Date, state: inout State) -> SandboxReply? {
        let body = SandboxJSON.object(request.body)
        func detail(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> SandboxReply {
            SandboxJSON.reply(status, ["detail": text], headers: headers)
        }
        func issueTokens(for user: Int, into state: inout State) -> (access: String, refresh: String) {
            let access = "at-" + UUID().uuidString.lowercased()
            let refresh = "rt-" + UUID().uuidString.lowercased()
            state.issuedTokens += [access, refresh]
            state.accessTokens[access] = (user, now.addingTimeInterval(state.settings.accessTokenLifetime.seconds))
            state.refreshTokens[refresh] = user
            return (access, refresh)
        }
        /// The user, or the 401 FastAPI answers.
        func authenticate(_ state: inout State) -> Int? { user(of: request, at: now, state: &state) }
        let isE164 = { (phone: String) in phone.range(of: #"^\+[1-9]\d{1,14}$"#, options: .regularExpression) != nil }

        switch (request.method, request.path) {
        case ("POST", "/api/auth/otp/request"):
            guard let phone = body["phone"] as? String else { return detail(400, "phone required") }
            guard isE164(phone) else { return detail(400, "Invalid phone number") }
            state.counters.codeRequests[phone, default: 0] += 1
            let windowStart = now.addingTimeInterval(-state.settings.rateLimitWindow.seconds)
            let recent = state.recentCodeRequests[phone, default: []].filter { $0 > windowStart }
            guard recent.count < state.settings.codeRequestsPerNumber else {
                state.recentCodeRequests[phone] = recent
                state.counters.rateLimited += 1
                return detail(429, "Too many requests", headers: state.settings.rateLimitRetryAfter.map { [("Retry-After", String($0))] } ?? [])
            }
            state.recentCodeRequests[phone] = recent + [now]
            if state.settings.isStaging {
                state.codes[phone] = "123456"
                state.codeHistory.insert("123456")
                return SandboxJSON.reply(200, ["status": "ok", "preview_code": "123456"])
            }
            let code = state.settings.smsCode ?? String(format: "%06d", Int.random(in: 0..<1_000_000))
            state.codes[phone] = code
            state.codeHistory.insert(code)
            return SandboxJSON.reply(200, ["status": "ok"])
        case ("POST", "/api/auth/verify-otp"):
            guard let phone = body["phone"] as? String, let otp = body["otp"] as? String else { return detail(400, "phone and otp required") }
            guard isE164(phone) else { return detail(400, "Invalid phone number") }
            guard let expected = state.codes[phone], otp == expected else { return detail(400, "Invalid OTP") }
            state.codes[phone] = nil
            let user = state.users[phone] ?? (state.users.count + 1)
            state.users[phone] = user
            let tokens = issueTokens(for: user, into: &state)
            return SandboxJSON.reply(200, [
                "access_token": tokens.access, "token_type": "bearer", "refresh_token": tokens.refresh,
                "user": ["id": user, "email": "user\(user)@example.com"],
            ])
        case ("POST", "/api/auth/refresh"):
            state.counters.refreshCalls += 1
            guard let old = body["old_refresh_token"] as? String, let user = state.refreshTokens.removeValue(forKey: old) else {
                state.counters.refusedRefreshes += 1
                return detail(401, "Invalid refresh token")
            }
            let tokens = issueTokens(for: user, into: &state)
            return SandboxJSON.reply(200, ["access_token": tokens.access, "refresh_token": tokens.refresh])
        case ("POST", "/api/auth/logout"):
            if let token = body["refresh_token"] as? String { state.refreshTokens[token] = nil }
            return SandboxJSON.reply(200, ["status": "ok"])
        case ("GET", "/api/moods"):
            guard let user = authenticate(&state) else { return detail(401, "Invalid token") }
            return SandboxJSON.reply(200, Array(state.moods[user, default: []].reversed()))
        case ("POST", "/api/moods"):
            guard let user = authenticate(&state) else { return detail(401, "Invalid token") }
            guard let score = body["score"] as? Int, (1...10).contains(score) else { return detail(400, "score must be 1 to 10") }
            // The shape this sandbox gives a mood (the document defines
            // none): a note is text or null, as the moods it answers with.
            guard body["note"] == nil || body["note"] is NSNull || body["note"] is String else { return detail(400, "note must be a string or null") }
            let mood: [String: Any] = state.settings.moodsInAnotherShape
                ? ["mood_id": "m-\(state.nextMood)", "score": score, "note": body["note"] ?? NSNull(), "recorded_at": SandboxJSON.timestamp(now),
                   "tags": ["sandbox"]]
                : ["id": state.nextMood, "score": score, "note": body["note"] ?? NSNull(), "created_at": SandboxJSON.timestamp(now)]
            state.nextMood += 1
            state.counters.moodsCreated += 1
            state.moods[user, default: []].append(mood)
            return SandboxJSON.reply(200, mood)
        case ("GET", "/healthz"):
            return SandboxJSON.reply(200, ["status": "ok", "db": true, "redis": true])
        default:
            return nil
        }
    }
}

extension Duration {
    /// The duration in seconds, fractions included.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
