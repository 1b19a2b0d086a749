import Foundation

/// Exchanges a refresh token for new tokens: the one backend-specific piece
/// of token refresh (SOUL: `POST /api/auth/refresh` with `old_refresh_token`;
/// Safepocket: `POST /auth/token` with `grantType: refresh_token`).
///
/// Rules for implementers: throw ``TokenRefreshError/rejected`` when the
/// server refuses the refresh token (the session then ends); throw anything
/// else for a failure that may pass (network, 5xx), which keeps the session.
public protocol TokenRefresher: Sendable {
    /// Returns new tokens for `refreshToken`.
    func refresh(using refreshToken: String) async throws -> TokenPair
}

/// A ``TokenRefresher`` from a closure.
public struct ClosureTokenRefresher: TokenRefresher {
    private let body: @Sendable (String) async throws -> TokenPair

    /// Wraps `body`.
    public init(_ body: @escaping @Sendable (String) async throws -> TokenPair) {
        self.body = body
    }

    /// Calls the closure.
    public func refresh(using refreshToken: String) async throws -> TokenPair { try await body(refreshToken) }
}

/// Why a request that needed a fresh token failed.
public enum TokenRefreshError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Thrown by a ``TokenRefresher`` when the server refuses the refresh token.
    case rejected
    /// The session has ended (its refresh token was refused); the user must sign in again.
    case sessionExpired
    /// There is no refresh token: the user never signed in, or signed out.
    case notSignedIn
    /// More refreshes than `limit` within `window`: the server keeps refusing
    /// fresh tokens, so refreshing stopped instead of looping.
    case refreshLimitExceeded(limit: Int, window: Duration)

    /// A readable summary.
    public var description: String {
        switch self {
        case .rejected: return "the server rejected the refresh token"
        case .sessionExpired: return "the session expired; sign in again"
        case .notSignedIn: return "not signed in"
        case .refreshLimitExceeded(let limit, let window): return "more than \(limit) token refreshes within \(window); stopped to avoid a loop"
        }
    }
}

/// What happened to a session, for the app to observe.
public enum SessionEvent: Sendable, Equatable {
    /// Tokens were set by a sign-in.
    case signedIn
    /// A refresh obtained a new access token.
    case refreshed
    /// The refresh token was refused: tokens are cleared and the user must sign in again.
    case sessionExpired
    /// The app signed out.
    case signedOut
}

