import BackendDoubles
import Foundation
@testable import MobileTracker
import PlatformRules
import RuntimeSupport
import Testing
import Waiting

/// A location source whose permission and reading the test sets, counting
/// the readings asked of it.
final class StubLocationSource: LocationSource {
    private let state: Locked<(reading: LocationData?, asked: Int)>

    init(reading: LocationData?) { state = Locked((reading, 0)) }

    var asked: Int { state.read().asked }

    func readingIfAuthorized() async -> LocationData? {
        state.withLock { $0.asked += 1; return $0.reading }
    }
}

/// The reference's "Update Session Location ... Called: After session
/// creation if location permissions are granted", through the real client
/// over loopback, and Core Location's rules held by a double.
@Suite struct TrackerLocationTests {
    static let sanFrancisco = LocationData(latitude: 37.7749, longitude: -122.4194, accuracy: 10)

    func tracker(_ harness: TrackerHarness, source: any LocationSource, automatic: Bool = true) -> MobileTracker {
        MobileTracker(options: .init(
            folder: harness.folder, primaryStore: harness.primary, connectivity: nil, logger: harness.log.logger(label: "tracker"),
            tracksLocationAutomatically: automatic, locationSource: source))
    }

    @Test func aNewSessionSendsTheLocationWhenThePermissionIsHeldAndARestoredOneDoesNot() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let source = StubLocationSource(reading: Self.sanFrancisco)
        let tracker = tracker(harness, source: source)
        try await tracker.initialize(brandId: "925", config: harness.config)
        await tracker.automaticLocationSettled()
        #expect(await tracker.flush(timeout: .seconds(60)))
        let session = try #require(await tracker.sessionID())
        let locations = harness.backend.received.filter { $0.kind == "location" }
        #expect(locations.count == 1 && locations.first?.sessionID == session)
        let body = try #require(locations.first?.json)
        #expect(body["latitude"] as? Double == 37.7749 && body["longitude"] as? Double == -122.4194 && body["accuracy"] as? Double == 10)
        #expect(harness.backend.server.requests.contains { $0.method == "PUT" && $0.path == "/v2/tracking-session/\(session)/location" })

        // A relaunch restores the session: no new session, no reading.
        let relaunched = self.tracker(harness, source: source)
        try await relaunched.initialize(brandId: "925", config: harness.config)
        await relaunched.automaticLocationSettled()
        #expect(source.asked == 1)
        // A reset creates a session: its location goes with it.
        relaunched.reset()
        let newSession = try #require(await relaunched.sessionID())
        #expect(newSession != session)
        await relaunched.automaticLocationSettled()
        #expect(await relaunched.flush(timeout: .seconds(60)))
        #expect(harness.backend.received.filter { $0.kind == "location" }.map(\.sessionID) == [session, newSession])
    }

    @Test func withoutPermissionOrWithTheSwitchOffNoLocationIsSent() async throws {
        for (reading, automatic) in [(nil, true), (Self.sanFrancisco, false)] as [(LocationData?, Bool)] {
            let harness = try TrackerHarness()
            defer { harness.cleanUp() }
            let source = StubLocationSource(reading: reading)
            let tracker = tracker(harness, source: source, automatic: automatic)
            try await tracker.initialize(brandId: "925", config: harness.config)
            await tracker.automaticLocationSettled()
            await tracker.track(eventName: "AFTER")
            #expect(await tracker.flush(timeout: .seconds(60)))
            #expect(harness.backend.received.map(\.kind) == ["session", "event"])
            #expect(source.asked == (automatic ? 1 : 0), "the switch off: the source is never read")
        }
    }

    @Test @MainActor func theDeviceReaderNeverPromptsAndReadsOnceWithPermission() async throws {
        // Never asked, denied, restricted: no reading asked for, nothing prompted.
        for authorization in [LocationAuthorization.notDetermined, .denied, .restricted] {
            let manager = SimulatedLocationManager(authorization: authorization, reading: Self.sanFrancisco)
            let reader = DeviceLocationReader { manager }
            #expect(await reader.readingIfAuthorized() == nil)
            #expect(manager.requests == 0 && manager.violations.isEmpty)
        }
        for authorization in [LocationAuthorization.authorizedWhenInUse, .authorizedAlways] {
            let manager = SimulatedLocationManager(authorization: authorization, reading: Self.sanFrancisco)
            let reader = DeviceLocationReader { manager }
            #expect(await reader.readingIfAuthorized() == Self.sanFrancisco)
            #expect(manager.requests == 1 && manager.stops == 1, "one reading, then stopped")
        }
    }

    @Test @MainActor func aReadingThatNeverComesIsGivenUpAtTheTimeout() async throws {
        let manager = SimulatedLocationManager(authorization: .authorizedWhenInUse, reading: nil)
        let reader = DeviceLocationReader(timeout: .milliseconds(20)) { manager }
        #expect(await reader.readingIfAuthorized() == nil)
        #expect(manager.requests == 1 && manager.stops == 1, "the request stopped at the timeout")
    }

    @Test func theTrackerWithCoreLocationsRulesSendsTheReadingOfANewSession() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let manager = await SimulatedLocationManager(authorization: .authorizedWhenInUse, reading: Self.sanFrancisco)
        let tracker = tracker(harness, source: DeviceLocationReader { manager })
        try await tracker.initialize(brandId: "925", config: harness.config)
        await tracker.automaticLocationSettled()
        #expect(await tracker.flush(timeout: .seconds(60)))
        #expect(harness.backend.received.filter { $0.kind == "location" }.count == 1)
        #expect(await manager.violations.isEmpty)
    }

    @Test func theCoreLocationAdapterHasNoWayToPrompt() throws {
        // The seam has no method to ask; the adapter must not call one of Core Location's either.
        let adapter = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/MobileTracker/Apple/CoreLocationManager.swift")
        let text = try String(contentsOf: adapter, encoding: .utf8)
        #expect(text.contains("requestLocation()"))
        for prompt in ["requestWhenInUseAuthorization", "requestAlwaysAuthorization", "requestTemporaryFullAccuracyAuthorization", "startUpdatingLocation"] {
            #expect(!text.contains(prompt + "("), "\(prompt) in the adapter")
        }
    }
}
