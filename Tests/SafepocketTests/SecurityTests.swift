import BackendDoubles
import Foundation
import LoopbackHTTPServer
import PlatformRules
import ProcessTestSupport
import Resilience
import RuntimeSupport
@testable import Safepocket
import SDKCore
import SafepocketAPI
import Testing

/// Safepocket as a bank's reviewer reads it: a connection that cannot be
/// verified is a security error (never "offline", never served from the
/// cache, never queued), no credential follows a redirect to another host,
/// nothing of one user is left to the next, and the files are protected.
@Suite struct SafepocketSecurityTests {
    /// Signs `safepocket` in through the PKCE flow, the backend playing the hosted UI.
    func signIn(_ safepocket: Safepocket, _ harness: SafepocketHarness) async throws {
        let url = try await safepocket.startSignIn()
        let redirect = try #require(harness.backend.authorize(url))
        try await safepocket.completeSignIn(redirect: redirect)
    }

    @Test func anInterceptedConnectionIsASecurityErrorNotOfflineNothingServedOrQueued() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let tls = try UntrustedTLSServer()
        defer { tls.stop() }
        // The network path: the backend, until an interceptor answers with a certificate the system does not trust.
        let path = RedirectingTransport(to: harness.backend.baseURL)
        let connectivity = Connectivity.observingRequests()
        let safepocket = try harness.makeSafepocket(connectivity: connectivity, transport: path)
        try await signIn(safepocket, harness)
        let transaction = try #require(try await safepocket.transactions(month: "2024-06").value.transactions.first)
        _ = try await safepocket.accounts()                   // cached
        let writesBefore = harness.backend.counters.writesApplied

