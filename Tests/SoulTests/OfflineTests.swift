import BackendDoubles
import Foundation
import LoopbackHTTPServer
import Resilience
import RuntimeSupport
import Soul
import SoulAPI
import ProcessTestSupport
import Testing
import Waiting

/// SOUL offline, as the document allows it: moods read from the cache with
/// their age, moods made offline queued and sent once, and a sign-in that
/// survives a relaunch.
@Suite struct SoulOfflineTests {
    @Test func moodsAreServedFromTheCacheWithTheirAgeWhenOffline() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let soul = try await harness.signedIn(connectivity: connectivity)
        let mood = try #require(try await soul.addMood(score: 6, note: "walk").sent)
        #expect(try await soul.listMoods().source == .network)
        harness.clock.advance(by: 120)
        await connectivity.update(isOnline: false)
        let sent = harness.backend.server.requests.count
        let offline = try await soul.listMoods()
        #expect(offline.value.map(\.id) == [mood.id])
        #expect(offline.source == .cache(age: .seconds(120)))
        #expect(harness.backend.server.requests.count == sent, "nothing sent while reported offline")
        // A relaunch with the server gone (connection refused, no connectivity signal).
        harness.clock.advance(by: 60)
        harness.backend.server.shutdown()
        let relaunched = try harness.makeSoul()
        let refused = try await relaunched.listMoods()
        #expect(refused.value.map(\.id) == [mood.id] && refused.age == .seconds(180))
    }

    @Test func nothingCachedOfflineIsOffline() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let soul = try await harness.signedIn(connectivity: connectivity)
        await connectivity.update(isOnline: false)
        #expect(await soulError { try await soul.listMoods() } == .offline)
    }

    @Test func oneUsersCachedMoodsAreNeverServedToAnother() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let alice = try await harness.signedIn(phone: "+14155550123")
        _ = try await alice.addMood(score: 9, note: "alice's")
        #expect(try await alice.listMoods().value.count == 1)
        // Bob signs in on the same device (Alice's session ended without a sign-out).
        let connectivity = Connectivity(isOnline: true)
        let bob = try await harness.signedIn(phone: "+14155550999", connectivity: connectivity)
        await connectivity.update(isOnline: false)
        #expect(await soulError { try await bob.listMoods() } == .offline, "Alice's cached moods are not Bob's")
        await connectivity.update(isOnline: true)
        #expect(try await bob.listMoods().value.isEmpty)
        #expect(try await bob.listMoods().source == .network)
        // Bob signs out: his cache is deleted; Alice's went at Bob's sign-in, so nothing of either is left.
        await bob.signOut()
        let aliceAgain = try await harness.signedIn(phone: "+14155550123", connectivity: connectivity)
        await connectivity.update(isOnline: false)
        #expect(await soulError { try await aliceAgain.listMoods() } == .offline, "nothing of an earlier sign-in is kept on the device")
        await connectivity.update(isOnline: true)
        #expect(try await aliceAgain.listMoods().value.map(\.note) == ["alice's"], "the server still has them")
    }

    @Test func aMoodMadeOfflineIsQueuedAndSentOnceWhenTheServerCanBeReached() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let soul = try await harness.signedIn(connectivity: connectivity)
        await connectivity.update(isOnline: false)
        let queued = try #require(try await soul.addMood(score: 4, note: "on the train").queued)
        #expect(harness.backend.counters.moodsCreated == 0)
        #expect(await soul.pendingWrites().map(\.id) == [queued.id])
        await connectivity.update(isOnline: true)
        try await waitUntil("connectivity's return to send the queue") { harness.backend.counters.moodsCreated > 0 }
        #expect(harness.backend.counters.moodsCreated == 1, "connectivity's return sends the queue")
        try await waitUntil("the queue to empty") { await soul.pendingWrites().isEmpty }
        _ = try await soul.listMoods()
        #expect(harness.backend.counters.moodsCreated == 1)
    }

    /// 50 launches, each meeting the server in a random state: unreachable,
    /// busy (503), or taking a mood and losing the connection before its
    /// answer; moods are added offline along the way. Every mood reaches the
    /// server exactly once, counted by the double.
    /// 50 launches in `make test-heavy` and CI, 20 in `make test`.
    static let launches = ExperimentScale.pick(full: 50, sample: 20)

    @Test func queuedMoodsArriveExactlyOnceAcrossRelaunchesWithTheConnectionDroppedAtRandom() async throws {
        // A connection per request, so a dropped one is seen at once.
        let harness = try SoulHarness(keepAlive: false)
        defer { harness.cleanUp() }
        _ = try await harness.signedIn()
        let dead = try unreachableURL()
        let behaviour = harness.backend.behaviour
        var generator = SplitMix64(seed: 26)
        var notes: [String] = []
        for launch in 0..<Self.launches {
            if launch % 5 == 0 {
                let offline = Connectivity(isOnline: false)
                let note = "mood \(launch)"
                #expect(try await harness.makeSoul(connectivity: offline).addMood(score: 5, note: note).queued != nil)
                notes.append(note)
            }
            let fault = Int.random(in: 0..<4, using: &generator)
            harness.backend.fault.withLock {
                $0 = { request in
                    guard request.method == "POST", request.path == "/api/moods" else { return nil }
                    switch fault {
                    case 1: return .json(503, #"{"detail":"busy"}"#)
                    case 2:
                        _ = behaviour.respond(to: request.contractRequest)
                        return .dropConnection
                    default: return nil
                    }
                }
            }
            let soul = try harness.makeSoul(baseURL: fault == 0 ? dead : nil)
            await soul.deliverPendingWrites()
        }
        harness.backend.fault.withLock { $0 = nil }
        let soul = try harness.makeSoul()
        await soul.deliverPendingWrites()
        let stored = try await soul.listMoods().value.compactMap(\.note)
        for note in notes {
            #expect(stored.filter { $0 == note }.count == 1, "\(note) arrived \(stored.filter { $0 == note }.count) times")
        }
        let left = await soul.pendingWrites()
        #expect(left.allSatisfy { $0.state == .unknownOutcome }, "only moods whose answer was lost wait for the app: \(left.map(\.state))")
        #expect(harness.backend.counters.moodsCreated == notes.count)
    }

    @Test func theOTPFlowSurvivesARelaunchAndExpires() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let phone = "+14155550123"
        _ = try await harness.makeSoul().signIn.requestCode(phone: phone)
        let relaunched = try harness.makeSoul()
        #expect(await relaunched.signIn.pendingNumber?.description == "+*******0123")
        #expect(await relaunched.signIn.secondsUntilResend(phone: phone) == 30, "the cooldown is not reset by a relaunch")
        try await relaunched.signIn.verify(code: harness.backend.code(sentTo: phone) ?? "")
        #expect(await relaunched.hasStoredSession())
        let contents = try String(contentsOf: harness.folder.appendingPathComponent("sign-in.json"), encoding: .utf8)
        let quotedPhone = "\"" + phone + "\""
        #expect(!contents.contains(quotedPhone), "no pending number once signed in")
        // A code requested 10 minutes ago can no longer be verified.
        harness.clock.advance(by: 31)
        _ = try await relaunched.signIn.requestCode(phone: phone)
        harness.clock.advance(by: 601)
        #expect(await soulError { try await harness.makeSoul().signIn.verify(code: "123456") } == .noCodeRequested)
        let mode = try FileManager.default.attributesOfItem(atPath: harness.folder.appendingPathComponent("sign-in.json").path)[.posixPermissions]
        #expect((mode as? NSNumber)?.intValue == 0o600)
    }
}
