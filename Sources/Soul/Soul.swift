import Foundation
import Logging
import OpenAPIURLSession
import Resilience
import RuntimeSupport
import SDKCore
import SoulAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SOUL SDK: OTP sign-in, a session that refreshes itself once on a 401
/// and ends cleanly when it cannot, and the moods API, with every rule of
/// the SOUL document applied.
///
/// ```swift
/// let soul = try Soul(.init(environment: .staging))
/// _ = try await soul.signIn.requestCode(phone: "+14155550123")
/// try await soul.signIn.verify(code: "123456")
/// let moods = try await soul.listMoods()
/// for await event in soul.sessionEvents where event == .sessionExpired { showSignIn() }
/// ```
///
/// - Requests go through ``middlewares(session:retryPolicy:logger:connectivity:cache:timeouts:)``,
///   the stack the README documents: https only, token refresh for
///   protected operations, retries for the operations the spec marks
///   repeatable (GETs; never an OTP post or a mood), the bearer token,
///   redacted logging.
/// - The refresh token lives in the secure store (Keychain on Apple
///   platforms, a 0600 file elsewhere); the access token only in memory. At
///   launch a stored refresh token is used by the first protected call.
/// - Every failure is a ``SoulError``.
public final class Soul: SessionOwner {
    /// Which SOUL server, and whether it is staging (the only place the OTP
    /// preview code is shown).
    public struct Environment: Sendable, Hashable {
        /// The base URL.
        public var baseURL: URL
        /// Whether this is staging (`DEV_MODE`): preview codes are surfaced.
        public var isStaging: Bool

        /// A server at `baseURL` (a local test server, say).
        public init(baseURL: URL, isStaging: Bool) {
            self.baseURL = baseURL
            self.isStaging = isStaging
        }

        /// `https://api-staging.soulapp.app`.
        public static let staging = Environment(baseURL: SoulAPI.Client.Server.staging.url, isStaging: true)
        /// `https://api.soulapp.app`.
        public static let production = Environment(baseURL: SoulAPI.Client.Server.production.url, isStaging: false)
    }

    /// What the SDK needs; every field but the environment has a default.
    public struct Configuration: Sendable {
        /// How the SDK reaches its server: the family's one connection type.
        /// What the SDK reads of it:
        ///
        /// - `timeouts`: The document's timeouts, applied to every attempt whatever the
        ///   transport: a connection within `connect` (5 s; else
        ///   ``SoulError/timeout`` and nothing was sent, so a mood is queued),
        ///   each wait for bytes within `read` (10 s), and the whole attempt
        ///   within `attemptDeadline` (connect + read, 15 s; else
        ///   ``SoulError/timeout``). The URLSession transport the SDK builds
        ///   uses them too.
        /// - `transport`: A transport to use instead of the URLSession one. With pins it
        ///   must enforce them itself (a `PinEnforcingTransport` that says
        ///   so), or the SDK refuses the configuration
        ///   (``SoulError/invalidPinning(_:)``).
        /// - `pinning`: Public-key pins of the API's hosts (`CertificatePinning`: at least
        ///   two per host, the served key and a backup), checked after the
        ///   system's own trust evaluation on every connection, sign-in
        ///   included; a connection that fails them, a certificate the system
        ///   refuses, or a redirect to another host is
        ///   ``SoulError/connectionNotVerified(_:)``, with nothing sent.
        ///   Default: nothing pinned (the system's trust evaluation alone).
        /// - `logger`: Where redacted request logs go (`debug` and `trace` levels).
        /// - `connectivity`: The device's connectivity. Default: the system's
        ///   (`Connectivity.systemDefault()`: the network path on Apple
        ///   platforms, requests' outcomes elsewhere). While a reported signal
        ///   says offline, calls fail at once with ``SoulError/offline``
        ///   (reads come from the cache, moods are queued) and retries wait
        ///   for it; when it comes back, queued moods are sent. Nil: no signal.
        public var connection: ConnectionConfiguration
        /// Whether this is staging (`DEV_MODE`): preview codes are surfaced.
        public var isStaging: Bool
        /// The server: the connection's `baseURL` and ``isStaging``.
        public var environment: Environment {
            get { Environment(baseURL: connection.baseURL, isStaging: isStaging) }
            set {
                connection.baseURL = newValue.baseURL
                isStaging = newValue.isStaging
            }
        }
        /// Where the refresh token is kept (default: Keychain on Apple
        /// platforms, a 0600 file in the app's support folder elsewhere).
        public var tokenStore: any TokenStore
        /// Which operations are retried and how (the spec decides which
        /// may be; this sets attempts and backoff).
        public var retryPolicy: RetryPolicy
        /// How long a resend of a code is refused after a send. Default 30 s.
        public var resendCooldown: Duration
        /// The wait after a 429 that carries no `Retry-After`. Default 60 s.
        public var rateLimitFallback: Duration
        /// The folder of the SDK's files: the response cache, the queue of
        /// moods made offline, the OTP flow's state, all unreadable while the
        /// device is locked (`complete` protection) and left out of backups.
        /// Default: `soul` in the app's Application Support folder.
        public var storageFolder: URL
        /// The most bytes the response cache keeps. Default 5 MiB.
        public var cacheMaximumBytes: Int
        /// How long a requested code can be verified, also after a
        /// relaunch. Default 10 minutes (the document states no lifetime;
        /// SMS codes commonly last 5 to 10).
        public var codeLifetime: Duration
        /// Whether the moods a user queued offline survive their sign-out
        /// (and an expired session), kept for that same user's next sign-in.
        /// Default false: sign-out deletes them, with everything else of the
        /// user. Either way they are listed only to the user who made them,
        /// sent only with that user's token, and deleted when another user
        /// signs in.
        public var keepsQueuedWritesAfterSignOut: Bool

