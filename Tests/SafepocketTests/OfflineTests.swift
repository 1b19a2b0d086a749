import BackendDoubles
import Foundation
import Resilience
import RuntimeSupport
import Safepocket
import SafepocketAPI
import Testing

/// Safepocket offline: reads from the cache with their age, transaction
/// updates queued with the `Idempotency-Key` they keep across relaunches,
/// and a pending sign-in that expires.
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

    @Test func anUpdateInDoubtIsQueuedAndSentAgainWithItsKeyOnce() async throws {
        let harness = try SafepocketHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let safepocket = try await harness.signedIn()
        let transaction = try #require(try await safepocket.transactions(month: "2024-06").value.transactions.first)
        // The server takes the update, then the connection is lost before the answer.
        let dropped = Locked(false)
        harness.backend.fault.withLock {
            $0 = { request in
                guard request.method == "PATCH", !dropped.withLock({ $0 }) else { return nil }
                dropped.withLock { $0 = true }
                return .dropConnection
            }
        }
        let submission = try await safepocket.updateTransaction(id: transaction.id, TransactionUpdate(category: "Groceries"))
        guard case .queued(let write) = submission else {
            Issue.record("an update in doubt was not queued: \(submission)")
            return
        }
        #expect(write.idempotencyKey != nil && write.isIdempotent)
        harness.backend.fault.withLock { $0 = nil }
        // The next launch sends it again with the same key, which the server deduplicates on.
        let report = try await harness.makeSafepocket().deliverPendingWrites()
        #expect(report.delivered.map(\.id) == [write.id])
        let keys = harness.backend.server.requests.filter { $0.method == "PATCH" }.map { $0.header("Idempotency-Key") }
        #expect(keys.count == 2 && keys[0] == write.idempotencyKey && keys[1] == write.idempotencyKey)
        #expect(try await harness.makeSafepocket().pendingWrites().isEmpty)
    }

    @Test func aPendingSignInSurvivesARelaunchUntilItExpires() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let url = try await harness.makeSafepocket().startSignIn()
        let redirect = try #require(harness.backend.authorize(url))
        try await harness.makeSafepocket().completeSignIn(redirect: redirect)
        #expect(try await harness.makeSafepocket().hasStoredSession())
        let late = try await harness.makeSafepocket(signInLifetime: .milliseconds(50)).startSignIn()
        try await Task.sleep(for: .milliseconds(100))
        let lateRedirect = try #require(harness.backend.authorize(late))
        let relaunched = try harness.makeSafepocket(signInLifetime: .milliseconds(50))
        #expect(await safepocketError { try await relaunched.completeSignIn(redirect: lateRedirect) } == .noSignInInProgress, "an expired sign-in is gone")
        #expect(!FileManager.default.fileExists(atPath: harness.pendingFile.path))
    }
}