        path.target.withLock { $0 = tls.url }
        let read = await safepocketError { try await safepocket.accounts() }
        guard case .connectionNotVerified(let refusal)? = read else {
            Issue.record("the cached accounts were served, or the failure read as something else: \(String(describing: read))")
            return
        }
        #expect(refusal.reason == .systemRefused)
        #expect(read?.description == "the secure connection could not be verified (127.0.0.1: the system does not trust its certificate, or the TLS handshake failed)")
        let write = await safepocketError { try await safepocket.updateTransaction(id: transaction.id, TransactionUpdate(category: "Groceries")) }
        #expect(write?.kind == "connectionNotVerified", "\(String(describing: write))")
        #expect(await safepocket.pendingWrites().isEmpty, "not queued: an interception is not a dead network")
        #expect(await connectivity.isOnline, "the network works")
        path.target.withLock { $0 = harness.backend.baseURL }
        _ = await safepocket.deliverPendingWrites()
        #expect(harness.backend.counters.writesApplied == writesBefore)
    }

    @Test func aRedirectToAnotherHostCarriesNoTokenNorIdempotencyKeyThere() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let elsewhere = try LoopbackHTTPServer { _ in .json(200, "{}") }
        defer { elsewhere.shutdown() }
        let safepocket = try await harness.signedIn()
        let transaction = try #require(try await safepocket.transactions(month: "2024-06").value.transactions.first)
        // The API now answers every call with a redirect to another host and port.
        let target = elsewhere.baseURL.absoluteString
        harness.backend.fault.withLock { $0 = { request in .respond(status: 307, headers: [("Location", target + request.target)], body: "") } }
        let write = await safepocketError { try await safepocket.updateTransaction(id: transaction.id, TransactionUpdate(category: "Groceries")) }
        guard case .connectionNotVerified(let refusal)? = write else {
            Issue.record("\(String(describing: write))")
            return
        }
        #expect(refusal.reason == .redirectRefused && refusal.redirectTarget?.hasPrefix(target + "/transactions/") == true)
        #expect(await safepocket.pendingWrites().isEmpty)
        let read = await safepocketError { try await safepocket.accounts() }
        #expect(read?.kind == "connectionNotVerified")
        // A new launch's refresh (the refresh token in its body) is redirected too.
        let relaunched = try harness.makeSafepocket()
        #expect(await safepocketError { try await relaunched.accounts() }?.kind == "connectionNotVerified")
        #expect(elsewhere.requests.isEmpty, "no token, refresh token or Idempotency-Key reached the other host")
    }

    @Test func aliceQueuedEditIsNeverListedToNorSentWithBobsToken() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let safepocket = try await harness.signedIn(connectivity: connectivity)
        let transaction = try #require(try await safepocket.transactions(month: "2024-06").value.transactions.first)
        await connectivity.update(isOnline: false)
        let queued = try #require(try await safepocket.updateTransaction(id: transaction.id, TransactionUpdate(notes: .value("alice's"))).queuedWrite)
        #expect(await safepocket.pendingWrites().map(\.id) == [queued.id])
        // Another sign-in on the same app (Bob: another subject) before the device is back online.
        try await signIn(safepocket, harness)
        #expect(await safepocket.pendingWrites().isEmpty, "Alice's edit is not listed to Bob")
        await connectivity.update(isOnline: true)
        #expect(await safepocket.deliverPendingWrites().delivered.isEmpty)
        #expect(harness.backend.counters.writesApplied == 0, "nothing was sent with Bob's token")
        // Bob cannot discard (or see) what was Alice's.
        try await safepocket.discardPendingWrite(id: queued.id)
    }

    @Test func anExpiredSessionServesNoCachedFinanceData() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let safepocket = try await harness.signedIn(connectivity: connectivity)
        _ = try await safepocket.accounts()
        // The refresh token is refused: the session expires.
        harness.backend.expireAccessTokens()
        harness.backend.fault.withLock { $0 = { $0.path == "/auth/token" ? SafepocketBackend.envelope(401, "UNAUTHENTICATED", "Invalid refresh token") : nil } }
        #expect(await safepocketError { try await safepocket.accounts() } == .sessionExpired)
        harness.backend.fault.withLock { $0 = nil }
        await connectivity.update(isOnline: false)
        #expect(await safepocketError { try await safepocket.accounts() } == .offline, "no balance of the ended session is served")
        #expect(safepocket.cache.totalBytes == 0 && safepocket.cache.subject == nil)
    }

    @Test func aRedirectThatIsNotTheConfiguredURIIsNotRead() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let safepocket = try harness.makeSafepocket()
        let url = try await safepocket.startSignIn()
        let redirect = try #require(harness.backend.authorize(url))
        var components = try #require(URLComponents(url: redirect, resolvingAgainstBaseURL: false))
        for forged in ["evil://auth/callback", "safepocket://evil/callback", "safepocket://auth/other"] {
            let target = try #require(URLComponents(string: forged))
            components.scheme = target.scheme
            components.host = target.host
            components.path = target.path
            let error = await safepocketError { try await safepocket.completeSignIn(redirect: components.url!) }
            #expect(error == .redirectMismatch, "\(forged)")
        }
        #expect(harness.backend.counters.codeExchanges == 0, "no code of a forged redirect was exchanged")
        // The real redirect still completes: the pending sign-in was kept.
        try await safepocket.completeSignIn(redirect: redirect)
        #expect(await safepocket.hasStoredSession())
        #expect(AuthorizationConfiguration(authorizeEndpoint: url, clientID: "c").isRedirect(URL(string: "SAFEPOCKET://AUTH/callback?code=1")!))
    }

    @Test func productionWithoutPinsIsLoggedOnceNamingTheGuide() throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        _ = try harness.makeSafepocket(baseURL: URL(string: "https://api.safepocket.test")!, transport: RedirectingTransport(to: harness.backend.baseURL))
        _ = try harness.makeSafepocket(baseURL: URL(string: "https://api.safepocket.test")!, transport: RedirectingTransport(to: harness.backend.baseURL))
        let warnings = Safepocket.unpinnedWarnings(in: harness.log.all)
        #expect(warnings.count <= 1, "once per process: \(warnings)")
        #expect(ConnectionConfiguration.hasWarnedUnpinned(sdk: "Safepocket"))
        // Whether this process had already warned, the text names what to do.
        #expect(ConnectionConfiguration.unpinnedWarningText(sdk: "Safepocket", host: "api.safepocket.test", advice: Safepocket.unpinnedAdvice)
            .contains("pin its public keys") && Safepocket.unpinnedAdvice.contains("Safepocket's guide recommends it outside development"))
        // Pins given, or development: no warning is due.
        #expect(!Safepocket.warnsUnpinned(.init(authorization: SafepocketHarness.authorization, pinning: try CertificatePinning(
            pins: ["api.safepocket.app": ["sha256/4sEBer2Lpb8nKWkQmA0+1KulJEtftPQA9TsEAJRvL/A=", "sha256/MKSwfbFgC0cuPG2r5af1fKfFM1Jlrjw9NidOkoEcY0E="]]))))
        #expect(!Safepocket.warnsUnpinned(.init(baseURL: SafepocketAPI.Client.Server.development.url, authorization: SafepocketHarness.authorization)))
        #expect(Safepocket.warnsUnpinned(.init(authorization: SafepocketHarness.authorization)))
    }

    @Test func everyFileIsUnreadableWhileLockedAndOutOfBackups() async throws {
        #if !canImport(Darwin)
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let safepocket = try await harness.signedIn(connectivity: connectivity)
        _ = try await safepocket.accounts()
        let transaction = try #require(try await safepocket.transactions(month: "2024-06").value.transactions.first)
        _ = try await safepocket.startSignIn()                  // a pending verifier and state
        await connectivity.update(isOnline: false)
        _ = try await safepocket.updateTransaction(id: transaction.id, TransactionUpdate(category: "Travel"))
        let wrong = DataAtRest.files(in: harness.folder, notProtectedAs: .foregroundOnly).filter { !$0.contains("refresh-token.json") }
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(DataAtRest.applied(to: harness.pendingFile) == .foregroundOnly, "the PKCE verifier's own file")
        #endif
    }

    @Test func theRefreshTokenIsReadableOnlyWhileTheDeviceIsUnlocked() async throws {
        // The Keychain store the default configuration makes on Apple
        // platforms, over the Keychain double, under a service of its own.
        let service = Safepocket.Configuration.refreshTokenService + "." + UUID().uuidString
        // An earlier version kept the token readable after the first unlock.
        let earlier: any TokenStore = SecureTokenStorage.keychain(service: service, accessibility: .afterFirstUnlockThisDeviceOnly, backend: SimulatedKeychain.self)
        try await earlier.save(refreshToken: "rt-earlier")
        let tokens: any TokenStore = SecureTokenStorage.keychain(service: service, accessibility: Safepocket.Configuration.refreshTokenAccessibility, backend: SimulatedKeychain.self)
        try await tokens.save(refreshToken: "rt-1")
        #expect(SimulatedKeychain.accessibility(service: service, account: "refresh-token") == .whenUnlockedThisDeviceOnly)
        #expect(SimulatedKeychain.restoredOnAnotherDevice(service: service).isEmpty, "this device only")
        // Safepocket does no background work: a locked device keeps the token unreadable.
        await SimulatedKeychain.$device.withValue(.locked) {
            await #expect(throws: SimulatedKeychainItem.Failure(status: KeychainStatus.interactionNotAllowed)) { _ = try await tokens.loadRefreshToken() }
        }
        #expect(try await tokens.loadRefreshToken() == "rt-1")
        try await tokens.clear()
    }
}

extension Safepocket {
    /// The production-without-pins warnings among log lines.
    static func unpinnedWarnings(in lines: [String]) -> [String] {
        lines.filter { $0.contains("Safepocket connects to") && $0.contains("without certificate pins") }
    }
}

extension Submission {
    /// The queued write, when it was queued.
    var queuedWrite: QueuedWrite? {
        if case .queued(let write) = self { return write }
        return nil
    }
}

