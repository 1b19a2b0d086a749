import ContractCheck
import Foundation
import RuntimeSupport

/// Safepocket as its native API guide describes it: a hosted authorization
/// page (`GET /oauth2/authorize`, outside the API spec) that redirects to the
/// app with a code and its `state`; `POST /auth/token` redeeming that code
/// only with the PKCE verifier whose S256 challenge the authorization
/// carried, and refreshing with rotation (a used refresh token is refused);
/// every other operation behind an unexpired bearer token; accounts and
/// transactions from a seeded ledger (``SafepocketLedger``), filtered and
/// paged as the spec says; transaction updates deduplicated by
/// `Idempotency-Key`; Plaid Link tokens (`POST /plaid/link-token`) that
/// expire as Plaid's do, four hours after creation, one per
/// `Idempotency-Key`, and public tokens (``completeLink(linkToken:)`` plays
/// Plaid Link) that `POST /plaid/exchange` redeems once, before the link
/// token expires. Errors are the guide's envelope with a `traceId`.
public final class SafepocketBehaviour: SandboxBehaviour {
    /// What the backend has seen.
    public struct Counters: Sendable {
        /// Refresh grants received, accepted or not.
        public var refreshes = 0
        /// Code exchanges received, accepted or not.
        public var codeExchanges = 0
        /// Writes applied (first delivery of their `Idempotency-Key`).
        public var writesApplied = 0
        /// Writes answered from a key seen before, not applied again.
        public var writesReplayed = 0
        /// Requests refused because their access token had expired.
        public var expiredTokens = 0
        /// Plaid Link tokens created (a replayed `Idempotency-Key` not counted).
        public var linkTokensCreated = 0
        /// Plaid public tokens exchanged for an item.
        public var publicTokensExchanged = 0
    }

    private struct State {
        var counters = Counters()
        var codes: [String: (challenge: String, redirectURI: String)] = [:]
        var accessTokens: [String: Date] = [:]
        var refreshTokens: Set<String> = []
        var issuedTokens: [String] = []
        var secretsSeen: [String] = []
        var accessTokenLifetime: Duration
        var ledger: SafepocketLedger?
        var replies: [String: SandboxReply] = [:]
        var linkTokenLifetime: Duration
        /// Link tokens issued, with their expiry.
        var linkTokens: [String: Date] = [:]
        /// Public tokens Plaid Link returned and not yet exchanged.
        var publicTokens: Set<String> = []
    }

    /// The currency of every account.
    static let currency = "USD"
    /// The path of the hosted authorization page.
    public static let authorizePath = "/oauth2/authorize"
    private let state: Locked<State>
    private let now: @Sendable () -> Date

