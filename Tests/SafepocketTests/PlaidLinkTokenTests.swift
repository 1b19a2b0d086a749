import ClientRuntimeTesting
import BackendDoubles
import Foundation
import LoopbackHTTPServer
import Resilience
import RuntimeSupport
@testable import Safepocket
import SafepocketAPI
import Testing
import Waiting

/// The guide's Plaid flow as an app runs it: `POST /plaid/link-token`
/// "(cache client-side until expiry)", Plaid Link, `POST /plaid/exchange`;
/// against a backend whose link tokens expire four hours after creation,
/// both sides on one clock the tests move.
@Suite struct PlaidLinkTokenTests {
    /// The requests that created link tokens.
    static func creations(_ harness: SafepocketHarness) -> [LoopbackHTTPServer.Request] {
        harness.backend.server.requests.filter { $0.path == "/plaid/link-token" }
    }

    @Test func aLinkTokenIsServedFromMemoryUntilTheMarginBeforeItsExpiryThenCreatedAnew() async throws {
        let harness = try SafepocketHarness(manualClock: true)
        defer { harness.cleanUp() }
        let clock = try #require(harness.clock)
        let safepocket = try await harness.signedIn()
        let first = try await safepocket.plaidLinkToken()
        #expect(first.expiration == clock.now.addingTimeInterval(4 * 3600))
        #expect(try await safepocket.plaidLinkToken() == first, "served again, not created again")
        // 3 h 29 min later, 31 minutes are left: still more than the 30-minute margin.
        clock.advance(by: 3 * 3600 + 29 * 60)
        #expect(try await safepocket.plaidLinkToken() == first)
        #expect(harness.backend.counters.linkTokensCreated == 1)
        // Two minutes on, 29 minutes are left: a Link session could outlast it.
        clock.advance(by: 120)
        let second = try await safepocket.plaidLinkToken()
        #expect(second.linkToken != first.linkToken)
        #expect(second.expiration > clock.now.addingTimeInterval(30 * 60))
        #expect(harness.backend.counters.linkTokensCreated == 2)
        // The access token had expired by then: the second creation went out twice, around a refresh, with one key.
        let keys = Self.creations(harness).map { $0.header("Idempotency-Key") }
        #expect(keys.count == 3 && keys.allSatisfy { $0.flatMap(UUID.init(uuidString:)) != nil })
        #expect(Set(keys).count == 2 && keys[1] == keys[2], "one Idempotency-Key per creation, kept across its retry")
        // Past the old token's expiry the new one is still served, and never the old one.
        clock.advance(by: 30 * 60)
        #expect(try await safepocket.plaidLinkToken() == second)
    }

    @Test func aShortLivedTokenIsServedForHalfItsLifeNeverPastIt() async throws {
        let clock = ManualClock()
        let cache = PlaidLinkTokenCache(renewalMargin: .seconds(1800), now: { clock.now })
        let made = Locked(0)
        let create: @Sendable () async -> Result<PlaidLinkToken, SafepocketError> = {
            let count = made.withLock { $0 += 1; return $0 }
            return .success(PlaidLinkToken(linkToken: "link-\(count)", expiration: clock.now.addingTimeInterval(600)))
        }
        #expect(try await cache.token(signIn: 1, currentSignIn: { 1 }, create: create).linkToken == "link-1")
        clock.advance(by: 299)
        #expect(try await cache.token(signIn: 1, currentSignIn: { 1 }, create: create).linkToken == "link-1", "half of ten minutes not over")
        clock.advance(by: 1)
        #expect(try await cache.token(signIn: 1, currentSignIn: { 1 }, create: create).linkToken == "link-2")
        // A token the server made already expired by this clock is handed over once, never kept.
        let expired: @Sendable () async -> Result<PlaidLinkToken, SafepocketError> = {
            .success(PlaidLinkToken(linkToken: "link-stale", expiration: clock.now.addingTimeInterval(-1)))
        }
        cache.forget()
        #expect(try await cache.token(signIn: 1, currentSignIn: { 1 }, create: expired).linkToken == "link-stale")
        #expect(!cache.holdsToken)
    }

