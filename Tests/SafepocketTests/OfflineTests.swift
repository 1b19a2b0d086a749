import BackendDoubles
import Foundation
import Resilience
import RuntimeSupport
import Safepocket
import SafepocketAPI
import Testing

/// Safepocket offline: reads from the cache with their age, transaction
/// updates queued (when they never left) with the `Idempotency-Key` they
/// keep across relaunches and never sent twice, and a pending sign-in
/// that expires.
@Suite struct SafepocketOfflineTests {
    @Test func accountsAreServedFromTheCacheWhenOffline() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let safepocket = try await harness.signedIn(connectivity: connectivity)
        let online = try await safepocket.accounts()
        #expect(online.source == .network && !online.value.accounts.isEmpty)
        await connectivity.update(isOnline: false)
        let offline = try await safepocket.accounts()
        guard case .cache = offline.source else {
            Issue.record("offline accounts came from \(offline.source)")
            return
        }
        #expect(offline.value == online.value)
        #expect(await safepocketError { try await safepocket.summary(month: "2024-06") } == .offline, "never fetched: nothing to serve")
        // Signing out deletes the user's cached responses.
        await safepocket.signOut()
        #expect(safepocket.cache.totalBytes == 0)
    }

    @Test func anUpdateInDoubtIsNotSentAgainWhileTheKeyIsOnlyPlanned() async throws {
        let harness = try SafepocketHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let safepocket = try await harness.signedIn()
        let transaction = try #require(try await safepocket.transactions(month: "2024-06").value.transactions.first)
        // The server takes the update, then the connection is lost before the answer.
        harness.backend.fault.withLock { $0 = { request in request.method == "PATCH" ? .dropConnection : nil } }
        let error = await safepocketError { try await safepocket.updateTransaction(id: transaction.id, TransactionUpdate(category: "Groceries")) }
        #expect(error == .outcomeUnknown, "a key alone is no proof the server deduplicates: the app checks the transaction")
        harness.backend.fault.withLock { $0 = nil }
        #expect(await safepocket.pendingWrites().isEmpty, "nothing queued to be sent twice")
        _ = try await harness.makeSafepocket().deliverPendingWrites()
        #expect(harness.backend.server.requests.filter { $0.method == "PATCH" }.count == 1)
    }

    @Test func anUpdateThatCannotLeaveIsQueuedAndSentOnceWithOneKeyAcrossARelaunch() async throws {
        let harness = try SafepocketHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let safepocket = try await harness.signedIn(connectivity: connectivity)
        let transaction = try #require(try await safepocket.transactions(month: "2024-06").value.transactions.first)
        await connectivity.update(isOnline: false)
        let submission = try await safepocket.updateTransaction(id: transaction.id, TransactionUpdate(category: "Groceries", notes: .value("weekly shop")))
        guard case .queued(let write) = submission else {
            Issue.record("an update made offline was not queued: \(submission)")
            return
        }
        #expect(write.idempotencyKey != nil && !write.isIdempotent)
        #expect(harness.backend.server.requests.filter { $0.method == "PATCH" }.isEmpty, "nothing sent while offline")
        // The next launch, online, sends it once with its key.
        let report = try await harness.makeSafepocket().deliverPendingWrites()
        #expect(report.delivered.map(\.id) == [write.id])
        let keys = harness.backend.server.requests.filter { $0.method == "PATCH" }.map { $0.header("Idempotency-Key") }
        #expect(keys == [write.idempotencyKey])
        #expect(await (try harness.makeSafepocket()).pendingWrites().isEmpty)
    }

    @Test func aPendingSignInSurvivesARelaunchUntilItExpires() async throws {
        let harness = try SafepocketHarness(manualClock: true)
        defer { harness.cleanUp() }
        let clock = try #require(harness.clock)
        let url = try await harness.makeSafepocket().startSignIn()
        let redirect = try #require(harness.backend.authorize(url))
        try await harness.makeSafepocket().completeSignIn(redirect: redirect)
        #expect(try await harness.makeSafepocket().hasStoredSession())
        let late = try await harness.makeSafepocket(signInLifetime: .seconds(600)).startSignIn()
        clock.advance(by: .seconds(601))  // past the sign-in's lifetime, on the SDK's clock
        let lateRedirect = try #require(harness.backend.authorize(late))
        let relaunched = try harness.makeSafepocket(signInLifetime: .seconds(600))
        #expect(await safepocketError { try await relaunched.completeSignIn(redirect: lateRedirect) } == .noSignInInProgress, "an expired sign-in is gone")
        #expect(!FileManager.default.fileExists(atPath: harness.pendingFile.path))
    }
}
