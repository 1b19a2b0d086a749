import BackendDoubles
import Foundation
import LoopbackHTTPServer
import Resilience
import Soul
import Testing
import Waiting

/// Nothing of one SOUL user is left to the next: sign-out, an expired
/// session and another user's sign-in each delete what the user left, and a
/// mood one user queued is never listed to, nor sent with the token of,
/// another.
@Suite struct SoulUserDataTests {
    static let alice = "+14155550123"
    static let bob = "+14155550999"

    /// The files the SDK keeps, without the ones that carry no user data.
    func userFiles(_ harness: SoulHarness) -> [String] {
        let walker = FileManager.default.enumerator(atPath: harness.folder.path)
        return (walker?.allObjects as? [String] ?? []).filter { path in
            let values = try? harness.folder.appendingPathComponent(path).resourceValues(forKeys: [.isRegularFileKey])
            return values?.isRegularFile == true && path != "installation"
        }.sorted()
    }

    @Test func aliceQueuedMoodIsNeverListedToNorSentWithBobsToken() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let soul = try await harness.signedIn(phone: Self.alice, connectivity: connectivity)
        await connectivity.update(isOnline: false)
        let queued = try #require(try await soul.addMood(score: 3, note: "alice's, offline").queued)
        #expect(await soul.pendingWrites().map(\.id) == [queued.id])

