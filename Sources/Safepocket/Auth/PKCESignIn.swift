import Foundation
import Resilience
import RuntimeSupport
import SafepocketAPI

/// One PKCE sign-in at a time: the verifier and `state` of the authorization
/// URL last opened, checked against the redirect, then the code exchange.
actor PKCESignIn {
    private let configuration: AuthorizationConfiguration
    private let store: PendingAuthorizationStore
    private let client: SafepocketAPI.Client
    private let session: TokenSession
    private let redactor: Redactor
    private let willSignIn: @Sendable (TokenResponse) async -> Void
    /// The SDK's wall clock (the connection's clock): when a sign-in started, whether it expired.
    private let now: @Sendable () -> Date
    private var pending: PendingAuthorization?
    private var loaded = false

    /// `willSignIn` runs after the exchange and before the tokens are
    /// stored (the SDK's user data changes user there).
    init(
        configuration: AuthorizationConfiguration, store: PendingAuthorizationStore, client: SafepocketAPI.Client, session: TokenSession,
        redactor: Redactor, now: @escaping @Sendable () -> Date = { Date() }, willSignIn: @escaping @Sendable (TokenResponse) async -> Void
    ) {
        self.now = now
        self.willSignIn = willSignIn
        self.redactor = redactor
        self.configuration = configuration
        self.store = store
        self.client = client
        self.session = session
    }

    /// A new verifier and state; the URL to open. Replaces any sign-in in progress.
    func start() throws(SafepocketError) -> URL {
        let pkce = PKCE()
        let state = PKCE.randomString(length: 43)
        let started = PendingAuthorization(state: state, verifier: pkce.verifier, redirectURI: configuration.redirectURI, startedAt: now())
        do {
            try store.save(started)
        } catch {
            throw .storageFailed
        }
        pending = started
        loaded = true
        return configuration.authorizationURL(state: state, pkce: pkce)
    }

    /// Finishes the sign-in from the redirect URL (`...?code=...&state=...`),
    /// which must be the configured redirect URI (scheme, host and path)
    /// before anything in it is read.
    func complete(redirect: URL) async throws(SafepocketError) {
        guard configuration.isRedirect(redirect) else { throw .redirectMismatch }
        let items = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        if let error = value("error") {
            // Only the sign-in this redirect belongs to is ended by it.
            if let state = value("state"), (try? currentPending())??.state == state { clearPending() }
            throw .authorizationFailed(error: error)
        }
        guard let code = value("code"), !code.isEmpty else { throw .missingAuthorizationCode }
        try await complete(code: code, state: value("state") ?? "")
    }

    /// Checks `state`, exchanges `code` with the verifier, starts the session.
    func complete(code: String, state: String) async throws(SafepocketError) {
        let current: PendingAuthorization?
        do {
            current = try currentPending()
        } catch {
            throw .storageFailed
        }
        guard let current else { throw .noSignInInProgress }
        guard Self.constantTimeEqual(current.state, state) else { throw .stateMismatch }
        do {
            let grant = AuthorizationCodeGrant(
                code: code, redirectURI: current.redirectURI, codeVerifier: current.verifier)
            let tokens = try await client.exchangeToken(body: .authorizationCodeGrant(grant))
            await willSignIn(tokens)
            try await session.signIn(TokenPair(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken))
        } catch {
            throw SafepocketError(error, redactor: redactor, now: now())
        }
        clearPending()
    }

    private func currentPending() throws -> PendingAuthorization? {
        if !loaded {
            pending = try store.load(now: now())
            loaded = true
        }
        if let startedAt = pending?.startedAt, now().timeIntervalSince(startedAt) >= store.lifetime.totalSeconds { clearPending() }
        return pending
    }

    /// Forgets a pending sign-in started before `date` (the session that
    /// ended then was its user's); one started after is kept.
    func forgetPending(startedBefore date: Date) {
        guard let current = try? currentPending() else {
            clearPending()
            return
        }
        if let startedAt = current.startedAt, startedAt >= date { return }
        clearPending()
    }

    private func clearPending() {
        pending = nil
        try? store.clear()
    }

    /// Compares without leaking, through timing, how much of a forged state matched.
    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
