import BrandingStore
import Foundation
import LoopbackHTTPServer
import PlatformRules
import Resilience
import RuntimeSupport
import SecureNodeEngine
import Testing
import Waiting

/// Records each Call Directory reload with what the snapshot held when iOS
/// would have read it.
final class RecordingReloader: CallDirectoryReloading {
    let snapshot: CallDirectorySnapshot
    private let loads = Locked<[[String]]>([])

    init(folder: URL) {
        snapshot = CallDirectorySnapshot(folder: folder.appendingPathComponent("CallDirectory", isDirectory: true))
    }

    /// The labels of each reload, in order.
    var reloads: [[String]] { loads.read() }

    func reloadExtension() async throws {
        var labels: [String] = []
        try CallDirectorySnapshot.forEachEntry(in: snapshot.current) { _, label in labels.append(label) }
        loads.withLock { $0.append(labels) }
    }
}

/// SecureNode offline and across relaunches: branding turned off reaches
/// the phone, billing goes out on its own, the background task, the key store.
@Suite struct SecureNodeOfflineTests {
    /// The budget of a background refresh whose budget is not under test: an
    /// app's 25 s is a time the test does not control (a loaded machine ran past it).
    static let unhurried: Duration = .seconds(600)

    let fake: FakeSecureNode
    let folder: URL