        // Bob signs in on the same app (Alice never signed out) before the device is back online.
        try await harness.signIn(soul, phone: Self.bob)
        #expect(await soul.pendingWrites().isEmpty, "Alice's queued mood is not listed to Bob")
        await connectivity.update(isOnline: true)
        #expect(await soul.deliverPendingWrites().delivered.isEmpty)
        #expect(try await soul.listMoods().value.isEmpty, "Bob's account has no mood of Alice's")
        #expect(harness.backend.counters.moodsCreated == 0, "nothing was sent with Bob's token")
        // Bob's sign-in deleted it: Alice signing in again finds nothing queued (and the server never got it).
        try await harness.signIn(soul, phone: Self.alice)
        #expect(await soul.pendingWrites().isEmpty)
        #expect(try await soul.listMoods().value.isEmpty)
    }

    @Test func signOutLeavesNothingOfTheUser() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let soul = try await harness.signedIn(phone: Self.alice, connectivity: connectivity)
        _ = try await soul.addMood(score: 8, note: "sent")
        _ = try await soul.listMoods()                                // cached
        await connectivity.update(isOnline: false)
        _ = try #require(try await soul.addMood(score: 2, note: "queued").queued)
        _ = await soul.signIn.secondsUntilResend(phone: Self.bob)
        #expect(!userFiles(harness).filter { $0.hasPrefix("cache/") && $0.hasSuffix(".response") }.isEmpty)
        #expect(!userFiles(harness).filter { $0.hasPrefix("pending-writes/") }.isEmpty)

        await soul.signOut()
        #expect(await !soul.hasStoredSession(), "both tokens gone")
        #expect(try FileTokenStore(url: harness.tokenFile).loadRefreshToken() == nil)
        #expect(await soul.pendingWrites().isEmpty, "the queued mood is deleted with the sign-out")
        #expect(userFiles(harness).filter { $0.hasPrefix("cache/") && $0.hasSuffix(".response") }.isEmpty, "no cached answer of the user")
        #expect(userFiles(harness).filter { $0.hasPrefix("pending-writes/") }.isEmpty)
        #expect(await soulError { try await soul.listMoods() } == .offline, "nothing to serve offline")
        await connectivity.update(isOnline: true)
        #expect(harness.backend.counters.moodsCreated == 1, "the queued mood was never sent")
    }

    @Test func aUserCanKeepQueuedMoodsForTheirOwnNextSignIn() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let soul = try harness.makeSoul(connectivity: connectivity, keepsQueuedWritesAfterSignOut: true)
        try await harness.signIn(soul, phone: Self.alice)
        await connectivity.update(isOnline: false)
        let queued = try #require(try await soul.addMood(score: 6, note: "kept").queued)
        // Signed out before it could be sent: kept, but listed to nobody signed out.
        await soul.signOut()
        #expect(await soul.pendingWrites().isEmpty, "no one is signed in")
        await connectivity.update(isOnline: true)
        #expect(harness.backend.counters.moodsCreated == 0)
        // The same user signs in again: the mood is theirs, and goes out with their token.
        try await harness.signIn(soul, phone: Self.alice)
        #expect(await soul.pendingWrites().map(\.id) == [queued.id])
        #expect(await soul.deliverPendingWrites().delivered.map(\.id) == [queued.id])
        #expect(try await soul.listMoods().value.map(\.note) == ["kept"])
    }

    @Test func anExpiredSessionLeavesNothingOfTheUserEither() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let soul = try await harness.signedIn(phone: Self.alice, connectivity: connectivity)
        _ = try await soul.listMoods()
        await connectivity.update(isOnline: false)
        _ = try #require(try await soul.addMood(score: 5).queued)
        await connectivity.update(isOnline: true)
        // The server refuses the refresh token: the session expires.
        harness.backend.expireAccessTokens()
        harness.backend.fault.withLock { $0 = { $0.path == "/api/auth/refresh" ? .json(401, #"{"detail":"Invalid refresh token"}"#) : nil } }
        #expect(await soulError { try await soul.listMoods() } == .sessionExpired)
        #expect(await !soul.hasStoredSession())
        #expect(await soul.pendingWrites().isEmpty)
        #expect(userFiles(harness).filter { $0.hasPrefix("cache/") && $0.hasSuffix(".response") }.isEmpty)
        harness.backend.fault.withLock { $0 = nil }
        await connectivity.update(isOnline: false)
        #expect(await soulError { try await soul.listMoods() } == .offline, "the ended session's moods are not served from the cache")
    }

    @Test func theFirstLaunchAfterAnInstallDeletesAnEarlierInstallsToken() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        // What an earlier install left where an uninstall does not reach (the Keychain).
        let keychain = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: keychain) }
        try FileTokenStore(url: keychain).save(refreshToken: "rt-of-the-previous-owner")
        let folder = harness.folder.appendingPathComponent("fresh", isDirectory: true)
        func launch() throws -> Soul {
            try Soul(.init(environment: .init(baseURL: harness.backend.baseURL, isStaging: true), tokenStore: FileTokenStore(url: keychain),
                           logger: harness.log.logger(label: "soul"), connectivity: nil, storageFolder: folder))
        }
        let first = try launch()
        #expect(await !first.hasStoredSession(), "a new install does not resume the previous person's session")
        #expect(try FileTokenStore(url: keychain).loadRefreshToken() == nil)
        // Signed in on this install: the next launch keeps the session.
        try await harness.signIn(try launch(), phone: Self.alice)
        let next = try launch()
        #expect(await next.hasStoredSession())

        // An update from a version without the marker (its folder has a cache): not an install.
        let updated = harness.folder.appendingPathComponent("updated", isDirectory: true)
        try FileManager.default.createDirectory(at: updated.appendingPathComponent("cache"), withIntermediateDirectories: true)
        let updatedKeychain = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: updatedKeychain) }
        try FileTokenStore(url: updatedKeychain).save(refreshToken: "rt-of-this-user")
        let afterUpdate = try Soul(.init(environment: .init(baseURL: harness.backend.baseURL, isStaging: true), tokenStore: FileTokenStore(url: updatedKeychain),
                                        connectivity: nil, storageFolder: updated))
        #expect(await afterUpdate.hasStoredSession(), "the user of an updated app stays signed in")
    }

    @Test func everyFileOfTheUserIsUnreadableWhileLockedAndOutOfBackups() async throws {
        #if !canImport(Darwin)
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let soul = try await harness.signedIn(phone: Self.alice, connectivity: connectivity)
        _ = try await soul.listMoods()
        _ = try await soul.signIn.requestCode(phone: Self.bob)      // a pending sign-in with a phone number
        await connectivity.update(isOnline: false)
        _ = try await soul.addMood(score: 1)
        let files = userFiles(harness).filter { !$0.hasSuffix("refresh-token.json") }   // the test's stand-in for the Keychain
        #expect(files.contains("sign-in.json") && files.contains { $0.hasPrefix("pending-writes/") } && files.contains { $0.hasPrefix("cache/") })
        #expect(DataAtRest.files(in: harness.folder, notProtectedAs: .foregroundOnly).filter { !$0.contains("refresh-token.json") }.isEmpty)
        #endif
    }
}
