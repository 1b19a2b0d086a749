import Foundation
import Logging
import OpenAPIURLSession
import Resilience
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
/// - Requests go through ``middlewares(session:retryPolicy:logger:connectivity:)``,
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
        /// The server.
        public var environment: Environment
        /// Where the refresh token is kept (default: Keychain on Apple
        /// platforms, a 0600 file in the app's support folder elsewhere).
        public var tokenStore: any TokenStore
        /// Connect and read timeouts of the URLSession transport the SDK
        /// builds (the document's 5 s and 10 s).
        public var timeouts: TransportTimeouts
        /// A transport to use instead of the URLSession one (then `timeouts`
        /// is the transport's business).
        public var transport: (any ClientTransport)?
        /// Which operations are retried and how (the spec decides which
        /// may be; this sets attempts and backoff).
        public var retryPolicy: RetryPolicy
        /// How long a resend of a code is refused after a send. Default 30 s.
        public var resendCooldown: Duration
        /// The wait after a 429 that carries no `Retry-After`. Default 60 s.
        public var rateLimitFallback: Duration
        /// Where redacted request logs go (`debug` and `trace` levels).
        public var logger: Logger
        /// The device's connectivity as the app reports it: calls fail at
        /// once with ``SoulError/offline`` while it says offline, and
        /// retries wait for it.
        public var connectivity: Connectivity?
        /// The wall clock (cooldowns, `Retry-After` dates); for tests.
        public var now: @Sendable () -> Date

        /// Creates a configuration.
        public init(
            environment: Environment, tokenStore: (any TokenStore)? = nil, timeouts: TransportTimeouts = TransportTimeouts(),
            transport: (any ClientTransport)? = nil, retryPolicy: RetryPolicy = RetryPolicy(), resendCooldown: Duration = .seconds(30),
            rateLimitFallback: Duration = .seconds(60), logger: Logger = Logger(label: "soul"), connectivity: Connectivity? = nil,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.environment = environment
            self.tokenStore = tokenStore ?? SecureTokenStorage.platformDefault(
                service: "app.soulapp.refresh-token", folder: PrivateFile.applicationSupportFolder, fileName: "soul-refresh-token.json")
            self.timeouts = timeouts
            self.transport = transport
            self.retryPolicy = retryPolicy
            self.resendCooldown = resendCooldown
            self.rateLimitFallback = rateLimitFallback
            self.logger = logger
            self.connectivity = connectivity
            self.now = now
        }
    }

    /// The generated client with the documented middleware stack: every
    /// SOUL operation, authenticated.
    public var client: SoulAPI.Client { wired.client }
    /// The token lifecycle (single-flight refresh, events).
    public var session: TokenSession { wired.session }
    /// The OTP sign-in.
    public let signIn: SignInFlow
    private let configuration: Configuration
    /// The clients, the session, the redactor and the call path, wired as
    /// every SDK with sign-in wires them.
    private let wired: SessionClients<SoulAPI.Client>

    /// Builds the client, the session and the sign-in flow. Throws
    /// ``SoulError/insecureBaseURL`` for an http URL to a non-loopback host.
    public init(_ configuration: Configuration) throws(SoulError) {
        self.configuration = configuration
        do {
            wired = try SessionClients(
                baseURL: configuration.environment.baseURL,
                transport: configuration.transport ?? URLSessionTransport(
                    configuration: .init(session: URLSession(configuration: configuration.timeouts.urlSessionConfiguration()))),
                tokenStore: configuration.tokenStore, logger: configuration.logger, connectivity: configuration.connectivity,
                stack: {
                    Self.middlewares(session: $0, retryPolicy: configuration.retryPolicy, logger: configuration.logger, connectivity: configuration.connectivity)
                },
                makeClient: { SoulAPI.Client(serverURL: $0, transport: $1, middlewares: $2) }, makeRefresher: { SoulTokenRefresher(client: $0) })
        } catch {
            throw .insecureBaseURL
        }
        signIn = SignInFlow(
            client: wired.client, session: wired.session, isStaging: configuration.environment.isStaging, resendCooldown: configuration.resendCooldown,
            rateLimitFallback: configuration.rateLimitFallback, redactor: wired.redactor, now: configuration.now)
    }

    /// The middleware stack the README documents for SOUL, outermost first
    /// (`SessionMiddlewareStack`): https only; token refresh (protected
    /// operations only, read from the spec: a 401 refreshes once and retries
    /// once, a second 401 ends the session); retry (only operations the spec
    /// marks repeatable: the GETs; `Retry-After` honoured); the bearer token
    /// where the spec names `bearerAuth`; redacted logs of each attempt (the
    /// session's own tokens masked wherever they appear). No
    /// `Idempotency-Key`: the SOUL backend does not deduplicate.
    public static func middlewares(
        session: TokenSession, retryPolicy: RetryPolicy = RetryPolicy(), logger: Logger, connectivity: Connectivity? = nil
    ) -> [any ClientMiddleware] {
        SessionMiddlewareStack.middlewares(session: session, retryPolicy: retryPolicy, logger: logger, connectivity: connectivity)
    }

    /// The signed-in user's moods.
    public func listMoods() async throws(SoulError) -> [Mood] {
        try await perform { try await $0.listMoods() }
    }

    /// Records a mood (`score` 1 to 10). Sent once: a failure is reported,
    /// never retried behind the app's back.
    public func addMood(score: Int32, note: String? = nil) async throws(SoulError) -> Mood {
        try await perform { try await $0.createMood(body: CreateMoodBody(score: score, note: note.map { .value($0) })) }
    }

    /// The API's health.
    public func checkHealth() async throws(SoulError) -> HealthStatus {
        try await perform { try await $0.checkHealth() }
    }

    /// Calls any operation of the authenticated client, mapping failures to
    /// ``SoulError`` (``SoulError/offline`` at once, nothing sent, while
    /// the configured connectivity says offline).
    public func perform<Result: Sendable>(_ call: @Sendable (SoulAPI.Client) async throws -> Result) async throws(SoulError) -> Result {
        try await wired.caller.perform(
            offline: .offline,
            failure: { SoulError($0, rateLimitFallback: configuration.rateLimitFallback, redactor: wired.redactor, now: configuration.now()) }, call)
    }

    /// Signs out: asks the server to revoke the refresh token (best effort:
    /// once, no retry, no refresh, failures ignored) and clears both tokens
    /// whatever the answer.
    public func signOut() async {
        if let refreshToken = try? await configuration.tokenStore.loadRefreshToken() {
            _ = try? await client.logout(body: LogoutBody(refreshToken: refreshToken))
        }
        try? await session.signOut()
    }
}
