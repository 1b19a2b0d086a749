import Foundation
import Logging
import OpenAPIURLSession
import Resilience
import RuntimeSupport
import SDKCore
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
/// Requests go through ``middlewares(session:retryPolicy:logger:connectivity:cache:timeouts:)``:
/// https only; one `Idempotency-Key` per logical write, the same on every
/// attempt (the retry after a refresh included); token refresh for
/// protected operations; retries only for the operations the spec marks
/// repeatable (the GETs and the RAG reads; writes stay at one attempt until
/// the backend declares deduplication); the bearer token; redacted logs.
/// Under the stack, the transport checks the API hosts' public-key pins in
/// production (`Configuration.connection.pinning`; off in development, as the guide
/// asks) and fails closed with ``SafepocketError/connectionNotVerified(_:)``.
public final class Safepocket: SessionOwner {
    /// What the SDK needs; every field but `authorization` has a default.
    public struct Configuration: Sendable {
        /// The Keychain item of the default token store (Apple platforms).
        package static let refreshTokenService = "app.safepocket.refresh-token"
        /// When the default token store's Keychain item can be read: only
        /// while the device is unlocked, on this device. Safepocket does no
        /// background work, so nothing needs the token while the device is
        /// locked, and a locked device keeps it unreadable.
        package static let refreshTokenAccessibility = KeychainAccessibility.whenUnlockedThisDeviceOnly

        /// How the SDK reaches its server: the family's one connection type.
        /// What the SDK reads of it:
        ///
        /// - `baseURL`: The API's base URL (production by default).
        /// - `timeouts`: Connect and request timeouts of every attempt (the URLSession
        ///   transport the SDK builds uses them too).
        /// - `transport`: A transport to use instead of the URLSession one. With pins it
        ///   must enforce them itself (a `PinEnforcingTransport` that says so),
        ///   or the SDK refuses the configuration
        ///   (``SafepocketError/invalidPinning(_:)``); a
        ///   `CertificatePinningError` it throws reaches the app as
        ///   ``SafepocketError/connectionNotVerified(_:)``, and a pinned host
        ///   over plain http is still refused in production.
        /// - `pinning`: Public-key pins of the API's hosts (`CertificatePinning`; at
        ///   least two per host, a backup for rotation), checked in production
        ///   after the system's own trust evaluation, against every
        ///   certificate of the chain, on every connection (sign-in and token
        ///   refresh included). A connection that fails them is cancelled
        ///   before anything is sent and the call throws
        ///   ``SafepocketError/connectionNotVerified(_:)``. Off in development
        ///   (``isDevelopment``). Default: nothing pinned, which a production
        ///   configuration logs as a warning once (the guide expects pinning
        ///   outside development).
        /// - `logger`: Where redacted request logs go.
        /// - `connectivity`: The device's connectivity. Default: the system's
        ///   (`Connectivity.systemDefault()`); queued writes are sent when it
        ///   comes back. Nil: no signal.
        public var connection: ConnectionConfiguration
        /// The authorization server and this app's client.
        public var authorization: AuthorizationConfiguration
        /// Where the refresh token is kept (default: Keychain on Apple
        /// platforms, a 0600 file in the app's support folder elsewhere).
        public var tokenStore: any TokenStore
        /// Where a started sign-in's verifier and state wait for the redirect,
        /// as a 0600 file with `complete` protection, left out of backups
        /// (nil: in memory only).
        public var pendingSignInFile: URL?
        /// Development, as Safepocket's guide asks ("Disable TLS certificate
        /// pinning during development (self-signed certificates may be in
        /// play)"): no pin is checked. A certificate the system refuses is
        /// still refused, unless this is a `DEBUG` build and `connection.pinning`
        /// names it for its host (`CertificatePinning.acceptingForDevelopment(host:pins:)`).
        /// Default: whether `connection.baseURL` is the spec's development server
        /// (`http://localhost:8081`).
        public var isDevelopment: Bool
        /// Attempts and backoff of retries (the spec decides what may be retried).
        public var retryPolicy: RetryPolicy
        /// The folder of the SDK's files: the response cache, the queue of
        /// writes made offline, the pending sign-in, all unreadable while
        /// the device is locked (`complete` protection) and left out of
        /// backups. Default: `safepocket` in the app's Application Support folder.
        public var storageFolder: URL
        /// The most bytes the response cache keeps. Default 10 MiB.
        public var cacheMaximumBytes: Int
        /// How long a started sign-in can be completed, also after a
        /// relaunch. Default 10 minutes (the document states none; hosted
        /// sign-in pages and authorization codes commonly expire within it).
        public var signInLifetime: Duration
        /// Whether the transaction edits a user queued offline survive their
        /// sign-out (and an expired session), kept for that same user's next
        /// sign-in. Default false: sign-out deletes them, with everything
        /// else of the user. Either way they are listed only to the user who
        /// made them, sent only with that user's token, and deleted when
        /// another user signs in.
        public var keepsQueuedWritesAfterSignOut: Bool
        /// How long before its `expiration` a cached Plaid Link token stops
        /// being served and a new one is created
        /// (``Safepocket/plaidLinkToken()``). Default 30 minutes: a Plaid
        /// Link session can last that long, and a token that expires during
        /// it ends the session with `INVALID_LINK_TOKEN`. At most half the
        /// token's lifetime is used.
        public var plaidLinkTokenRenewalMargin: Duration