    @Test func callersAskingAtOnceShareOneCreation() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let safepocket = try await harness.signedIn()
        let gate = ReplyGate()
        harness.backend.fault.withLock { $0 = { request in if request.path == "/plaid/link-token" { gate.hold() }; return nil } }
        let callers = (0..<8).map { _ in Task { try await safepocket.plaidLinkToken() } }
        try await gate.waitForArrivals(1)
        try await waitUntil { safepocket.plaidLinkTokens.waiterCount == 8 }
        gate.open()
        var tokens: Set<String> = []
        for caller in callers { tokens.insert(try await caller.value.linkToken) }
        #expect(tokens.count == 1)
        #expect(harness.backend.counters.linkTokensCreated == 1)
        #expect(Self.creations(harness).count == 1)
    }

    @Test func theTokenIsTheSignedInUsersOnlyAndIsForgottenAtSignOut() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let safepocket = try await harness.signedIn()
        let first = try await safepocket.plaidLinkToken()
        await safepocket.signOut()
        #expect(!safepocket.plaidLinkTokens.holdsToken, "the secret is not kept past the session")
        #expect(await safepocketError { try await safepocket.plaidLinkToken() } == .notSignedIn)
        // The next user gets a token of their own.
        let url = try await safepocket.startSignIn()
        try await safepocket.completeSignIn(redirect: try #require(harness.backend.authorize(url)))
        let next = try await safepocket.plaidLinkToken()
        #expect(next.linkToken != first.linkToken)
        #expect(harness.backend.counters.linkTokensCreated == 2)
        // An expired session forgets it too.
        harness.backend.expireAccessTokens()
        harness.backend.fault.withLock { $0 = { request in
            request.path == "/auth/token" ? SafepocketBackend.envelope(401, "UNAUTHENTICATED", "Invalid refresh token") : nil
        } }
        #expect(await safepocketError { try await safepocket.accounts() } == .sessionExpired)
        #expect(!safepocket.plaidLinkTokens.holdsToken, "forgotten before the call that ended the session returned")
    }

    @Test func aTokenCreatedAcrossASignOutIsHandedToNoOne() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let safepocket = try await harness.signedIn()
        let gate = ReplyGate()
        harness.backend.fault.withLock { $0 = { request in if request.path == "/plaid/link-token" { gate.hold() }; return nil } }
        let asked = Task { try await safepocket.plaidLinkToken() }
        try await gate.waitForArrivals(1)
        await safepocket.signOut()
        gate.open()
        #expect(await safepocketError { try await asked.value } == .sessionExpired)
        #expect(!safepocket.plaidLinkTokens.holdsToken)
        #expect(harness.backend.counters.linkTokensCreated == 1, "the server made it; the app never saw it")
    }

    @Test func theGuidesPlaidFlowLinksAnAccountAndForgetsTheUsedToken() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let safepocket = try await harness.signedIn()
        let linkToken = try await safepocket.plaidLinkToken()
        let publicToken = try #require(harness.backend.completeLink(linkToken: linkToken.linkToken), "Plaid Link takes the token")
        let item = try await safepocket.exchangePlaidPublicToken(publicToken)
        #expect(item.itemID == "item-1" && item.status == "LINKED")
        #expect(harness.backend.counters.publicTokensExchanged == 1)
        let exchange = try #require(harness.backend.server.requests.last { $0.path == "/plaid/exchange" })
        #expect(exchange.header("Idempotency-Key").flatMap(UUID.init(uuidString:)) != nil)
        #expect(try await safepocket.plaidLinkToken() != linkToken, "the next Link session gets a new token")
        // Link exited with INVALID_LINK_TOKEN: the app drops the token and gets another.
        let current = try await safepocket.plaidLinkToken()
        safepocket.invalidatePlaidLinkToken()
        #expect(try await safepocket.plaidLinkToken() != current)
        #expect(harness.backend.counters.linkTokensCreated == 3)
        // A used public token is refused with the guide's envelope.
        let error = await safepocketError { try await safepocket.exchangePlaidPublicToken(publicToken) }
        guard case .api(let failure) = error else { Issue.record("expected the envelope, got \(String(describing: error))"); return }
        #expect(failure.status == 502 && failure.code == .plaidError)
    }

    @Test func offlineTheCachedTokenIsServedAndWithoutOneTheCallSaysOffline() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let safepocket = try await harness.signedIn(connectivity: connectivity)
        let token = try await safepocket.plaidLinkToken()
        await connectivity.update(isOnline: false)
        #expect(try await safepocket.plaidLinkToken() == token)
        safepocket.invalidatePlaidLinkToken()
        let before = harness.backend.server.requests.count
        #expect(await safepocketError { try await safepocket.plaidLinkToken() } == .offline)
        #expect(harness.backend.server.requests.count == before, "nothing sent")
    }
}
