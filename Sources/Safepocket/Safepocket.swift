import Foundation
import Logging
import OpenAPIURLSession
import Resilience
import SafepocketAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Safepocket SDK: PKCE sign-in through the hosted UI, a session that
/// refreshes itself once on a 401 (with refresh-token rotation) and ends
/// cleanly when it cannot, the 14 operations of the finance API, and errors
/// that keep the envelope's code, message and trace id.
///
/// ```swift
/// let safepocket = try Safepocket(.init(authorization: .init(
///     authorizeEndpoint: URL(string: "https://auth.example.com/oauth2/authorize")!, clientID: clientID)))
/// let url = try await safepocket.startSignIn()          // open in ASWebAuthenticationSession
/// try await safepocket.completeSignIn(redirect: callbackURL)
/// let accounts = try await safepocket.accounts()
/// ```
///
/// Requests go through ``middlewares(session:retryPolicy:logger:connectivity:)``:
/// https only; one `Idempotency-Key` per logical write, the same on every
/// attempt (the retry after a refresh included); token refresh for
/// protected operations; retries only for the operations the spec marks
/// repeatable (the GETs and the RAG reads; writes stay at one attempt until
/// the backend declares deduplication); the bearer token; redacted logs.
public final class Safepocket: SessionOwner {
    /// What the SDK needs; every field but `authorization` has a default.
    public struct Configuration: Sendable {
        /// The API's base URL (production by default).
        public var baseURL: URL
        /// The authorization server and this app's client.
        public var authorization: AuthorizationConfiguration
        /// Where the refresh token is kept (default: Keychain on Apple
        /// platforms, a 0600 file in the app's support folder elsewhere).
        public var tokenStore: any TokenStore
        /// Where a started sign-in's verifier and state wait for the redirect,
        /// as a 0600 file (nil: in memory only).
        public var pendingSignInFile: URL?
        /// Connect and read timeouts of the URLSession transport the SDK builds.
        public var timeouts: TransportTimeouts
        /// A transport to use instead of the URLSession one.
        public var transport: (any ClientTransport)?
        /// Attempts and backoff of retries (the spec decides what may be retried).
        public var retryPolicy: RetryPolicy
        /// Where redacted request logs go.
        public var logger: Logger
        /// The device's connectivity as the app reports it.
        public var connectivity: Connectivity?

        /// Creates a configuration.
        public init(
            baseURL: URL = SafepocketAPI.Client.Server.production.url, authorization: AuthorizationConfiguration,
            tokenStore: (any TokenStore)? = nil, pendingSignInFile: URL? = nil, timeouts: TransportTimeouts = TransportTimeouts(),
            transport: (any ClientTransport)? = nil, retryPolicy: RetryPolicy = RetryPolicy(), logger: Logger = Logger(label: "safepocket"),
            connectivity: Connectivity? = nil
        ) {
            self.baseURL = baseURL
            self.authorization = authorization
            self.tokenStore = tokenStore ?? SecureTokenStorage.platformDefault(
                service: "app.safepocket.refresh-token", folder: PrivateFile.applicationSupportFolder, fileName: "safepocket-refresh-token.json")
            self.pendingSignInFile = pendingSignInFile
            self.timeouts = timeouts
            self.transport = transport
            self.retryPolicy = retryPolicy
            self.logger = logger
            self.connectivity = connectivity
        }
    }

    /// The write operations that carry an `Idempotency-Key` (those whose
    /// spec declares the header): one key per logical write.
    public static let idempotencyKeyOperations: Set<String> = [
        "updateTransaction", "syncTransactions", "resetTransactions", "sendChatMessage", "createPlaidLinkToken", "exchangePlaidPublicToken",
    ]

    /// The generated client with the documented middleware stack: all 14
    /// operations, authenticated.
    public var client: SafepocketAPI.Client { wired.client }
    /// The token lifecycle (single-flight refresh, events).
    public var session: TokenSession { wired.session }
    private let signIn: PKCESignIn
    private let configuration: Configuration
    /// The clients, the session, the redactor and the call path, wired as
    /// every SDK with sign-in wires them.
    private let wired: SessionClients<SafepocketAPI.Client>