        /// Creates a configuration.
        public init(
            baseURL: URL = SafepocketAPI.Client.Server.production.url, authorization: AuthorizationConfiguration,
            tokenStore: (any TokenStore)? = nil, pendingSignInFile: URL? = nil, timeouts: TransportTimeouts = TransportTimeouts(),
            transport: (any ClientTransport)? = nil, retryPolicy: RetryPolicy = RetryPolicy(), logger: Logger = .sdkDefault(subsystem: "OpenAPIMobileClients.Safepocket"),
            connectivity: Connectivity? = .systemDefault(), storageFolder: URL? = nil, cacheMaximumBytes: Int = 10 * 1024 * 1024,
            signInLifetime: Duration = .seconds(600), pinning: CertificatePinning = .none, isDevelopment: Bool? = nil,
            keepsQueuedWritesAfterSignOut: Bool = false, plaidLinkTokenRenewalMargin: Duration = .seconds(30 * 60)
        ) {
            self.init(
                connection: ConnectionConfiguration(
                    baseURL: baseURL, transport: transport, pinning: pinning, timeouts: timeouts, logger: logger, connectivity: connectivity),
                authorization: authorization, tokenStore: tokenStore, pendingSignInFile: pendingSignInFile, retryPolicy: retryPolicy,
                storageFolder: storageFolder, cacheMaximumBytes: cacheMaximumBytes, signInLifetime: signInLifetime, isDevelopment: isDevelopment,
                keepsQueuedWritesAfterSignOut: keepsQueuedWritesAfterSignOut, plaidLinkTokenRenewalMargin: plaidLinkTokenRenewalMargin)
        }

        /// Creates a configuration from a connection (the family's one type).
        public init(
            connection: ConnectionConfiguration, authorization: AuthorizationConfiguration, tokenStore: (any TokenStore)? = nil,
            pendingSignInFile: URL? = nil, retryPolicy: RetryPolicy = RetryPolicy(), storageFolder: URL? = nil,
            cacheMaximumBytes: Int = 10 * 1024 * 1024, signInLifetime: Duration = .seconds(600), isDevelopment: Bool? = nil,
            keepsQueuedWritesAfterSignOut: Bool = false, plaidLinkTokenRenewalMargin: Duration = .seconds(30 * 60)
        ) {
            self.connection = connection
            self.keepsQueuedWritesAfterSignOut = keepsQueuedWritesAfterSignOut
            self.plaidLinkTokenRenewalMargin = plaidLinkTokenRenewalMargin
            self.isDevelopment = isDevelopment ?? Self.isDevelopmentServer(connection.baseURL)
            self.authorization = authorization
            self.tokenStore = tokenStore ?? SecureTokenStorage.platformDefault(
                service: Self.refreshTokenService, folder: PrivateFile.applicationSupportFolder, fileName: "safepocket-refresh-token.json",
                accessibility: Self.refreshTokenAccessibility)
            let storageFolder = storageFolder ?? PrivateFile.applicationSupportFolder.appendingPathComponent("safepocket", isDirectory: true)
            self.storageFolder = storageFolder
            self.pendingSignInFile = pendingSignInFile ?? storageFolder.appendingPathComponent("pending-sign-in.json")
            self.cacheMaximumBytes = cacheMaximumBytes
            self.signInLifetime = signInLifetime
            self.retryPolicy = retryPolicy
        }