        /// Creates a configuration.
        public init(
            environment: Environment, tokenStore: (any TokenStore)? = nil, timeouts: TransportTimeouts = TransportTimeouts(),
            transport: (any ClientTransport)? = nil, retryPolicy: RetryPolicy = RetryPolicy(), resendCooldown: Duration = .seconds(30),
            rateLimitFallback: Duration = .seconds(60), logger: Logger = .sdkDefault(subsystem: "OpenAPIMobileClients.Soul"), connectivity: Connectivity? = .systemDefault(),
            storageFolder: URL? = nil, cacheMaximumBytes: Int = 5 * 1024 * 1024,
            codeLifetime: Duration = .seconds(600), pinning: CertificatePinning = .none, keepsQueuedWritesAfterSignOut: Bool = false
        ) {
            self.init(
                connection: ConnectionConfiguration(
                    baseURL: environment.baseURL, transport: transport, pinning: pinning, timeouts: timeouts, logger: logger, connectivity: connectivity),
                isStaging: environment.isStaging, tokenStore: tokenStore, retryPolicy: retryPolicy, resendCooldown: resendCooldown,
                rateLimitFallback: rateLimitFallback, storageFolder: storageFolder, cacheMaximumBytes: cacheMaximumBytes,
                codeLifetime: codeLifetime, keepsQueuedWritesAfterSignOut: keepsQueuedWritesAfterSignOut)
        }

        /// Creates a configuration from a connection (the family's one type).
        public init(
            connection: ConnectionConfiguration, isStaging: Bool = false, tokenStore: (any TokenStore)? = nil, retryPolicy: RetryPolicy = RetryPolicy(),
            resendCooldown: Duration = .seconds(30), rateLimitFallback: Duration = .seconds(60), storageFolder: URL? = nil, cacheMaximumBytes: Int = 5 * 1024 * 1024, codeLifetime: Duration = .seconds(600),
            keepsQueuedWritesAfterSignOut: Bool = false
        ) {
            self.connection = connection
            self.isStaging = isStaging
            self.keepsQueuedWritesAfterSignOut = keepsQueuedWritesAfterSignOut
            self.tokenStore = tokenStore ?? SecureTokenStorage.platformDefault(
                service: "app.soulapp.refresh-token", folder: PrivateFile.applicationSupportFolder, fileName: "soul-refresh-token.json")
            self.retryPolicy = retryPolicy
            self.resendCooldown = resendCooldown
            self.rateLimitFallback = rateLimitFallback
            self.storageFolder = storageFolder ?? PrivateFile.applicationSupportFolder.appendingPathComponent("soul", isDirectory: true)
            self.cacheMaximumBytes = cacheMaximumBytes
            self.codeLifetime = codeLifetime
        }
    }

