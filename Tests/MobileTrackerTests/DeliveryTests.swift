import BackendDoubles
import Foundation
import LoopbackHTTPServer
import MobileTracker
import Resilience
import RuntimeSupport
import Testing
import Waiting

@Suite struct TrackerDeliveryTests {
    @Test func payloadsFollowTheSpec() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        let session = try #require(await tracker.sessionID())
        await tracker.setMetadata(["experiment_group": "variant_a"])
        await tracker.track(
            eventName: "PURCHASE", attributes: ["order_id": "ORD-789", "total": 149.99, "items": [["id": "12345", "quantity": 2]]],
            metadata: ["flow_id": "checkout_v2"])
        await tracker.identify(userId: "user123", profileData: ["email": "user@example.com", "name": "John Doe", "plan": "pro"])
        await tracker.set(profileData: ["plan": "enterprise"])
        await tracker.updateLocation(latitude: 37.77, longitude: -122.42, accuracy: 10)
        #expect(await tracker.flush(timeout: .seconds(60)))
        let received = harness.backend.received.dropFirst()  // the session
        // identify: the link of the session to the new user (identifyById), then the profile.
        #expect(received.map(\.kind) == ["profile", "event", "profile", "profile", "profile", "location"])
        let event = try #require(received.first { $0.kind == "event" })
        #expect(event.sessionID == session && (event.json["brand_id"] as? NSNumber)?.intValue == 925)
        let data = try #require(event.json["data"] as? [String: Any])
        #expect(data["order_id"] as? String == "ORD-789" && data["flow_id"] as? String == "checkout_v2")
        #expect(data["experiment_group"] as? String == "variant_a", "session metadata goes with later events")
        let link = received.filter { $0.kind == "profile" }[1].json
        #expect(link["user_id"] as? String == "user123" && link["session_id"] as? String == session && link["email"] == nil)
        let identify = received.filter { $0.kind == "profile" }[2].json
        #expect(identify["user_id"] as? String == "user123" && identify["email"] as? String == "user@example.com")
        #expect(identify["name"] as? String == "John Doe" && (identify["metadata"] as? [String: Any])?["plan"] as? String == "pro")
        #expect(received.last?.sessionID == session && received.last?.json["latitude"] as? Double == 37.77)
        #expect(harness.backend.server.requests.allSatisfy { $0.header("X-API-Key") == harness.backend.apiKey && $0.header("Content-Type") == "application/json" })
        #expect(harness.storedFile("identify_id") != nil && harness.storedFile("session_email") != nil)
        #expect(harness.primary.string(forKey: "__GT_925_identify_id") == nil && harness.primary.string(forKey: "__GT_925_session_email") == nil)
    }

    @Test func callsBeforeTheSessionIsReadyAreSentInOrderOnceItIs() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        // The session request is held at the server while the app tracks.
        let gate = ReplyGate()
        harness.backend.fault.withLock { $0 = { request in
            guard request.path == "/v2/tracking-session" else { return nil }
            gate.hold()
            return nil
        } }
        let tracker = harness.makeTracker()
        let initialization = Task { try await tracker.initialize(brandId: "925", config: harness.config) }
        try await gate.waitForArrivals(1)
        for index in 0..<20 { await tracker.track(eventName: "EARLY_\(index)") }
        #expect(harness.backend.events.isEmpty)
        gate.open()
        try await initialization.value
        #expect(await tracker.flush(timeout: .seconds(60)))
        #expect(harness.backend.events.map(\.eventName) == (0..<20).map { "EARLY_\($0)" })
        let session = await tracker.sessionID()
        #expect(Set(harness.backend.events.map(\.sessionID)) == [session])
    }

    @Test func unencodableValuesAreRefusedAndNothingIsQueued() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        await tracker.track(eventName: "BAD", attributes: ["when": Date()])
        await tracker.track(eventName: "BAD", attributes: ["ratio": Double.nan])
        await tracker.identify(userId: "u", profileData: ["avatar": Data([1, 2])])
        #expect(await tracker.queueStatus().pending == 0)
        #expect(harness.log.all.contains { $0.contains("attributes.when cannot be sent as JSON") })
        await tracker.track(eventName: "GOOD", attributes: ["n": 1, "ok": true, "none": NSNull(), "nested": ["a": [1, 2.5, "x"]]])
        #expect(await tracker.flush(timeout: .seconds(60)))
        #expect(harness.backend.events.map(\.eventName) == ["GOOD"])
        let data = harness.backend.events.first?.json["data"] as? [String: Any]
        #expect(data?["ok"] as? Bool == true && data?["none"] is NSNull)
    }

    @Test func failuresAreRetriedAndRefusalsDroppedInOrder() async throws {
        let harness = try TrackerHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        let attempts = harness.answerByEvent { name, attempt in
            switch name {
            case "FLAKY": return attempt <= 2 ? .respond(status: 503) : nil
            case "LIMITED": return attempt == 1 ? .json(429, "{}", headers: [("Retry-After", "1")]) : nil
            case "RESET": return attempt == 1 ? .dropConnection : nil
            case "REFUSED": return .json(400, #"{"success":false,"message":"bad event"}"#)
            default: return nil
            }
        }
        let started = ContinuousClock.now
        for name in ["FLAKY", "LIMITED", "REFUSED", "RESET", "LAST"] { await tracker.track(eventName: name) }
        #expect(await tracker.flush(timeout: .seconds(60)))
        #expect(harness.backend.events.map(\.eventName) == ["FLAKY", "LIMITED", "RESET", "LAST"], "order kept; the refused one dropped")
        #expect(attempts.withLock { $0 } == ["FLAKY": 3, "LIMITED": 2, "REFUSED": 1, "RESET": 2, "LAST": 1])
        #expect(ContinuousClock.now - started >= .seconds(1), "Retry-After waited")
        let status = await tracker.queueStatus()
        #expect(status.pending == 0 && status.delivered == 4 && status.droppedAsRejected == 1)
    }

    @Test func deliveryWaitsWhileOfflineAndSurvivesARelaunch() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let tracker = harness.makeTracker(connectivity: connectivity)
        try await tracker.initialize(brandId: "925", config: harness.config)
        await connectivity.update(isOnline: false)
        for index in 0..<5 { await tracker.track(eventName: "OFFLINE_\(index)") }
        try await waitUntil("delivery to wait for connectivity") { await tracker.deliveryWaitsForConnectivity() }
        let pending = await tracker.queueStatus().pending
        #expect(harness.backend.events.isEmpty && pending == 5)
        // The app is killed offline; the next launch is online.
        let relaunched = harness.makeTracker()
        try await relaunched.initialize(brandId: "925", config: harness.config)
        #expect(await relaunched.flush(timeout: .seconds(60)))
        #expect(harness.backend.events.map(\.eventName) == (0..<5).map { "OFFLINE_\($0)" })
        await connectivity.update(isOnline: true)
    }

    @Test func theQueueIsBoundedOldestFirst() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: false)
        let tracker = harness.makeTracker(connectivity: connectivity, maximumQueuedItems: 5)
        try await tracker.initialize(brandId: "925", config: harness.config)
        for index in 0..<8 { await tracker.track(eventName: "E\(index)") }
        let status = await tracker.queueStatus()
        #expect(status.pending == 5 && status.droppedForSpace == 3)
        await connectivity.update(isOnline: true)
        #expect(await tracker.flush(timeout: .seconds(60)))
        #expect(harness.backend.events.map(\.eventName) == ["E3", "E4", "E5", "E6", "E7"])
    }

    @Test func resetStartsANewSessionAndKeepsQueuedEventsWithTheirOwn() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: false)
        let tracker = harness.makeTracker(connectivity: connectivity)
        try await tracker.initialize(brandId: "925", config: harness.config)
        await tracker.identify(userId: "user123", profileData: ["email": "user@example.com"])
        let first = await tracker.sessionID()
        await tracker.track(eventName: "BEFORE_RESET")
        await connectivity.update(isOnline: true)
        tracker.reset()
        let second = await tracker.sessionID()
        #expect(second != nil && second != first)
        #expect(harness.primary.string(forKey: "__GT_925_identify_id") == nil && harness.primary.string(forKey: "__GT_925_session_email") == nil)
        #expect(harness.primary.string(forKey: "__GT_925_brand_id") != nil, "the brand id stays unless reset(all: true)")
        await tracker.track(eventName: "AFTER_RESET")
        #expect(await tracker.flush(timeout: .seconds(60)))
        let events = harness.backend.events
        #expect(events.map(\.eventName) == ["BEFORE_RESET", "AFTER_RESET"])
        #expect(events.map(\.sessionID) == [first, second])
        tracker.reset(all: true)
        _ = await tracker.sessionID()  // the tracker's next call waits for the reset
        #expect(harness.primary.string(forKey: "__GT_925_brand_id") == nil)
    }

    @Test func consecutiveScreensAreTrackedOnce() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        for name in ["Home", "Home", "Cart", "Cart", "Home"] { await tracker.screen(name: name, properties: ["tab": 1]) }
        #expect(await tracker.flush(timeout: .seconds(60)))
        let views = harness.backend.events
        #expect(views.map(\.eventName) == ["VIEW_PAGE", "VIEW_PAGE", "VIEW_PAGE"])
        #expect(views.compactMap { ($0.json["data"] as? [String: Any])?["screen"] as? String } == ["Home", "Cart", "Home"])
    }

    @Test func anUninitializedTrackerDropsWithAWarning() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        // At the level a release build logs: the reference says a warning is logged.
        let tracker = harness.makeTracker(logLevel: .info)
        await tracker.track(eventName: "TOO_EARLY")
        #expect(harness.log.all.contains { $0.hasPrefix("warning ") && $0.contains("not initialized") && $0.contains("event dropped") })
        #expect(await tracker.queueStatus().pending == 0)
    }

    @Test func aRotatedKeyPausesDeliveryKeepingEveryRowUntilTheNewKeyArrives() async throws {
        let harness = try TrackerHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        await tracker.track(eventName: "BEFORE")
        #expect(await tracker.flush(timeout: .seconds(60)))
        let attemptsBefore = harness.backend.server.requests.count
        harness.backend.rotateKey(to: "rotated-key")
        for index in 1...5 { await tracker.track(eventName: "E\(index)") }
        try await waitUntil("delivery to pause for the refused key") { await tracker.queueStatus().pausedForStatus == 401 }
        var status = await tracker.queueStatus()
        #expect(status.pausedForStatus == 401 && status.pending == 5 && status.droppedAsRejected == 0)
        // Paused: one refused attempt, then no request at all, however long:
        // no delivery loop runs and no timer is set until the new key.
        try await waitUntil("delivery to stop while paused") { await tracker.deliveryIsIdle() }
        #expect(harness.backend.server.requests.count - attemptsBefore == 1)
        #expect(harness.log.all.contains { $0.contains("delivery paused") })
        #expect(harness.log.leaks(of: ["rotated-key", "test-key"]).isEmpty)

        try await tracker.updateApiKey("rotated-key")
        #expect(await tracker.flush(timeout: .seconds(60)))
        #expect(harness.backend.events.map(\.eventName) == ["BEFORE", "E1", "E2", "E3", "E4", "E5"], "all kept, in order, once each")
        status = await tracker.queueStatus()
        #expect(status.pausedForStatus == nil && status.pending == 0 && status.delivered == 6)
        #expect(harness.log.leaks(of: ["rotated-key"]).isEmpty)
        await #expect(throws: TrackerError.self) { try await tracker.updateApiKey("  ") }
    }

    @Test func aForbiddenAnswerPausesUntilTheAppResumes() async throws {
        let harness = try TrackerHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        let forbidden = Locked(true)
        harness.backend.fault.withLock { $0 = { _ in forbidden.withLock { $0 } ? .json(403, #"{"success":false,"message":"Forbidden"}"#) : nil } }
        await tracker.track(eventName: "KEPT")
        try await waitUntil("delivery to pause for the 403") { await tracker.queueStatus().pausedForStatus == 403 }
        #expect(await tracker.queueStatus().pending == 1, "kept, not dropped")
        forbidden.withLock { $0 = false }
        await tracker.resumeDelivery()
        #expect(await tracker.flush(timeout: .seconds(60)))
        #expect(harness.backend.events.map(\.eventName) == ["KEPT"])
    }

    @Test func aRefusedKeyPausesWhateverTheBodySays() async throws {
        // A gateway's HTML page with a 401: the key is refused all the same, so
        // the queue waits for a new one instead of sending every row again on
        // the backoff (the family's one classifier, as the billing outbox).
        let harness = try TrackerHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        let refused = Locked(true)
        harness.backend.fault.withLock {
            $0 = { _ in
                refused.withLock { $0 } ? .respond(status: 401, headers: [("Content-Type", "text/html")], body: "<html>Unauthorized</html>") : nil
            }
        }
        await tracker.track(eventName: "KEPT")
        try await waitUntil("delivery to pause for the 401") { await tracker.queueStatus().pausedForStatus == 401 }
        #expect(await tracker.queueStatus().pending == 1, "kept, not dropped")
        refused.withLock { $0 = false }
        await tracker.resumeDelivery()
        #expect(await tracker.flush(timeout: .seconds(60)))
        #expect(harness.backend.events.map(\.eventName) == ["KEPT"])
    }

    @Test func notFoundAndUnstatedRefusalsAreRetriedNeverDropped() async throws {
        let harness = try TrackerHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        _ = harness.answerByEvent { name, attempt in
            switch name {
            case "MISROUTED": return attempt <= 2 ? .json(404, #"{"success":false,"message":"Not Found"}"#) : nil
            case "PROXY_PAGE": return attempt == 1 ? .respond(status: 400, body: "<html>Bad Request</html>") : nil
            case "GONE": return attempt == 1 ? .respond(status: 410) : nil
            case "STATED": return .json(422, #"{"success":false,"message":"event_name is too long","code":"BAD_REQUEST"}"#)
            default: return nil
            }
        }
        for name in ["MISROUTED", "PROXY_PAGE", "STATED", "GONE", "LAST"] { await tracker.track(eventName: name) }
        #expect(await tracker.flush(timeout: .seconds(60)))
        #expect(harness.backend.events.map(\.eventName) == ["MISROUTED", "PROXY_PAGE", "GONE", "LAST"], "only the stated refusal is dropped")
        let status = await tracker.queueStatus()
        #expect(status.notFoundAnswers == 2 && status.droppedAsRejected == 1 && status.delivered == 4)
        #expect(harness.log.all.contains { $0.contains("refused with status 422") })
    }

    @Test func resetCreatesTheNewSessionForANewDeviceID() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        let before = try #require(await tracker.deviceID())
        tracker.reset()
        let after = try #require(await tracker.deviceID())
        #expect(after != before, "reset clears device_id: the next session is a new device's")
        let created = harness.backend.received.filter { $0.kind == "session" }.map { $0.json["device_id"] as? String }
        #expect(created == [before, after], "the new session was created with the new id at once")
        let relaunched = harness.makeTracker()
        try await relaunched.initialize(brandId: "925", config: harness.config)
        #expect(await relaunched.deviceID() == after, "and it is stored for the next launch")
    }

    @Test func sessionMetadataComesBackWithTheRestoredSession() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        await tracker.setMetadata(["plan": "pro", "seats": 3])
        #expect(await tracker.flush(timeout: .seconds(60)))
        let relaunched = harness.makeTracker()
        try await relaunched.initialize(brandId: "925", config: harness.config)
        #expect(await relaunched.sessionID() == (await tracker.sessionID()))
        await relaunched.track(eventName: "AFTER_RELAUNCH", attributes: ["seats": 4])
        #expect(await relaunched.flush(timeout: .seconds(60)))
        let data = try #require(harness.backend.events.last?.json["data"] as? [String: Any])
        #expect(data["plan"] as? String == "pro" && data["seats"] as? Int == 4, "metadata restored, the event's own values win")
        relaunched.reset()
        await relaunched.track(eventName: "AFTER_RESET")
        #expect(await relaunched.flush(timeout: .seconds(60)))
        #expect(harness.backend.events.last?.json["data"] == nil, "reset forgets the metadata")
    }

    @Test func aSessionThatFailedOfflineIsCreatedWhenConnectivityReturns() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let unreachable = Locked(true)
        harness.backend.fault.withLock { $0 = { _ in unreachable.withLock { $0 } ? .dropConnection : nil } }
        let connectivity = Connectivity(isOnline: false)
        let tracker = harness.makeTracker(connectivity: connectivity)
        await #expect(throws: TrackerError.self) { try await tracker.initialize(brandId: "925", config: harness.config) }
        await tracker.track(eventName: "TRACKED_OFFLINE")
        #expect(await tracker.queueStatus().pending == 1)

        unreachable.withLock { $0 = false }
        await connectivity.update(isOnline: true)
        // No call from the app: connectivity coming back is enough.
        try await waitUntil("the event tracked offline to arrive") { !harness.backend.events.isEmpty }
        #expect(harness.backend.sessions.count == 1 && harness.backend.events.map(\.eventName) == ["TRACKED_OFFLINE"])
        #expect(await tracker.sessionID() == harness.backend.sessions.first)
    }
}