    /// A backend whose ledger is generated from `seed`, with a year of
    /// transactions ending in `lastMonth` (the current month when nil),
    /// access tokens living `accessTokenLifetime` and Plaid Link tokens
    /// `linkTokenLifetime` (Plaid's four hours by default). Without
    /// `ledger`, the finance operations are left to the spec's examples
    /// (nil answers).
    public init(seed: UInt64 = 1, lastMonth: (year: Int, month: Int)? = nil, accessTokenLifetime: Duration = .seconds(3600), ledger: Bool = true,
                linkTokenLifetime: Duration = .seconds(4 * 3600), now: @escaping @Sendable () -> Date = Date.init) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: now())
        let month = lastMonth ?? (parts.year!, parts.month!)
        state = Locked(State(
            accessTokenLifetime: accessTokenLifetime, ledger: ledger ? SafepocketLedger(seed: seed, lastMonth: month) : nil,
            linkTokenLifetime: linkTokenLifetime))
        self.now = now
    }

    /// What the backend has seen so far.
    public var counters: Counters { state.withLock { $0.counters } }
    /// Every access and refresh token issued so far.
    public var issuedTokens: [String] { state.withLock { $0.issuedTokens } }
    /// The refresh tokens the server would still accept.
    public var liveRefreshTokens: Set<String> { state.withLock { $0.refreshTokens } }
    /// Every secret that crossed the wire: tokens (Plaid's too), authorization codes, PKCE verifiers.
    public var secrets: [String] { state.withLock { $0.issuedTokens + $0.secretsSeen } }

    /// Plays Plaid Link for `linkToken`: the public token a user who linked
    /// an account would bring back, or nil when the link token is unknown or
    /// expired (Link would exit with `INVALID_LINK_TOKEN`).
    public func completeLink(linkToken: String) -> String? {
        let time = now()
        return state.withLock { state in
            guard let expiry = state.linkTokens[linkToken], expiry > time else { return nil }
            let publicToken = "public-sandbox-" + UUID().uuidString.lowercased()
            state.publicTokens.insert(publicToken)
            state.secretsSeen.append(publicToken)
            return publicToken
        }
    }

    /// Makes every access token issued so far expired.
    public func expireAccessTokens() {
        let past = now().addingTimeInterval(-1)
        state.withLock { state in
            for token in state.accessTokens.keys { state.accessTokens[token] = past }
        }
    }

    public func expireToken(of request: ContractRequest) -> Bool {
        guard let token = SandboxJSON.bearer(request) else { return false }
        let past = now().addingTimeInterval(-1)
        return state.withLock { state in
            guard state.accessTokens[token] != nil else { return false }
            state.accessTokens[token] = past
            return true
        }
    }

    public func summary() -> [String: Any] {
        state.withLock { state in
            [
                "codeExchanges": state.counters.codeExchanges, "refreshes": state.counters.refreshes,
                "writesApplied": state.counters.writesApplied, "writesReplayed": state.counters.writesReplayed,
                "expiredTokens": state.counters.expiredTokens, "liveRefreshTokens": state.refreshTokens.count,
                "accounts": state.ledger?.accounts.count ?? 0, "transactions": state.ledger?.transactions.count ?? 0,
            ]
        }
    }

    /// Plays the hosted UI for an authorization request's query: checks what
    /// PKCE needs, remembers the challenge with a new code, and returns the
    /// redirect carrying the code and the app's `state`. Nil when the query
    /// lacks a required parameter.
    public func authorize(query: String?) -> String? {
        func value(_ name: String) -> String? { SandboxJSON.query(query, name) }
        guard value("response_type") == "code", value("code_challenge_method") == "S256", let challenge = value("code_challenge"),
            let redirect = value("redirect_uri"), var components = URLComponents(string: redirect), let appState = value("state"),
            value("client_id") != nil
        else { return nil }
        let code = UUID().uuidString.lowercased()
        state.withLock {
            $0.codes[code] = (challenge, redirect)
            $0.secretsSeen.append(code)
        }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: appState)]
        return components.string
    }

    /// The S256 challenge of a verifier, computed as the server does.
    public static func challenge(for verifier: String) -> String {
        Data(SHA256.hash(Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The guide's error envelope.
    public static func envelope(_ status: Int, _ code: String, _ message: String) -> SandboxReply {
        SandboxJSON.reply(status, ["error": ["code": code, "message": message], "traceId": "trace-\(status)-\(code.lowercased())"])
    }

    public func respondOutsideSpec(to request: ContractRequest) -> SandboxReply? {
        guard request.path == Self.authorizePath else { return nil }
        guard request.method == "GET" else { return Self.envelope(405, "METHOD_NOT_ALLOWED", "GET only") }
        guard let location = authorize(query: request.query) else {
            return Self.envelope(
                400, "INVALID_REQUEST",
                "the authorization request needs response_type=code, client_id, redirect_uri, state, code_challenge and code_challenge_method=S256")
        }
        return SandboxReply(status: 302, headers: [("Location", location)], body: [])
    }

    public func respond(to request: ContractRequest) -> SandboxReply? {
        let time = now()
        return state.withLock { Self.handle(request, at: time, state: &$0) }
    }

    /// Every operation but `POST /auth/token` with an access token this
    /// backend did not issue, or one that expired: `UNAUTHENTICATED`.
    public func refuseCredential(of request: ContractRequest) -> SandboxReply? {
        guard !(request.method == "POST" && request.path == "/auth/token") else { return nil }
        let time = now()
        return state.withLock { Self.refusal(of: request, at: time, state: &$0) }
    }

    /// The guide's `ErrorEnvelope`, every broken rule in `error.details`
    /// (field -> reason, the documented use of that member).
    public func errorReply(status: Int, message: String, violations: [ContractViolation]) -> SandboxReply? {
        let code = switch status {
        case 401: "UNAUTHENTICATED"
        case 403: "FORBIDDEN"
        case 404, 405: "NOT_FOUND"
        default: "INVALID_REQUEST"
        }
        var details: [String: String] = [:]
        for violation in violations {
            let field = violation.field.isEmpty ? "request" : violation.field
            let reason = violation.message + " [\(violation.rule)]" + (violation.specPosition.map { " (\($0))" } ?? "")
            details[field] = details[field].map { $0 + "; " + reason } ?? reason
        }
        return SandboxJSON.reply(status, ["error": ["code": code, "message": message, "details": details], "traceId": "trace-\(status)-\(code.lowercased())"])
    }

    /// Where a write's answer is kept for replay: its `Idempotency-Key`
    /// within its method and path, so a key reused for another operation
    /// (or another transaction) is a new write, never another write's answer.
    static func replayKey(of request: ContractRequest) -> String? {
        request.header("Idempotency-Key").map { "\(request.method) \(request.path) \($0.lowercased())" }
    }

    /// The 401 of a request without a live access token, or nil.
    private static func refusal(of request: ContractRequest, at now: Date, state: inout State) -> SandboxReply? {
        guard let token = SandboxJSON.bearer(request), let expiry = state.accessTokens[token], expiry > now else {
            if let token = SandboxJSON.bearer(request), state.accessTokens[token] != nil { state.counters.expiredTokens += 1 }
            return envelope(401, "UNAUTHENTICATED", "Access token missing or expired")
        }
        return nil
    }

    private static func handle(_ request: ContractRequest, at now: Date, state: inout State) -> SandboxReply? {
        let body = SandboxJSON.object(request.body)
        func issue(into state: inout State) -> [String: Any] {
            let access = "at-" + UUID().uuidString.lowercased()
            let refresh = "rt-" + UUID().uuidString.lowercased()
            state.accessTokens[access] = now.addingTimeInterval(state.accessTokenLifetime.seconds)
            state.refreshTokens.insert(refresh)
            state.issuedTokens += [access, refresh]
            return ["accessToken": access, "refreshToken": refresh, "expiresIn": Int(state.accessTokenLifetime.seconds), "tokenType": "Bearer", "traceId": "trace-token"]
        }
        if request.method == "POST", request.path == "/auth/token" {
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
                return SandboxJSON.reply(200, issue(into: &state))
            case "refresh_token":
                state.counters.refreshes += 1
                guard let token = body["refreshToken"] as? String, state.refreshTokens.remove(token) != nil else {
                    return envelope(401, "UNAUTHENTICATED", "Invalid refresh token")
                }
                return SandboxJSON.reply(200, issue(into: &state))
            default:
                return envelope(400, "INVALID_REQUEST", "grantType must be authorization_code or refresh_token")
            }
        }
        if let refusal = refusal(of: request, at: now, state: &state) { return refusal }
        if request.method == "POST", request.path.hasPrefix("/plaid/") {
            return plaid(request, body: body, at: now, state: &state)
        }
        guard let ledger = state.ledger else { return nil }
        let segments = request.path.split(separator: "/").map(String.init)
        switch (request.method, segments.count, segments.first) {
        case ("GET", 1, "accounts"):
            let accounts = ledger.accounts
            return SandboxJSON.reply(200, [
                "currency": currency, "totalBalance": SafepocketLedger.money(accounts.reduce(0) { $0 + $1.balanceCents }),
                "accounts": accounts.map { SafepocketLedger.json($0, currency: currency) }, "traceId": "trace-accounts",
            ])
        case ("GET", 1, "transactions"):
            return transactions(request.query, ledger: ledger)
        case ("PATCH", 2, "transactions"):
            let key = Self.replayKey(of: request)
            if let key, let earlier = state.replies[key] {
                state.counters.writesReplayed += 1
                return earlier
            }
            let notes = body["notes"]
            guard let updated = state.ledger?.update(segments[1], { transaction in
                if let category = body["category"] as? String { transaction.category = category }
                if notes is NSNull { transaction.notes = nil } else if let text = notes as? String { transaction.notes = text }
            }) else {
                return envelope(404, "NOT_FOUND", "No transaction with this id")
            }
            state.counters.writesApplied += 1
            let reply = SandboxJSON.reply(200, SafepocketLedger.json(updated, currency: currency))
            if let key { state.replies[key] = reply }
            return reply
        default:
            return nil
        }
    }

    /// `POST /plaid/link-token` and `POST /plaid/exchange`, answered once
    /// per `Idempotency-Key` (a replayed key gets the first answer).
    private static func plaid(_ request: ContractRequest, body: [String: Any], at now: Date, state: inout State) -> SandboxReply? {
        let key = Self.replayKey(of: request)
        if let key, let earlier = state.replies[key] { return earlier }
        let reply: SandboxReply
        switch request.path {
        case "/plaid/link-token":
            let token = "link-sandbox-" + UUID().uuidString.lowercased()
            state.linkTokens[token] = now.addingTimeInterval(state.linkTokenLifetime.seconds)
            state.secretsSeen.append(token)
            state.counters.linkTokensCreated += 1
            reply = SandboxJSON.reply(200, [
                "linkToken": token, "expiration": SandboxJSON.timestamp(state.linkTokens[token]!), "requestId": "req-\(state.counters.linkTokensCreated)",
                "traceId": "trace-link-token",
            ])
        case "/plaid/exchange":
            guard let publicToken = body["publicToken"] as? String, state.publicTokens.remove(publicToken) != nil else {
                return envelope(502, "PLAID_ERROR", "INVALID_PUBLIC_TOKEN: unknown, used or expired public token")
            }
            state.counters.publicTokensExchanged += 1
            reply = SandboxJSON.reply(200, ["itemId": "item-\(state.counters.publicTokensExchanged)", "status": "LINKED", "traceId": "trace-plaid-exchange"])
        default:
            return nil
        }
        if let key { state.replies[key] = reply }
        return reply
    }

    /// What of a transaction a window bound is compared with: its month for
    /// a month (`2024-01`, as the spec guesses the bounds), its UTC day for a
    /// day (`2024-01-15`, as a real backend may take them).
    private static func windowKey(_ transaction: SafepocketLedger.Transaction, like bound: String) -> String {
        guard bound.count == 10 else { return transaction.month }
        return String(SandboxJSON.timestamp(transaction.occurredAt).prefix(10))
    }

    /// `GET /transactions`: the window (`from`/`to`, months or days, over
    /// `month`; the whole history without either), `accountId`, then one
    /// page, newest first, with totals over the whole window.
    private static func transactions(_ query: String?, ledger: SafepocketLedger) -> SandboxReply {
        let month = SandboxJSON.query(query, "month"), from = SandboxJSON.query(query, "from"), to = SandboxJSON.query(query, "to")
        let account = SandboxJSON.query(query, "accountId")?.lowercased()
        let page = SandboxJSON.query(query, "page").flatMap { Int($0) } ?? 0
        let pageSize = SandboxJSON.query(query, "pageSize").flatMap { Int($0) } ?? 15
        // The spec guesses the paging bounds (`x-assumed`), but a page the
        // answer cannot state (its `page` is an int32) or a size below one
        // is a request no backend can serve: the guide's validation error.
        guard (0...Int(Int32.max)).contains(page), (1...Int(Int32.max)).contains(pageSize) else {
            return SandboxJSON.reply(400, [
                "error": ["code": "INVALID_REQUEST", "message": "page must be 0 or more and pageSize 1 or more", "details": ["page": "0 to 2147483647", "pageSize": "1 to 2147483647"]],
                "traceId": "trace-400-invalid_request",
            ])
        }
        let ranged = from != nil || to != nil
        // A bound is a month or a day (the real backend may take either);
        // anything else is refused as the guide's validation error.
        for (name, bound) in [("from", from), ("to", to)] {
            guard let bound else { continue }
            let isMonth = bound.wholeMatch(of: /[0-9]{4}-(0[1-9]|1[0-2])/) != nil
            let isDay = bound.wholeMatch(of: /[0-9]{4}-(0[1-9]|1[0-2])-[0-9]{2}/) != nil && ISO8601DateFormatter.calendarDay(bound)
            guard isMonth || isDay else {
                return SandboxJSON.reply(400, [
                    "error": ["code": "INVALID_REQUEST", "message": "Invalid \(name) (YYYY-MM or YYYY-MM-DD)", "details": [name: "must be YYYY-MM or YYYY-MM-DD"]],
                    "traceId": "trace-400-invalid_request",
                ])
            }
        }
        let window = ledger.transactions.filter { transaction in
            if let account, transaction.accountID != account { return false }
            if ranged {
                return (from.map { windowKey(transaction, like: $0) >= $0 } ?? true) && (to.map { windowKey(transaction, like: $0) <= $0 } ?? true)
            }
            return month.map { transaction.month == $0 } ?? true
        }
        let (skipped, overflow) = page.multipliedReportingOverflow(by: pageSize)
        let pageItems = window.dropFirst(overflow ? window.count : skipped).prefix(pageSize)
        var monthNet: [String: Int] = [:]
        var categoryTotals: [String: Int] = [:]
        for transaction in window {
            monthNet[transaction.month, default: 0] += transaction.amountCents
            if transaction.amountCents < 0 { categoryTotals[transaction.category, default: 0] += transaction.amountCents }
        }
        let income = window.filter { $0.amountCents > 0 }.reduce(0) { $0 + $1.amountCents }
        let expense = window.filter { $0.amountCents < 0 }.reduce(0) { $0 + $1.amountCents }
        return SandboxJSON.reply(200, [
            "period": [
                "month": ranged ? NSNull() : (month ?? NSNull()) as Any,
                "from": from.map { $0.count == 10 ? $0 : "\($0)-01" } ?? NSNull() as Any,
                "to": to.map { $0.count == 10 ? $0 : lastDay(of: $0) } ?? NSNull() as Any,
            ],
            "aggregates": [
                "incomeTotal": SafepocketLedger.money(income), "expenseTotal": SafepocketLedger.money(expense),
                "netTotal": SafepocketLedger.money(income + expense), "monthNet": monthNet.mapValues(SafepocketLedger.money),
                "categoryTotals": categoryTotals.mapValues(SafepocketLedger.money), "count": window.count,
            ],
            "page": page, "pageSize": pageItems.count, "total": window.count,
            "transactions": pageItems.map { SafepocketLedger.json($0, currency: currency) }, "traceId": "trace-transactions",
        ])
    }

    /// `2024-02` -> `2024-02-29`.
    static func lastDay(of month: String) -> String {
        let parts = month.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 2 else { return month + "-28" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: 1))!
        let days = calendar.range(of: .day, in: .month, for: start)?.count ?? 28
        return String(format: "%@-%02d", month, days)
    }
}

extension ISO8601DateFormatter {
    /// Whether `text` (`YYYY-MM-DD`) names a day that exists.
    static func calendarDay(_ text: String) -> Bool {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.date(from: text).map { formatter.string(from: $0) == text } ?? false
    }
}
