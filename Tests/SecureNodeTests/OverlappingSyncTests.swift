import BrandingStore
import Foundation
import LoopbackHTTPServer
import Resilience
import SecureNodeAPI
import Testing
import Waiting

@testable import SecureNodeEngine

/// Syncs asked for while one runs join it: the app's launch sync, a
/// background refresh, the SDK's own check after a refused key is accepted
/// again. Each overlap is made with a ``ReplyGate``: the server holds the
/// sync until the second caller has asked, so no timing is guessed.
@Suite(.timeLimit(.minutes(10))) struct OverlappingSyncTests {
    let fake: FakeSecureNode
    let folder: URL
    static let syncPath = "/api/mobile/branding/sync"
    static let dataset = FakeSecureNode.sync([FakeSecureNode.record("+61412345678", "Acme Bank")], syncedAt: "2024-01-02T08:15:00Z")

    init() throws {
        fake = try FakeSecureNode()
        folder = try makeFolder("overlap")
        fake.acceptDevice()
    }

    func makeSDK(apiKey: String = "sk_live_secret", recheck: BackoffPolicy = BackoffPolicy(baseDelay: .seconds(3600), maximumDelay: .seconds(3600))) throws
        -> SecureNodeEngine
    {
        try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: apiKey, folder: folder,
            device: DeviceProfile(deviceID: "device-1", platform: .ios, sdkVersion: "1.0.0"), transport: FakeSecureNode.transport(), sendsHeartbeats: false)
            .with { $0.logoFetch = { _ in testLogo() }; $0.refusalRecheck = recheck })
    }

    /// The sync route held at a new gate; returns the gate.
    func holdSyncs(answering reply: LoopbackHTTPServer.Reply = .json(200, dataset)) -> ReplyGate {
        let gate = ReplyGate()
        fake.route("GET \(Self.syncPath)", .gated(gate, reply))
        return gate
    }

    @Test func twoCallersOfTheEngineShareOneSyncAndItsStatus() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try BrandingStore(path: folder.appendingPathComponent("branding.sqlite").path)
        let engine = BrandingSync(store: store, client: fake.client(), deviceID: "device-1")
        let gate = holdSyncs()
        let first = Task { await engine.sync() }
        try await gate.waitForArrivals(1)
        let second = Task { await engine.sync() }
        try await waitUntil { await engine.waitingCallers == 2 }
        gate.open()
        let (one, two) = (await first.value, await second.value)
        guard case .upToDate(_, .full, let outcome) = one, outcome.stored == 1 else {
            Issue.record("first caller: \(one)")
            return
        }
        #expect(two == one, "the second caller gets the running sync's final status, not `syncing`")
        #expect(fake.requests(Self.syncPath).count == 1, "one sync for both")
    }

    @Test func theAppsSyncAtLaunchJoinsTheSyncTheSDKStartsWhenARefusedKeyIsAcceptedAgain() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let first = try makeSDK()
            fake.route("GET \(Self.syncPath)", .json(403, #"{"error":"forbidden"}"#))
            #expect(await first.sync() == .disabled(status: 403))
        }
        // The key is accepted again. At launch the SDK asks once (a `since=now` check), then syncs.
        let check = holdSyncs()
        let relaunched = try makeSDK()
        try await check.waitForArrivals(1)
        let sync = holdSyncs()
        check.open()
        try await sync.waitForArrivals(1)
        // The app's own launch sync, while the SDK's runs.
        let appSync = Task { await relaunched.sync() }
        try await waitUntil { relaunched.waitingSyncCallers == 1 }
        sync.open()
        let status = await appSync.value
        guard case .upToDate(_, .full, let outcome) = status, outcome.stored == 1 else {
            Issue.record("the app's sync reports what ran: \(status)")
            return
        }
        #expect(relaunched.lookup(e164: "+61412345678", atRingTime: false)?.brandName == "Acme Bank")
        #expect(fake.requests(Self.syncPath).count == 3, "the refusal, the launch check, one sync: \(fake.requests(Self.syncPath).map(\.target))")
    }

    @Test func aForegroundSyncJoinsABackgroundRefreshAndOutlivesItsBudget() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let sdk = try makeSDK()
        let gate = holdSyncs()
        let foreground = Task { await sdk.sync() }
        try await gate.waitForArrivals(1)
        // The background task joins, then its budget runs out: it stops waiting; the sync goes on for the app.
        let report = await sdk.performBackgroundRefresh(budget: .milliseconds(1))
        #expect(report.ranOutOfTime && !report.succeeded)
        #expect(report.syncStatus == .syncing, "what the status was when the budget ran out")
        gate.open()
        guard case .upToDate(_, .full, _) = await foreground.value else {
            Issue.record("the foreground sync completes: \(await sdk.syncStatus())")
            return
        }
        #expect(fake.requests(Self.syncPath).count == 1)

        // The other way round: the background refresh gets the foreground's sync.
        let second = holdSyncs(answering: .json(200, FakeSecureNode.sync([], syncedAt: "2024-01-03T00:00:00Z")))
        let app = Task { await sdk.sync() }
        try await second.waitForArrivals(1)
        let background = Task { await sdk.performBackgroundRefresh(budget: .seconds(600)) }
        try await waitUntil { sdk.waitingSyncCallers == 2 }
        second.open()
        let joined = await background.value
        #expect(joined.succeeded && !joined.ranOutOfTime)
        #expect(joined.syncStatus == (await app.value))
        #expect(fake.requests(Self.syncPath).count == 2, "one sync for both")
    }

    @Test func aSyncAskedForAfterNewCredentialsRunsOnceMoreAfterTheOneInFlight() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let sdk = try makeSDK(apiKey: "sk_live_old")
        let gate = holdSyncs()
        let before = Task { await sdk.sync() }
        try await gate.waitForArrivals(1)
        await sdk.configure(apiKey: "sk_live_new")
        // Asked for after the change: two callers, one follow-up.
        let after = [Task { await sdk.sync() }, Task { await sdk.sync() }]
        try await waitUntil { sdk.waitingSyncCallers == 3 }
        #expect(fake.requests(Self.syncPath).count == 1, "the follow-up waits for the sync in flight")
        fake.route("GET \(Self.syncPath)", .json(200, FakeSecureNode.sync([], syncedAt: "2024-01-03T00:00:00Z")))
        gate.open()
        guard case .upToDate(_, .full, _) = await before.value else {
            Issue.record("the first sync: \(await sdk.syncStatus())")
            return
        }
        for task in after {
            guard case .upToDate(_, .incremental, _) = await task.value else {
                Issue.record("the follow-up: \(await task.value)")
                return
            }
        }
        let syncs = fake.requests(Self.syncPath)
        #expect(syncs.count == 2, "one more sync, for both later callers")
        #expect(syncs.map { $0.header("X-API-Key") } == ["sk_live_old", "sk_live_new"])
    }
}
