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
    /// The request belongs to a sign-in that has ended (signed out, expired,
    /// or another sign-in since): it is not sent with the tokens of the
    /// sign-in that replaced it.
    case signInChanged

    /// A readable summary.
    public var description: String {
        switch self {
        case .rejected: return "the server rejected the refresh token"
        case .sessionExpired: return "the session expired; sign in again"
        case .notSignedIn: return "not signed in"
        case .refreshLimitExceeded(let limit, let window): return "more than \(limit) token refreshes within \(window); stopped to avoid a loop"
        case .signInChanged: return "the sign-in this request belonged to has ended; it was not sent with another's tokens"
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

/// How a session ended, for the SDK to delete what the user left
/// (``SessionEndHandler``).
public enum SessionEnd: Sendable, Hashable {
    /// The app signed out.
    case signedOut
    /// The server refused the refresh token (or a new access token): the
    /// session expired.
    case expired
}

/// What an SDK does when its session ends, so nothing of the user is left
/// for whoever uses the app next: called by ``TokenSession`` in two steps.
public struct SessionEndHandler: Sendable {
    /// Runs on the session's actor the moment the session ends, before any
    /// request can see it ended: quick synchronous work only (the response
    /// cache leaves the user's partition, so nothing of theirs is served).
    public var immediately: @Sendable (SessionEnd) -> Void
    /// Runs next, awaited before the call that ended the session returns:
    /// the rest (queued writes, the pending sign-in).
    public var afterwards: @Sendable (SessionEnd) async -> Void

    /// Creates a handler.
    public init(immediately: @escaping @Sendable (SessionEnd) -> Void, afterwards: @escaping @Sendable (SessionEnd) async -> Void) {
        self.immediately = immediately
        self.afterwards = afterwards
    }
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
/// 5. A request belongs to the sign-in it started under (``signInEpoch``,
///    bound by ``TokenRefreshMiddleware``, or by the SDK for a queued write
///    through ``boundSignIn``): after a sign-out, an expiry or another
///    sign-in it is never sent, retried or refreshed with the new sign-in's
///    tokens (``TokenRefreshError/signInChanged``).
/// 6. When the session ends (sign-out, expiry) the ``SessionEndHandler``
///    runs: first at once, then awaited before the ending call returns.
/// 7. Sign-out always wins: every call the session makes to its store runs
///    after the ones it made before (the store sees them in the session's
///    order, whichever task awaits which), so a sign-out's `clear` runs
///    after a refresh's `save` that was already under way, never before it,
///    and a late sign-in or refresh of one user runs before the next one's.
///    A write is made only for the sign-in it belongs to, and one that
///    finishes after its session ended is cleared again.
public actor TokenSession {
    /// The most refreshes within ``refreshWindow``.
    public let refreshLimit: Int
    /// The window ``refreshLimit`` applies to.
    public let refreshWindow: Duration
    /// The session's events, in order.
    public nonisolated let events: AsyncStream<SessionEvent>

    private let store: any TokenStore
    private let refresher: any TokenRefresher
    private let endHandler: SessionEndHandler?
    private let eventSink: AsyncStream<SessionEvent>.Continuation
    /// The access token and generation, readable without a hop onto the
    /// actor (every request reads them; only the actor writes them).
    private nonisolated let snapshot: TokenSnapshot
    // The three below are published to `snapshot` together (`publish()`),
    // so a reader never pairs one sign-in's token with another's epoch.
    private var currentAccessToken: String?
    private var currentGeneration = 0
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
    /// The last store call the session made: the next one waits for it
    /// (guarantee 7).
    private var lastStoreCall: Task<Void, Never>?

    /// The sign-in a request is bound to (a ``signInEpoch`` value), set for
    /// the request's task by ``TokenRefreshMiddleware`` (or by an SDK around
    /// a queued write): the bearer token is not sent, and no refresh is
    /// awaited, for a request whose sign-in has ended.
    @TaskLocal public static var boundSignIn: Int?

    /// Creates a session. `accessToken` may be nil after an app launch: the
    /// first protected request then gets a 401 and refreshes. `onEnd` runs
    /// when the session ends (guarantee 6).
    public init(
        store: any TokenStore, refresher: any TokenRefresher, accessToken: String? = nil, refreshLimit: Int = 5,
        refreshWindow: Duration = .seconds(30), onEnd: SessionEndHandler? = nil
    ) {
        self.store = store
        self.refresher = refresher
        self.endHandler = onEnd
        self.snapshot = TokenSnapshot(accessToken: accessToken)
        self.currentAccessToken = accessToken
        self.refreshLimit = refreshLimit
        self.refreshWindow = refreshWindow
        self.isActive = true
        (events, eventSink) = AsyncStream.makeStream(of: SessionEvent.self)
    }

    /// The access token to send, if any.
    public nonisolated var accessToken: String? { snapshot.read().accessToken }

    /// The access token and the sign-in it belongs to, read together.
    public nonisolated var credentials: (accessToken: String?, signInEpoch: Int) {
        let current = snapshot.read()
        return (current.accessToken, current.epoch)
    }

    /// Increases with every new access token; requests remember the value
    /// they were sent with (guarantee 2).
    public nonisolated var generation: Int { snapshot.read().generation }

    /// Changes with every sign-in, sign-out and expiry (not with a
    /// refresh): which sign-in a request belongs to (guarantee 5).
    public nonisolated var signInEpoch: Int { snapshot.read().epoch }

    /// Whether `bound` (a ``signInEpoch`` a request started under) is no
    /// longer the current sign-in.
    package nonisolated func hasEnded(signIn bound: Int) -> Bool { bound != signInEpoch }

    /// The tokens this session has held lately (access and refresh, the
    /// current ones and a few before them), for a ``Redactor`` to mask
    /// wherever they appear: `Redactor(knownSecrets: { session.recentTokens })`.
    public nonisolated var recentTokens: [String] { snapshot.recentTokens() }

    /// Whether a refresh token is stored: a session exists (signed in now or
    /// at an earlier launch) that a protected request can resume.
    public func hasStoredRefreshToken() async -> Bool {
        (try? await storeCall { try await $0.loadRefreshToken() }.value) != nil
    }

    /// Stores the tokens of a sign-in (OTP verify, PKCE exchange). A
    /// sign-out or another sign-in that comes while the token is being saved
    /// wins: this one then throws ``TokenRefreshError/signInChanged`` and
    /// leaves the session as the later call made it.
    public func signIn(_ tokens: TokenPair) async throws {
        snapshot.remember([tokens.accessToken, tokens.refreshToken].compactMap { $0 })
        // Claimed before the token is saved (requests see it only once it is
        // published below): a sign-out or sign-in made while the save runs
        // changes it again, and wins.
        epoch += 1
        let claimed = epoch
        if let refreshToken = tokens.refreshToken {
            try await storeCall { try await $0.save(refreshToken: refreshToken) }.value
            guard epoch == claimed else {
                clearIfEnded()
                throw TokenRefreshError.signInChanged
            }
        }
        currentAccessToken = tokens.accessToken
        currentGeneration += 1
        isActive = true
        signedOut = false
        publish()
        eventSink.yield(.signedIn)
    }

    /// Forgets both tokens, then runs the end handler (guarantee 6).
    public func signOut() async throws {
        currentAccessToken = nil
        currentGeneration += 1
        isActive = false
        signedOut = true
        epoch += 1
        publish()
        inFlight?.cancel()
        endHandler?.immediately(.signedOut)
        defer { eventSink.yield(.signedOut) }
        do {
            try await storeCall { try await $0.clear() }.value
        } catch {
            await endHandler?.afterwards(.signedOut)
            throw error
        }
        await endHandler?.afterwards(.signedOut)
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
        guard let refreshToken = try await storeCall({ try await $0.loadRefreshToken() }).value else {
            // A session that had an access token and lost its refresh token
            // ends; one that never had either was never signed in.
            if !superseded(), currentAccessToken != nil {
                expire()
                await endHandler?.afterwards(.expired)
            }
            throw TokenRefreshError.notSignedIn
        }
        guard !superseded() else { throw TokenRefreshError.sessionExpired }
        let tokens: TokenPair
        do {
            tokens = try await refresher.refresh(using: refreshToken)
        } catch TokenRefreshError.rejected {
            guard !superseded() else { throw TokenRefreshError.sessionExpired }
            expire()
            try? await storeCall { try await $0.clear() }.value
            await endHandler?.afterwards(.expired)
            throw TokenRefreshError.sessionExpired
        }
        snapshot.remember([refreshToken, tokens.accessToken, tokens.refreshToken].compactMap { $0 })
        guard !superseded() else { throw TokenRefreshError.sessionExpired }
        // Made now, in the session's order: a sign-out from here on clears
        // after this save, whenever the save finishes.
        if let newRefreshToken = tokens.refreshToken { try await storeCall { try await $0.save(refreshToken: newRefreshToken) }.value }
        guard !superseded() else {
            clearIfEnded()
            throw TokenRefreshError.sessionExpired
        }
        currentAccessToken = tokens.accessToken
        currentGeneration += 1
        publish()
        eventSink.yield(.refreshed)
    }

    /// Ends the session because the server refused the access token sent at
    /// `generation` even after a refresh: tokens are cleared and
    /// ``SessionEvent/sessionExpired`` is sent once. Does nothing, and
    /// returns false, when a newer token has arrived since (the refusal may
    /// concern the older one); returns true when the session is over.
    package func endSession(ifStillAt generation: Int) async -> Bool {
        guard isActive else { return true }
        guard currentGeneration == generation else { return false }
        expire()
        inFlight?.cancel()
        try? await storeCall { try await $0.clear() }.value
        await endHandler?.afterwards(.expired)
        return true
    }

    /// Starts `call` on the store once every store call made before it has
    /// finished (guarantee 7), and returns it. Synchronous, so the order of
    /// the calls is the order in which the session makes them: no other
    /// call of the actor can come between a check of the session's state
    /// and the store call that follows it. The call runs to its end even
    /// when the task awaiting it is cancelled: a half-made store call would
    /// leave the next one nothing to wait for.
    private func storeCall<Value: Sendable>(_ call: @escaping @Sendable (any TokenStore) async throws -> Value) -> Task<Value, any Error> {
        let previous = lastStoreCall
        let store = self.store
        let task = Task<Value, any Error> {
            await previous?.value
            return try await call(store)
        }
        lastStoreCall = Task { _ = try? await task.value }
        return task
    }

    /// After a store write finished for a session that has ended meanwhile
    /// (signed out or expired, not signed in again): clears the store again,
    /// in order. The ending call's own `clear` already runs after the write;
    /// this undoes the write also when that `clear` failed.
    private func clearIfEnded() {
        guard !isActive else { return }
        _ = storeCall { try await $0.clear() }
    }

    /// Makes the token, its generation and the sign-in epoch visible to
    /// requests, together.
    private func publish() {
        snapshot.set(accessToken: currentAccessToken, generation: currentGeneration, epoch: epoch)
    }

    /// Ends ``events`` (no more events are sent after this).
    public func finishEvents() {
        eventSink.finish()
    }

    private func expire() {
        currentAccessToken = nil
        currentGeneration += 1
        epoch += 1
        publish()
        if isActive {
            endHandler?.immediately(.expired)
            eventSink.yield(.sessionExpired)
        }
        isActive = false
    }
}

/// The session's access token, generation and sign-in epoch behind a lock.
///
/// `@unchecked Sendable` is safe: every field is read and written only while
/// `lock` is held, and only ``TokenSession`` (on its actor) writes them.
private final class TokenSnapshot: @unchecked Sendable {
    private let lock = NSLock()
    private var accessToken: String?
    private var generation = 0
    private var signInEpoch = 0
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

    func set(accessToken: String?, generation: Int, epoch: Int) {
        lock.lock()
        defer { lock.unlock() }
        self.accessToken = accessToken
        self.generation = generation
        signInEpoch = epoch
    }

    func read() -> (accessToken: String?, generation: Int, epoch: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (accessToken, generation, signInEpoch)
    }
}