    /// Builds the client and the session. Throws
    /// ``SafepocketError/insecureBaseURL`` for an http URL to a non-loopback host.
    public init(_ configuration: Configuration) throws(SafepocketError) {
        self.configuration = configuration
        do {
            wired = try SessionClients(
                baseURL: configuration.baseURL,
                transport: configuration.transport ?? URLSessionTransport(
                    configuration: .init(session: URLSession(configuration: configuration.timeouts.urlSessionConfiguration()))),
                tokenStore: configuration.tokenStore, logger: configuration.logger, connectivity: configuration.connectivity,
                stack: {
                    Self.middlewares(session: $0, retryPolicy: configuration.retryPolicy, logger: configuration.logger, connectivity: configuration.connectivity)
                },
                makeClient: { SafepocketAPI.Client(serverURL: $0, transport: $1, middlewares: $2) }, makeRefresher: { SafepocketTokenRefresher(client: $0) })
        } catch {
            throw .insecureBaseURL
        }
        signIn = PKCESignIn(
            configuration: configuration.authorization, store: PendingAuthorizationStore(file: configuration.pendingSignInFile),
            client: wired.authClient, session: wired.session, redactor: wired.redactor)
    }

    /// The middleware stack the README documents for Safepocket, outermost
    /// first (`SessionMiddlewareStack`, with an `Idempotency-Key` on
    /// ``idempotencyKeyOperations``).
    public static func middlewares(
        session: TokenSession, retryPolicy: RetryPolicy = RetryPolicy(), logger: Logger, connectivity: Connectivity? = nil
    ) -> [any ClientMiddleware] {
        SessionMiddlewareStack.middlewares(
            session: session, idempotencyKeyOperations: idempotencyKeyOperations, retryPolicy: retryPolicy, logger: logger, connectivity: connectivity)
    }

    // MARK: Sign-in

    /// Starts a sign-in: a new PKCE verifier and `state`, kept until the
    /// redirect; returns the authorization URL to open in the browser.
    public func startSignIn() async throws(SafepocketError) -> URL {
        try await signIn.start()
    }

    /// Finishes the sign-in from the redirect the browser delivered
    /// (`safepocket://auth/callback?code=...&state=...`): the state must be
    /// the one sent (``SafepocketError/stateMismatch`` otherwise, and nothing
    /// is exchanged), then the code is exchanged with the verifier.
    public func completeSignIn(redirect: URL) async throws(SafepocketError) {
        try await signIn.complete(redirect: redirect)
    }

    /// ``completeSignIn(redirect:)`` with the code and state already read.
    public func completeSignIn(code: String, state: String) async throws(SafepocketError) {
        try await signIn.complete(code: code, state: state)
    }

    /// Signs out: both tokens are forgotten (Safepocket has no revocation endpoint).
    public func signOut() async {
        try? await session.signOut()
    }

    // MARK: Calls

    /// The linked accounts and their balances.
    public func accounts() async throws(SafepocketError) -> AccountList {
        try await perform { try await $0.listAccounts() }
    }

    /// The transactions of `month` (`YYYY-MM`; the current one when nil).
    public func transactions(month: String? = nil, page: Int32? = nil, pageSize: Int32? = nil) async throws(SafepocketError) -> TransactionList {
        try await perform { try await $0.listTransactions(month: month, page: page, pageSize: pageSize) }
    }

    /// Calls any operation of the authenticated client, mapping failures to
    /// ``SafepocketError`` (``SafepocketError/offline`` at once, nothing
    /// sent, while the configured connectivity says offline).
    public func perform<Result: Sendable>(_ call: @Sendable (SafepocketAPI.Client) async throws -> Result) async throws(SafepocketError)
        -> Result
    {
        try await wired.caller.perform(offline: .offline, failure: { SafepocketError($0, redactor: wired.redactor) }, call)
    }
}