    /// The generated client with the documented middleware stack: every
    /// SOUL operation, authenticated.
    public var client: SoulAPI.Client { wired.client }
    /// The token lifecycle (single-flight refresh, events).
    public var session: TokenSession { wired.session }
    /// The OTP sign-in.
    public let signIn: SignInFlow
    /// The response cache (``listMoods()`` offline), partitioned by user.
    public let cache: ResponseCache
    private let configuration: Configuration
    /// The clients, the session, the redactor and the call path, wired as
    /// every SDK with sign-in wires them.
    private let wired: SessionClients<SoulAPI.Client>
    /// Moods made offline, sent when the server can be reached.
    private let writes: OfflineWrites<SoulAPI.Client>

    /// Builds the client, the session and the sign-in flow, and opens the
    /// SDK's files. Throws ``SoulError/insecureBaseURL`` for an http URL to a
    /// non-loopback host, ``SoulError/storageFailed`` when the storage
    /// folder cannot be used.
    public init(_ configuration: Configuration) throws(SoulError) {
        self.configuration = configuration
        // The sign-in, once made below: the session's end forgets the number it had pending. Held
        // weakly: the sign-in holds the session, whose end handler this is (a cycle would keep both,
        // the client and its URLSession alive after the app lets the SDK go).
        let signInFlow = Locked(WeakReference<SignInFlow>())
        let stateFile = SignInStateFile(url: configuration.storageFolder.appendingPathComponent("sign-in.json"))
        let parts: SignedInSDK<SoulAPI.Client>
        do {
            parts = try SignedInSDK(
                connection: configuration.connection, sdk: "Soul", unpinnedAdvice: "a sign-in's tokens then rest on the device's trust store alone",
                storageFolder: configuration.storageFolder, tokenStore: configuration.tokenStore, cacheMaximumBytes: configuration.cacheMaximumBytes,
                keepsQueuedWritesAfterSignOut: configuration.keepsQueuedWritesAfterSignOut, retryPolicy: configuration.retryPolicy,
                queuedWriteSenders: Self.queuedWriteSenders,
                urlSessionTransport: { URLSessionTransport(configuration: .init(session: $0)) },
                onSessionEnd: { endedAt in
                    if let flow = signInFlow.read().object { await flow.forgetPending(requestedBefore: endedAt) } else { try? stateFile.save(SignInState()) }
                },
                makeClient: { SoulAPI.Client(serverURL: $0, transport: $1, middlewares: $2) }, makeRefresher: { SoulTokenRefresher(client: $0) })
        } catch {
            throw error.sdkError(SoulError.self)
        }
        let storage = parts.storage
        cache = parts.cache
        wired = parts.wired
        writes = parts.writes
        signIn = SignInFlow(
            client: wired.client, session: wired.session, isStaging: configuration.environment.isStaging, resendCooldown: configuration.resendCooldown,
            rateLimitFallback: configuration.rateLimitFallback, codeLifetime: configuration.codeLifetime, stateFile: stateFile,
            redactor: wired.redactor, now: configuration.connection.clock.now,
            // Before the tokens are stored: the cache and the queue change user first.
            willSignIn: { await storage.beginSession(subject: "user:\($0.id)") })
        signInFlow.withLock { $0.object = signIn }
        writes.deliverWhenOnline(while: self)
    }

    /// How each kind of queued write is sent: SOUL queues only moods.
    static let queuedWriteSenders = QueuedWriteSenders<SoulAPI.Client>([
        SoulAPI.Client.Operations.createMood.id: { client, write in _ = try await client.createMood(body: try write.decodePayload()) },
    ])

    /// The middleware stack the README documents for SOUL, outermost first
    /// (`SDKMiddlewareStack`): https only; token refresh (protected
    /// operations only, read from the spec: a 401 refreshes once and retries
    /// once, a second 401 ends the session); retry (only operations the spec
    /// marks repeatable: the GETs; `Retry-After` honoured); the bearer token
    /// where the spec names `bearerAuth`; redacted logs of each attempt (the
    /// session's own tokens masked wherever they appear). No
    /// `Idempotency-Key`: the SOUL backend does not deduplicate.
    public static func middlewares(
        session: TokenSession, retryPolicy: RetryPolicy = RetryPolicy(), logger: Logger, connectivity: Connectivity? = nil, cache: ResponseCache? = nil,
        timeouts: TransportTimeouts? = TransportTimeouts()
    ) -> [any ClientMiddleware] {
        SignedInSDK<SoulAPI.Client>.middlewares(
            session: session, retryPolicy: retryPolicy, logger: logger, connectivity: connectivity, cache: cache, timeouts: timeouts)
    }