/// The token lifecycle of one signed-in user: the current access token (in
/// memory only), the refresh token (in a ``TokenStore``), and refreshes that
/// happen once however many requests need them.
///
/// Guarantees:
/// 1. Single flight: while a refresh runs, every other request that needs one
///    waits for it instead of starting its own.
/// 2. A request that failed with an older token than the current one is
///    retried with the current token, without another refresh.
/// 3. A refused refresh token ends the session: tokens are cleared,
///    ``SessionEvent/sessionExpired`` is sent once, and every waiting request
///    fails with ``TokenRefreshError/sessionExpired``.
/// 4. At most ``refreshLimit`` refreshes per ``refreshWindow`` (default 5 per
///    30 s), so a server that refuses every token cannot cause a refresh loop.
public actor TokenSession {
    /// The most refreshes within ``refreshWindow``.
    public let refreshLimit: Int
    /// The window ``refreshLimit`` applies to.
    public let refreshWindow: Duration
    /// The session's events, in order.
    public nonisolated let events: AsyncStream<SessionEvent>

    private let store: any TokenStore
    private let refresher: any TokenRefresher
    private let eventSink: AsyncStream<SessionEvent>.Continuation
    /// The access token and generation, readable without a hop onto the
    /// actor (every request reads them; only the actor writes them).
    private nonisolated let snapshot: TokenSnapshot
    private var currentAccessToken: String? {
        didSet { snapshot.set(accessToken: currentAccessToken, generation: currentGeneration) }
    }
    private var currentGeneration = 0 {
        didSet { snapshot.set(accessToken: currentAccessToken, generation: currentGeneration) }
    }
    private var inFlight: Task<Void, Never>?
    /// Requests waiting for the refresh in flight; each ends with its result,
    /// or with `CancellationError` when its own task is cancelled.
    private var refreshWaiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var nextWaiter = 0
    private var recentRefreshes: [ContinuousClock.Instant] = []
    private var isActive: Bool
    /// Why the session is inactive: signed out (``TokenRefreshError/notSignedIn``)
    /// or expired (``TokenRefreshError/sessionExpired``).
    private var signedOut = false
    /// Changes on every sign-in, sign-out and expiry, so that a refresh that
    /// was running across one of them neither revives nor wipes the session.
    private var epoch = 0

    /// Creates a session. `accessToken` may be nil after an app launch: the
    /// first protected request then gets a 401 and refreshes.
    public init(
        store: any TokenStore, refresher: any TokenRefresher, accessToken: String? = nil, refreshLimit: Int = 5,
        refreshWindow: Duration = .seconds(30)
    ) {
        self.store = store
        self.refresher = refresher
        self.snapshot = TokenSnapshot(accessToken: accessToken)
        self.currentAccessToken = accessToken
        self.refreshLimit = refreshLimit
        self.refreshWindow = refreshWindow
        self.isActive = true
        (events, eventSink) = AsyncStream.makeStream(of: SessionEvent.self)
    }

    /// The access token to send, if any.
    public nonisolated var accessToken: String? { snapshot.read().accessToken }

    /// Increases with every new access token; requests remember the value
    /// they were sent with (guarantee 2).
    public nonisolated var generation: Int { snapshot.read().generation }

    /// The tokens this session has held lately (access and refresh, the
    /// current ones and a few before them), for a ``Redactor`` to mask
    /// wherever they appear: `Redactor(knownSecrets: { session.recentTokens })`.
    public nonisolated var recentTokens: [String] { snapshot.recentTokens() }

    /// Whether a refresh token is stored: a session exists (signed in now or
    /// at an earlier launch) that a protected request can resume.
    public func hasStoredRefreshToken() async -> Bool {
        (try? await store.loadRefreshToken()) != nil
    }

    /// Stores the tokens of a sign-in (OTP verify, PKCE exchange).
    public func signIn(_ tokens: TokenPair) async throws {
        snapshot.remember([tokens.accessToken, tokens.refreshToken].compactMap { $0 })
        if let refreshToken = tokens.refreshToken { try await store.save(refreshToken: refreshToken) }
        currentAccessToken = tokens.accessToken
        currentGeneration += 1
        isActive = true
        signedOut = false
        epoch += 1
        eventSink.yield(.signedIn)
    }

    /// Forgets both tokens.
    public func signOut() async throws {
        currentAccessToken = nil
        currentGeneration += 1
        isActive = false
        signedOut = true
        epoch += 1
        inFlight?.cancel()
        try await store.clear()
        eventSink.yield(.signedOut)
    }

    /// Makes sure the access token is newer than the one of `generation`:
    /// returns at once if it already is, joins a refresh in flight, or starts
    /// one (guarantees 1, 2 and 4).
    public func refresh(after generation: Int) async throws {
        // An ended session stays ended until the next sign-in (guarantee 3).
        guard isActive else { throw signedOut ? TokenRefreshError.notSignedIn : TokenRefreshError.sessionExpired }
        if currentGeneration > generation { return }
        if inFlight == nil {
            let now = ContinuousClock.now
            recentRefreshes.removeAll { now - $0 > refreshWindow }
            guard recentRefreshes.count < refreshLimit else {
                throw TokenRefreshError.refreshLimitExceeded(limit: refreshLimit, window: refreshWindow)
            }
            recentRefreshes.append(now)
            // The refresh runs on its own: a cancelled caller does not cancel
            // it for the others.
            inFlight = Task {
                do {
                    try await self.performRefresh()
                    self.finishRefresh(.success(()))
                } catch {
                    self.finishRefresh(.failure(error))
                }
            }
        }
        try await waitForRefresh()
    }

    private func waitForRefresh() async throws {
        let id = nextWaiter
        nextWaiter += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    refreshWaiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelRefreshWaiter(id) }
        }
    }

    private func cancelRefreshWaiter(_ id: Int) {
        refreshWaiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }

    private func finishRefresh(_ result: Result<Void, any Error>) {
        inFlight = nil
        let waiters = refreshWaiters.values
        refreshWaiters.removeAll()
        for waiter in waiters { waiter.resume(with: result) }
    }

    private func performRefresh() async throws {
        let startEpoch = epoch
        /// Whether a sign-in, sign-out or expiry happened while this refresh waited.
        func superseded() -> Bool { epoch != startEpoch }
        guard let refreshToken = try await store.loadRefreshToken() else {
            // A session that had an access token and lost its refresh token
            // ends; one that never had either was never signed in.
            if !superseded(), currentAccessToken != nil { expire() }
            throw TokenRefreshError.notSignedIn
        }
        guard !superseded() else { throw TokenRefreshError.sessionExpired }
        let tokens: TokenPair
        do {
            tokens = try await refresher.refresh(using: refreshToken)
        } catch TokenRefreshError.rejected {
            guard !superseded() else { throw TokenRefreshError.sessionExpired }
            expire()
            try? await store.clear()
            throw TokenRefreshError.sessionExpired
        }
        snapshot.remember([refreshToken, tokens.accessToken, tokens.refreshToken].compactMap { $0 })
        guard !superseded() else { throw TokenRefreshError.sessionExpired }
        if let newRefreshToken = tokens.refreshToken { try await store.save(refreshToken: newRefreshToken) }
        guard !superseded() else { throw TokenRefreshError.sessionExpired }
        currentAccessToken = tokens.accessToken
        currentGeneration += 1
        eventSink.yield(.refreshed)
    }

    /// Ends the session because the server refused the access token sent at
    /// `generation` even after a refresh: tokens are cleared and
    /// ``SessionEvent/sessionExpired`` is sent once. Does nothing, and
    /// returns false, when a newer token has arrived since (the refusal may
    /// concern the older one); returns true when the session is over.
    public func endSession(ifStillAt generation: Int) async -> Bool {
        guard isActive else { return true }
        guard currentGeneration == generation else { return false }
        expire()
        inFlight?.cancel()
        try? await store.clear()
        return true
    }

    /// Ends ``events`` (no more events are sent after this).
    public func finishEvents() {
        eventSink.finish()
    }

    private func expire() {
        currentAccessToken = nil
        currentGeneration += 1
        epoch += 1
        if isActive { eventSink.yield(.sessionExpired) }
        isActive = false
    }
}

/// The session's access token and generation behind a lock.
///
/// `@unchecked Sendable` is safe: every field is read and written only while
/// `lock` is held, and only ``TokenSession`` (on its actor) writes them.
private final class TokenSnapshot: @unchecked Sendable {
    private let lock = NSLock()
    private var accessToken: String?
    private var generation = 0
    private var recent: [String] = []

    init(accessToken: String?) {
        self.accessToken = accessToken
        if let accessToken { recent = [accessToken] }
    }

    /// Keeps `tokens` among the last 8 seen.
    func remember(_ tokens: [String]) {
        lock.lock()
        defer { lock.unlock() }
        for token in tokens where !recent.contains(token) {
            recent.append(token)
        }
        if recent.count > 8 { recent.removeFirst(recent.count - 8) }
    }

    func recentTokens() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return recent
    }

    func set(accessToken: String?, generation: Int) {
        lock.lock()
        defer { lock.unlock() }
        self.accessToken = accessToken
        self.generation = generation
    }

    func read() -> (accessToken: String?, generation: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (accessToken, generation)
    }
}