        /// Whether `url` is the spec's development server (scheme, host and port).
        static func isDevelopmentServer(_ url: URL) -> Bool {
            let development = SafepocketAPI.Client.Server.development.url
            return url.scheme?.lowercased() == development.scheme && url.host?.lowercased() == development.host && url.port == development.port
        }

        /// Where pinning runs: production, or development (pins off).
        public var pinningEnvironment: PinningEnvironment {
            isDevelopment ? .development : .production
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
    /// The response cache (accounts, transactions, summaries offline),
    /// partitioned by the signed-in user.
    public let cache: ResponseCache
    private let signIn: PKCESignIn
    private let configuration: Configuration
    /// The clients, the session, the redactor and the call path, wired as
    /// every SDK with sign-in wires them.
    private let wired: SessionClients<SafepocketAPI.Client>
    /// Writes made offline, sent with their stored `Idempotency-Key`.
    private let writes: OfflineWrites<SafepocketAPI.Client>
    /// The signed-in user's Plaid Link token, in memory until near its expiry.
    let plaidLinkTokens: PlaidLinkTokenCache

    /// Builds the client and the session, and opens the SDK's files.
    /// Throws ``SafepocketError/insecureBaseURL`` for an http URL to a
    /// non-loopback host, ``SafepocketError/storageFailed`` when the storage
    /// folder cannot be used.
    public init(_ configuration: Configuration) throws(SafepocketError) {
        self.configuration = configuration
        let plaidLinkTokens = PlaidLinkTokenCache(renewalMargin: configuration.plaidLinkTokenRenewalMargin, now: configuration.connection.clock.now)
        self.plaidLinkTokens = plaidLinkTokens
        let pendingSignIn = PendingAuthorizationStore(file: configuration.pendingSignInFile, lifetime: configuration.signInLifetime)
        // The sign-in, once made below: the session's end forgets the one it had pending. Held
        // weakly: the sign-in holds the session, whose end handler this is (a cycle would keep both,
        // the client and its URLSession alive after the app lets the SDK go).
        let signInFlow = Locked(WeakReference<PKCESignIn>())
        let parts: SignedInSDK<SafepocketAPI.Client>
        do {
            parts = try SignedInSDK(
                connection: configuration.connection, pinningEnvironment: configuration.pinningEnvironment, sdk: "Safepocket",
                warnsUnpinned: Self.warnsUnpinned(configuration), unpinnedAdvice: Self.unpinnedAdvice, storageFolder: configuration.storageFolder,
                tokenStore: configuration.tokenStore, cacheMaximumBytes: configuration.cacheMaximumBytes,
                keepsQueuedWritesAfterSignOut: configuration.keepsQueuedWritesAfterSignOut, retryPolicy: configuration.retryPolicy,
                idempotencyKeyOperations: Self.idempotencyKeyOperations, queuedWriteSenders: Self.queuedWriteSenders,
                urlSessionTransport: { URLSessionTransport(configuration: .init(session: $0)) },
                onSessionEnd: { endedAt in
                    plaidLinkTokens.forget()
                    if let flow = signInFlow.read().object { await flow.forgetPending(startedBefore: endedAt) } else { try? pendingSignIn.clear() }
                },
                makeClient: { SafepocketAPI.Client(serverURL: $0, transport: $1, middlewares: $2) },
                makeRefresher: { SafepocketTokenRefresher(client: $0) })
        } catch {
            throw error.sdkError(SafepocketError.self)
        }
        let storage = parts.storage
        cache = parts.cache
        wired = parts.wired
        writes = parts.writes
        signIn = PKCESignIn(
            configuration: configuration.authorization, store: pendingSignIn, client: wired.authClient, session: wired.session, redactor: wired.redactor,
            now: configuration.connection.clock.now,
            // Before the tokens are stored: the cache and the queue change user first.
            willSignIn: { tokens in
                await storage.beginSession(
                    subject: tokens.idToken.flatMap(CredentialSubject.jwtSubject) ?? CredentialSubject.jwtSubject(tokens.accessToken)
                        ?? CredentialSubject.uniqueToThisSignIn())
            })
        signInFlow.withLock { $0.object = signIn }
        writes.deliverWhenOnline(while: self)
    }

    /// Whether `configuration` is production without a pin for its API host.
    static func warnsUnpinned(_ configuration: Configuration) -> Bool {
        !configuration.isDevelopment && configuration.connection.isUnpinned
    }

    /// What Safepocket's guide asks, in its warning about missing pins.
    static let unpinnedAdvice = "Safepocket's guide recommends it outside development"

    /// How each kind of queued write is sent: a transaction update, with
    /// the `Idempotency-Key` it was queued with.
    static let queuedWriteSenders = QueuedWriteSenders<SafepocketAPI.Client>([
        SafepocketAPI.Client.Operations.updateTransaction.id: { client, write in
            let update: QueuedTransactionUpdate = try write.decodePayload()
            _ = try await client.updateTransaction(
                transactionID: update.transactionID, body: update.update, idempotencyKey: write.idempotencyKey.flatMap(LowercaseUUID.init))
        },
    ])

    /// The middleware stack the README documents for Safepocket, outermost
    /// first (`SDKMiddlewareStack`, with an `Idempotency-Key` on
    /// ``idempotencyKeyOperations``).
    public static func middlewares(
        session: TokenSession, retryPolicy: RetryPolicy = RetryPolicy(), logger: Logger, connectivity: Connectivity? = nil, cache: ResponseCache? = nil,
        timeouts: TransportTimeouts? = TransportTimeouts()
    ) -> [any ClientMiddleware] {
        SignedInSDK<SafepocketAPI.Client>.middlewares(
            session: session, retryPolicy: retryPolicy, logger: logger, connectivity: connectivity, cache: cache, timeouts: timeouts,
            idempotencyKeyOperations: idempotencyKeyOperations)
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

    /// Signs out, leaving nothing of the user behind: both tokens are
    /// forgotten (Safepocket has no revocation endpoint), the pending
    /// sign-in, every cached response, and the writes the user queued
    /// (unless ``Configuration/keepsQueuedWritesAfterSignOut``). An expired
    /// session does the same.
    public func signOut() async {
        try? await session.signOut()
    }

    // MARK: Calls

    /// The linked accounts and their balances, from the server or, offline
    /// or when it cannot be reached, from the cache with its age.
    public func accounts() async throws(SafepocketError) -> CachedResponse<AccountList> {
        try await read { try await $0.listAccounts() }
    }

    /// Transactions, with every filter the document names ("supports
    /// pagination/query filters"): a `month` (`YYYY-MM`, checked before
    /// sending) or a `from`/`to` window (inclusive; the guide gives no
    /// format, the spec guesses months, so a day such as `2024-01-15` is sent
    /// as given), one account, a page of `pageSize`; the server's defaults
    /// for what is nil. From the server or the cache as ``accounts()``
    /// (each combination of filters is cached on its own).
    public func transactions(
        month: String? = nil, from: String? = nil, to: String? = nil, accountID: LowercaseUUID? = nil, page: Int32? = nil,
        pageSize: Int32? = nil
    ) async throws(SafepocketError) -> CachedResponse<TransactionList> {
        try await read {
            try await $0.listTransactions(month: month, from: from, to: to, accountID: accountID, page: page, pageSize: pageSize)
        }
    }

    /// The month's analytics summary (`YYYY-MM`; the current one when nil),
    /// from the server or the cache as ``accounts()``; `generateAI` asks the
    /// server for its AI commentary too (slower; off by default).
    public func summary(month: String? = nil, generateAI: Bool = false) async throws(SafepocketError) -> CachedResponse<AnalyticsSummary> {
        try await read { try await $0.getAnalyticsSummary(month: month, generateAI: generateAI) }
    }

    /// Changes a transaction's category or note. It is queued when the
    /// device is offline or the request cannot leave it, and sent later,
    /// once, with the same `Idempotency-Key` (kept across retries and
    /// relaunches). The document says the key's support is "planned;
    /// harmless today", and the spec does not mark the `PATCH` idempotent,
    /// so an update whose outcome is in doubt (sent, no answer) is not sent
    /// again: it throws ``SafepocketError/outcomeUnknown``, for the app to
    /// check the transaction.
    public func updateTransaction(id: LowercaseUUID, _ update: TransactionUpdate) async throws(SafepocketError) -> Submission<Transaction> {
        let key = IdempotencyKeyMiddleware.randomUUIDv4()
        do {
            let payload = try JSONCoding.makeEncoder().encode(QueuedTransactionUpdate(transactionID: id, update: update))
            return try await writes.submit(SafepocketAPI.Client.Operations.updateTransaction, payload: payload, idempotencyKey: key) {
                try await $0.updateTransaction(transactionID: id, body: update, idempotencyKey: try LowercaseUUID(key))
            }
        } catch {
            throw SafepocketError(error, redactor: wired.redactor, now: configuration.connection.clock.now())
        }
    }

    /// The signed-in user's writes stored offline and not yet confirmed,
    /// oldest first (never another user's).
    public func pendingWrites() async -> [QueuedWrite] {
        await writes.writesOfSignedInUser()
    }

    /// Sends the signed-in user's queued writes now (also done before each
    /// call, and when the configured connectivity comes back online).
    @discardableResult
    public func deliverPendingWrites() async -> WriteDeliveryReport {
        await writes.deliverPending()
    }

    /// Removes one of the signed-in user's queued writes whatever its state
    /// (one the server refused, once the app has shown it); another user's
    /// is left alone.
    public func discardPendingWrite(id: String) async throws(SafepocketError) {
        do {
            try await writes.queue.discard(id: id, of: cache.subject)
        } catch {
            throw .storageFailed
        }
    }

    // MARK: Plaid

    /// A Plaid Link token to open Plaid Link with (step 1 of the guide's
    /// Plaid flow), cached as the guide asks: the same token while more than
    /// ``Configuration/plaidLinkTokenRenewalMargin`` is left before its
    /// `expiration`, never one past it, then a new one from
    /// `POST /plaid/link-token` (with an `Idempotency-Key` of its own).
    /// Callers that ask at once share one request. The token belongs to the
    /// signed-in user: it is kept in memory only, and forgotten at
    /// sign-out, when the session expires, and at another user's sign-in.
    /// Offline with no token to serve it throws ``SafepocketError/offline``.
    public func plaidLinkToken() async throws(SafepocketError) -> PlaidLinkToken {
        let session = self.session
        return try await plaidLinkTokens.token(signIn: session.signInEpoch, currentSignIn: { session.signInEpoch }) { [self] in
            do throws(SafepocketError) {
                return .success(try await perform { try await $0.createPlaidLinkToken() })
            } catch {
                return .failure(error)
            }
        }
    }

    /// Forgets the cached Plaid Link token, so that the next
    /// ``plaidLinkToken()`` creates one: call it when Plaid Link exits with
    /// `INVALID_LINK_TOKEN` (the user took too long, or too many attempts).
    public func invalidatePlaidLinkToken() {
        plaidLinkTokens.forget()
    }

    /// Exchanges the `public_token` Plaid Link returned (step 3 of the
    /// guide's Plaid flow) for a linked item, with an `Idempotency-Key`.
    /// The Link session is over, so its link token is forgotten. Not queued
    /// offline: a public token expires within minutes. Follow it with a
    /// transactions sync.
    public func exchangePlaidPublicToken(_ publicToken: String) async throws(SafepocketError) -> PlaidExchangeResult {
        let result = try await perform { try await $0.exchangePlaidPublicToken(body: PlaidExchangeRequest(publicToken: publicToken)) }
        plaidLinkTokens.forget()
        return result
    }

    private func read<Result: Sendable>(_ call: @Sendable (SafepocketAPI.Client) async throws -> Result) async throws(SafepocketError)
        -> CachedResponse<Result>
    {
        _ = await writes.deliverPendingIfAny()
        return try await wired.caller.performRead(offline: .offline, failure: { SafepocketError($0, redactor: wired.redactor, now: configuration.connection.clock.now()) }, call)
    }

    /// Calls any operation of the authenticated client, mapping failures to
    /// ``SafepocketError`` (``SafepocketError/offline`` at once, nothing
    /// sent, while the configured connectivity says offline).
    public func perform<Result: Sendable>(_ call: @Sendable (SafepocketAPI.Client) async throws -> Result) async throws(SafepocketError)
        -> Result
    {
        _ = await writes.deliverPendingIfAny()
        return try await wired.caller.perform(offline: .offline, failure: { SafepocketError($0, redactor: wired.redactor, now: configuration.connection.clock.now()) }, call)
    }
}

/// A queued ``Safepocket/updateTransaction(id:_:)``: which transaction, and the change.
struct QueuedTransactionUpdate: Codable, Sendable {
    var transactionID: LowercaseUUID
    var update: TransactionUpdate
}