    /// The signed-in user's moods, with where they came from: the server,
    /// or the cache (with its age) while offline or when the server cannot
    /// be reached. Offline with nothing cached: ``SoulError/offline``.
    /// Moods queued offline are not in the list until they are sent
    /// (``pendingWrites()``).
    public func listMoods() async throws(SoulError) -> CachedResponse<[Mood]> {
        _ = await writes.deliverPendingIfAny()
        return try await wired.caller.performRead(offline: .offline, failure: mapFailure) { try await $0.listMoods() }
    }

    /// Records a mood (`score` 1 to 10). The document allows queueing it
    /// offline: when the device is reported offline, or the request could
    /// not leave it (no connectivity, connection refused), the mood is
    /// stored (`Submission.queued`) and sent once the server can be
    /// reached. A send that may have reached the server (a lost connection,
    /// a timeout) is never repeated: SOUL does not deduplicate moods, so it
    /// is ``SoulError/outcomeUnknown``.
    public func addMood(score: Int32, note: String? = nil) async throws(SoulError) -> Submission<Mood> {
        let body = CreateMoodBody(score: score, note: note.map { .value($0) })
        do {
            let payload = try JSONCoding.makeEncoder().encode(body)
            return try await writes.submit(SoulAPI.Client.Operations.createMood, payload: payload) { try await $0.createMood(body: body) }
        } catch {
            throw mapFailure(error)
        }
    }

    /// The signed-in user's moods stored offline and not yet delivered,
    /// oldest first: those waiting, those whose outcome is unknown, those
    /// the server refused (never another user's).
    public func pendingWrites() async -> [QueuedWrite] {
        await writes.writesOfSignedInUser()
    }

    /// Sends the signed-in user's queued moods now (also done before each
    /// call, and when the configured connectivity comes back online).
    @discardableResult
    public func deliverPendingWrites() async -> WriteDeliveryReport {
        await writes.deliverPending()
    }

    /// Removes one of the signed-in user's queued moods whatever its state
    /// (one whose outcome is unknown, once the app has checked; one the
    /// server refused); another user's is left alone.
    public func discardPendingWrite(id: String) async throws(SoulError) {
        do {
            try await writes.queue.discard(id: id, of: cache.subject)
        } catch {
            throw .storageFailed
        }
    }

    private func mapFailure(_ error: any Error) -> SoulError {
        SoulError(error, rateLimitFallback: configuration.rateLimitFallback, redactor: wired.redactor, now: configuration.connection.clock.now())
    }

    /// The API's health.
    public func checkHealth() async throws(SoulError) -> HealthStatus {
        try await perform { try await $0.checkHealth() }
    }

    /// Calls any operation of the authenticated client, mapping failures to
    /// ``SoulError`` (``SoulError/offline`` at once, nothing sent, while
    /// the configured connectivity says offline).
    public func perform<Result: Sendable>(_ call: @Sendable (SoulAPI.Client) async throws -> Result) async throws(SoulError) -> Result {
        _ = await writes.deliverPendingIfAny()
        return try await wired.caller.perform(offline: .offline, failure: mapFailure, call)
    }

    /// Signs out, leaving nothing of the user behind: asks the server to
    /// revoke the refresh token (best effort: once, no retry, no refresh,
    /// failures ignored), clears both tokens whatever the answer, and
    /// deletes the pending sign-in, every cached response, and the moods
    /// the user queued (unless ``Configuration/keepsQueuedWritesAfterSignOut``).
    /// An expired session does the same.
    public func signOut() async {
        if let refreshToken = try? await configuration.tokenStore.loadRefreshToken() {
            _ = try? await client.logout(body: LogoutBody(refreshToken: refreshToken))
        }
        try? await session.signOut()
    }
}