    init() throws {
        fake = try FakeSecureNode()
        folder = try makeFolder("securenode-offline")
        fake.acceptDevice()
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([
            FakeSecureNode.record("+61412345678", "Acme Bank"), FakeSecureNode.record("+1234567890", "Contoso Health"),
        ], syncedAt: "2024-01-02T08:15:00Z")))
    }

    func launch(
        apiKey: String? = "sk_live_secret", reloader: RecordingReloader? = nil, connectivity: Connectivity? = nil
    ) throws -> SecureNodeEngine {
        try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: apiKey, folder: folder,
            device: DeviceProfile(deviceID: "device-1", platform: .ios, sdkVersion: "1.0.0"), transport: FakeSecureNode.transport(),
            connectivity: connectivity, callDirectoryReloader: reloader, sendsHeartbeats: false)
            .with { $0.logoFetch = { _ in testLogo() } })
    }


    @Test func refusedCredentialsEmptyTheCallDirectoryAndNewOnesRestoreIt() async throws {
        let reloader = RecordingReloader(folder: folder)
        var sdk: SecureNodeEngine? = try launch(reloader: reloader)
        _ = await sdk!.sync()
        #expect(reloader.reloads.count == 1 && reloader.reloads[0].count == 2, "the first sync reloads the extension with both numbers")

        fake.route("GET /api/mobile/branding/sync", .json(401, #"{"error":"unauthorized"}"#))
        #expect(await sdk!.sync() == .disabled(status: 401))
        #expect(reloader.reloads.count == 2, "a refusal reloads at once, not 15 minutes later")
        #expect(reloader.reloads.last == [], "the phone is given an empty directory")
        #expect(try CallDirectorySnapshot.validate(reloader.snapshot.current) == 0)

        // Relaunched with the same refused key: branding stays off, nothing is exported.
        sdk = nil
        let relaunched = try launch(reloader: reloader)
        #expect(!relaunched.isBrandingActive)
        #expect(relaunched.lookup(e164: "+61412345678", atRingTime: false) == nil)
        #expect(await relaunched.syncStatus() == .disabled(status: 401))
        _ = try relaunched.reloadCallDirectoryIfNeeded { }
        #expect(try CallDirectorySnapshot.validate(reloader.snapshot.current) == 0, "the refused key does not bring labels back")

        // New credentials restore the directory from the stored dataset.
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([], syncedAt: "2024-01-03T00:00:00Z")))
        let before = reloader.reloads.count
        await relaunched.configure(apiKey: "sk_live_new")
        #expect(reloader.reloads.count == before + 1)
        #expect(reloader.reloads.last?.count == 2, "restored with both numbers")
        #expect(relaunched.lookup(e164: "+61412345678", atRingTime: false)?.brandName == "Acme Bank")
    }

    @Test func theServerSwitchingBrandingOffEmptiesTheDirectoryUntilItSwitchesBack() async throws {
        let reloader = RecordingReloader(folder: folder)
        let sdk = try launch(reloader: reloader)
        _ = await sdk.sync()
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([], syncedAt: "2024-01-03T00:00:00Z", config: #"{"branding_enabled":false}"#)))
        _ = await sdk.sync()
        #expect(reloader.reloads.map(\.count) == [2, 0])
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([], syncedAt: "2024-01-04T00:00:00Z")))
        _ = await sdk.sync()
        #expect(reloader.reloads.map(\.count) == [2, 0, 2], "switched back on: restored at once")
        _ = await sdk.sync()
        #expect(reloader.reloads.count == 3, "an unchanged dataset is not reloaded again")
    }

    @Test func theAPIKeyIsKeptForLaterLaunchesInAPrivateFile() async throws {
        _ = try launch(apiKey: "sk_live_secret")
        let file = folder.appendingPathComponent("api-key")
        #expect(try String(contentsOf: file, encoding: .utf8) == "sk_live_secret")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let later = try launch(apiKey: nil)
        _ = await later.sync()
        #expect(fake.requests("/api/mobile/branding/sync").last?.header("X-API-Key") == "sk_live_secret", "the stored key is used")

        await later.configure(apiKey: "sk_live_rotated")
        #expect(try String(contentsOf: file, encoding: .utf8) == "sk_live_rotated", "a new key replaces the stored one")

        let empty = try makeFolder("securenode-nokey")
        #expect(throws: SecureNodeError.noAPIKey) {
            try SecureNodeEngine(.init(
                apiURL: fake.server.baseURL, apiKey: nil, folder: empty,
                device: DeviceProfile(deviceID: "device-1", platform: .ios, sdkVersion: "1.0.0"), transport: FakeSecureNode.transport(),
                connectivity: nil, sendsHeartbeats: false))
        }
    }

    @Test func billingIsSentOnItsOwnAfterItsBackoffAndAtOnceWhenConnectivityReturns() async throws {
        fake.route("POST /api/mobile/branding/imprint", .json(503, #"{"error":"busy"}"#))
        let connectivity = Connectivity(isOnline: true)
        let sdk = try launch(connectivity: connectivity)
        _ = await sdk.sync()

        // Refused once, then accepted: the backoff timer sends it again with nothing else running.
        _ = sdk.recordImprint(phoneNumberE164: "+61412345678", brandID: "brand_1")
        #expect(try await eventually { fake.requests("/api/mobile/branding/imprint").count >= 1 })
        fake.route("POST /api/mobile/branding/imprint", .json(200, #"{"success":true}"#))
        #expect(try await eventually { try sdk.outbox.counts().pending == 0 }, "delivered by the backoff timer")
        #expect(try sdk.outbox.counts().delivered == 1)

        // Offline: an event waits far in the future; connectivity coming back sends it at once.
        fake.route("POST /api/mobile/branding/imprint", .json(503, #"{"error":"busy"}"#))
        await connectivity.update(isOnline: false)
        _ = sdk.recordImprint(phoneNumberE164: "+1234567890", brandID: "brand_1")
        #expect(try await eventually { fake.requests("/api/mobile/branding/imprint").count >= 3 })
        #expect(try await eventually { try sdk.outbox.due(at: Date()).isEmpty }, "the failed attempt is rescheduled")
        for entry in try sdk.outbox.due(at: Date().addingTimeInterval(86_400)) {
            try sdk.outbox.reschedule(entry, at: Date().addingTimeInterval(3_600), countingAttempt: false)
        }
        fake.route("POST /api/mobile/branding/imprint", .json(200, #"{"success":true}"#))
        let attemptsBefore = fake.requests("/api/mobile/branding/imprint").count
        // A pass of the delivery loop now finds nothing due and sleeps.
        let passes = await sdk.deliveryLoop.progress.passes
        await sdk.deliveryLoop.kick()
        #expect(try await eventually { let progress = await sdk.deliveryLoop.progress; return progress.passes > passes && progress.isSleeping })
        #expect(fake.requests("/api/mobile/branding/imprint").count == attemptsBefore, "nothing is sent before its time")
        await connectivity.update(isOnline: true)
        #expect(try await eventually { try sdk.outbox.counts().pending == 0 }, "sent as soon as the device is back online")
        #expect(try sdk.outbox.counts().delivered == 2)
    }

    @Test func aBackgroundRefreshSyncsDeliversAndSaysWhetherNewDataArrived() async throws {
        let reloader = RecordingReloader(folder: folder)
        fake.route("POST /api/mobile/branding/imprint", .json(200, #"{"success":true}"#))
        let sdk = try launch(reloader: reloader)
        #expect(SecureNodeEngine.backgroundRefreshTaskIdentifier == "com.securenode.branding.sync")

        let first = await sdk.performBackgroundRefresh(budget: Self.unhurried)
        #expect(first.succeeded && first.receivedNewData && !first.ranOutOfTime)
        #expect(first.callDirectoryReloaded && reloader.reloads.last?.count == 2)

        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([], syncedAt: "2024-01-03T00:00:00Z")))
        _ = sdk.recordImprint(phoneNumberE164: "+61412345678", brandID: "brand_1")
        let second = await sdk.performBackgroundRefresh(budget: Self.unhurried)
        #expect(second.succeeded && !second.receivedNewData, "nothing changed on the server")
        #expect(second.eventsPending == 0)
        #expect(fake.requests("/api/mobile/branding/imprint").count == 1, "the event went out once")

        // A server too slow for the budget: the refresh ends on time and the dataset stands.
        // It holds the sync's answer until the test ends: only the budget can end the refresh.
        let stall = ReplyGate()
        defer { stall.open() }
        fake.route("GET /api/mobile/branding/sync", .gated(stall, .json(200, FakeSecureNode.sync([], syncedAt: "2024-01-04T00:00:00Z"))))
        let slow = await sdk.performBackgroundRefresh(budget: .milliseconds(300))
        #expect(slow.ranOutOfTime && !slow.succeeded, "the budget bounds the refresh")
        #expect(sdk.lookup(e164: "+61412345678", atRingTime: false)?.brandName == "Acme Bank", "the previous dataset stands")
    }

    @Test func theReloadThrottleSurvivesARelaunch() async throws {
        let reloader = RecordingReloader(folder: folder)
        do {
            let sdk = try launch(reloader: reloader)
            _ = await sdk.sync()
            #expect(reloader.reloads.count == 1, "the first sync reloads")
        }
        // A cold launch: the same data, reloaded minutes ago by the last launch.
        let relaunched = try launch(reloader: reloader)
        #expect(await relaunched.reloadCallDirectoryIfNeeded() == false, "unchanged data is not reloaded again")
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([
            FakeSecureNode.record("+61412345678", "Acme Bank v2"),
        ], syncedAt: "2024-01-03T08:15:00Z")))
        _ = await relaunched.sync()
        #expect(reloader.reloads.count == 1, "changed data within 15 minutes of the last launch's reload waits")
        #expect(try relaunched.reloadCallDirectoryIfNeeded(now: Date().addingTimeInterval(16 * 60)) { })
    }

    @Test func theRegisteredBackgroundTaskAsksForItsNextRunBeforeEachRefreshAndReportsIt() async throws {
        let system = SimulatedBackgroundTasks(permitted: [SecureNodeEngine.backgroundRefreshTaskIdentifier])
        let sdk = try launch()
        #expect(!sdk.registerBackgroundRefresh(scheduler: nil), "no scheduler (not iOS): nothing registered")
        let before = Date()
        #expect(sdk.registerBackgroundRefresh(every: .seconds(1_800), budget: Self.unhurried, scheduler: system.scheduler))
        system.finishLaunching()
        let first = try #require(system.requests.first)
        #expect(first.identifier == SecureNodeEngine.backgroundRefreshTaskIdentifier)
        #expect(first.earliest.timeIntervalSince(before) >= 1_799, "the first run no sooner than the interval")

        #expect(await system.launch(SecureNodeEngine.backgroundRefreshTaskIdentifier) == true, "a launch syncs and completes with success")
        #expect(system.requests.count == 2, "each launch asks for the next one")
        #expect(sdk.lookup(e164: "+61412345678", atRingTime: false)?.brandName == "Acme Bank")

        fake.route("GET /api/mobile/branding/sync", .json(500, #"{"error":"down"}"#))
        #expect(await system.launch(SecureNodeEngine.backgroundRefreshTaskIdentifier) == false, "a failed sync completes the task with failure")
        #expect(system.requests.count == 3, "and the next run is asked for all the same")
        #expect(system.violations.isEmpty)
    }

    @Test func registeringAgainNeverAsksTheSystemTwiceAndTheNewestEngineRuns() async throws {
        let system = SimulatedBackgroundTasks(permitted: [SecureNodeEngine.backgroundRefreshTaskIdentifier])
        let first = try launch()
        #expect(first.registerBackgroundRefresh(budget: Self.unhurried, scheduler: system.scheduler))
        system.finishLaunching()
        // A second engine after launch (a reconfiguration): iOS would end the app on a second registration.
        let second = try launch()
        #expect(second.registerBackgroundRefresh(budget: Self.unhurried, scheduler: system.scheduler), "the first answer, the system not asked again")
        #expect(system.violations.isEmpty)
        #expect(await system.launch(SecureNodeEngine.backgroundRefreshTaskIdentifier) == true)
        #expect(second.lookup(e164: "+61412345678", atRingTime: false)?.brandName == "Acme Bank", "the newest engine ran")
    }

    @Test func aLaunchTheSystemExpiresIsCancelledAndCompletedOnce() async throws {
        let system = SimulatedBackgroundTasks(permitted: [SecureNodeEngine.backgroundRefreshTaskIdentifier])
        let gate = ReplyGate()
        fake.route("GET /api/mobile/branding/sync", .gated(gate, .json(200, FakeSecureNode.sync([], syncedAt: "2024-01-02T00:00:00Z"))))
        let sdk = try launch()
        #expect(sdk.registerBackgroundRefresh(budget: .seconds(3600), scheduler: system.scheduler))
        system.finishLaunching()
        // The sync waits on the server; the system ends the launch first.
        #expect(await system.launch(SecureNodeEngine.backgroundRefreshTaskIdentifier, expiring: true) == false, "cancelled, completed as failed, once")
        gate.open()
        #expect(system.violations.isEmpty)
    }

    @Test func theDoubleFailsWhatIOSWouldEndTheAppFor() async throws {
        let identifier = SecureNodeEngine.backgroundRefreshTaskIdentifier
        // Registered after launch: iOS raises NSInternalInconsistencyException.
        let late = SimulatedBackgroundTasks(permitted: [identifier])
        late.finishLaunching()
        withKnownIssue("registration after launch") {
            _ = late.scheduler.registerOnce(identifier) { true }
        }
        #expect(late.violations.count == 1 && late.violations[0].contains("before application finishes launching"))
        // Registered twice through two schedulers' worth of calls: the system's second registration.
        let twice = SimulatedBackgroundTasks(permitted: [identifier])
        withKnownIssue("a second registration") {
            _ = twice.scheduler.register(identifier, { _ in })
            _ = twice.scheduler.register(identifier, { _ in })
        }
        #expect(twice.violations.last?.contains("has already been registered") == true)
        // A request for an identifier without a handler.
        let unregistered = SimulatedBackgroundTasks(permitted: [identifier])
        withKnownIssue("a request without a handler") {
            try? unregistered.scheduler.submit(identifier, Date())
        }
        #expect(unregistered.violations.last?.contains("No launch handler registered") == true)
        // Not in BGTaskSchedulerPermittedIdentifiers: refused, no launch ever; the SDK schedules nothing.
        let unlisted = SimulatedBackgroundTasks(permitted: [])
        let sdk = try launch()
        #expect(!sdk.registerBackgroundRefresh(scheduler: unlisted.scheduler))
        #expect(unlisted.requests.isEmpty && unlisted.violations.isEmpty)
    }

    @Test func theCallKitReloaderSaysWhereCallKitIsMissing() async throws {
        let reloader = CallKitDirectoryReloader(extensionIdentifier: "com.customer.app.CallDirectoryExtension")
        #if canImport(CallKit)
        _ = reloader
        #else
        await #expect(throws: CallDirectoryUnavailableError(extensionIdentifier: "com.customer.app.CallDirectoryExtension")) {
            try await reloader.reloadExtension()
        }
        #endif
    }
}
