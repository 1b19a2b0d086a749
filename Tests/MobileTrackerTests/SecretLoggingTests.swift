import ClientRuntime
import ClientRuntimeTesting
import Foundation
import LoopbackHTTPServer
import Logging
@testable import MobileTracker
import MobileTrackerAPI
import OpenAPIURLSession
import PlatformRules
import Resilience
import Testing
import Waiting

/// The tracking session id is a secret the spec marks (`x-secret` on
/// `SessionId`): it reaches no log line, in a body or in a URL path. A
/// body's values reach none either, unless the spec marks the field
/// loggable (`x-loggable`): a log shows a body's shape.
@Suite struct SecretLoggingTests {
    @Test func aGeneratedClientsTraceLogsMaskWhatItsSpecMarks() async throws {
        let server = try LoopbackHTTPServer { request in
            request.path.hasSuffix("/location") ? .json(200, #"{"status":"ok"}"#) : .json(201, #"{"data":{"id":"sess_8f3a2c-secret"}}"#)
        }
        defer { server.shutdown() }
        let log = LogCapture()
        var logger = log.logger(label: "tracker")
        logger.logLevel = .trace
        let client = MobileTrackerAPI.Client(
            serverURL: server.baseURL, transport: URLSessionTransport(),
            middlewares: [APIKeyMiddleware { "api-key-value" }, RedactingLogMiddleware(logger: logger)])
        let created = try await client.createTrackingSession(
            body: CreateTrackingSessionRequest(deviceID: LowercaseUUID(), osName: "iOS", deviceType: "Mobile", brandID: 925))
        #expect(created.data.id == "sess_8f3a2c-secret")
        _ = try await client.updateTrackingSessionLocation(sessionID: created.data.id, body: LocationUpdateRequest(latitude: 52.5, longitude: 13.4, accuracy: 10))
        #expect(server.requests.last?.path == "/v2/tracking-session/sess_8f3a2c-secret/location", "the real path went out")
        #expect(log.all.contains { $0.contains("/v2/tracking-session/***/location") }, "\(log.all)")
        #expect(!log.all.contains { $0.contains("sess_8f3a2c-secret") }, "the session id is in no log line: \(log.all)")
        #expect(!log.all.contains { $0.contains("api-key-value") })
    }

    @Test func theTrackerLogsNoSessionIdAtAnyLevel() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        // Every path that logs: a new session, no location reading, events,
        // a profile, metadata, a reset to a second session.
        let tracker = MobileTracker(options: .init(
            folder: harness.folder, primaryStore: harness.primary, connectivity: nil, logger: harness.log.logger(label: "tracker", level: .trace),
            tracksLocationAutomatically: true, locationSource: StubLocationSource(reading: nil)))
        try await tracker.initialize(brandId: "925", config: harness.config)
        await tracker.automaticLocationSettled()
        await tracker.track(eventName: "SIGNED_IN")
        await tracker.identify(userId: "user-1", profileData: ["plan": "pro"])
        await tracker.setMetadata(["theme": "dark"])
        tracker.reset()
        await tracker.automaticLocationSettled()
        await tracker.track(eventName: "AFTER_RESET")
        #expect(await tracker.flush(timeout: .seconds(60)))
        let sessions = harness.backend.sessions
        #expect(sessions.count == 2)
        #expect(harness.log.all.count > 10, "the tracker logged what it did: \(harness.log.all.count) lines")
        for session in sessions {
            #expect(!harness.log.all.contains { $0.contains(session) }, "\(harness.log.all.filter { $0.contains(session) })")
        }
    }

    /// An app at its most verbose (`trace`) logs each body's shape: no
    /// email, location, profile value, user id or event attribute; only
    /// what the spec marks loggable (`success`) shows its value.
    @Test func theTrackerAtTraceLogsTheShapeOfItsBodiesNotTheirValues() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let berlin = LocationData(latitude: 52.520008, longitude: 13.404954, accuracy: 12)
        let tracker = MobileTracker(options: .init(
            folder: harness.folder, primaryStore: harness.primary, connectivity: nil, logger: harness.log.logger(label: "tracker", level: .trace),
            tracksLocationAutomatically: true, locationSource: StubLocationSource(reading: berlin)))
        try await tracker.initialize(brandId: "925", config: harness.config)
        await tracker.automaticLocationSettled()
        await tracker.identify(userId: "user-ada-1815", profileData: ["email": "ada.lovelace@example.com", "name": "Ada Lovelace", "plan": "analytical-engine"])
        await tracker.track(eventName: "CHECKOUT", attributes: ["basket_total": 1234.56, "coupon": "WINTER-SALE-2026"])
        #expect(await tracker.flush(timeout: .seconds(60)))
        let log = harness.log.all
        #expect(harness.backend.received.contains { $0.kind == "location" }, "the location went out")
        #expect(log.filter { $0.contains("request body:") }.count >= 4, "each request's body was logged: \(log)")
        for value in ["ada.lovelace", "Ada Lovelace", "analytical-engine", "52.52", "13.40", "1234.56", "WINTER-SALE", "user-ada-1815"] {
            #expect(!log.contains { $0.contains(value) }, "\(value) is in the log: \(log.filter { $0.contains(value) })")
        }
        #expect(log.contains { $0.contains(#"{"accuracy": number, "latitude": ***, "longitude": ***}"#) }, "the spec marks the location secret: \(log)")
        #expect(log.contains { $0.contains(#""email": ***"#) }, "and the email: \(log)")
        #expect(log.contains { $0.contains(#""success": true"#) }, "what the spec marks loggable shows its value: \(log)")
    }
}

/// What Instruments shows of the tracker (through `OSSignposter` on a
/// device, a simulated signposter holding its rules here): each delivery
/// pass of the queue and each request, named with its operation's id.
@Suite struct TrackerIntervalsTests {
    @Test func aFlushIsAnIntervalWithItsRequests() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let signposter = SimulatedSignposter()
        var options = MobileTracker.Options(folder: harness.folder, primaryStore: harness.primary, connectivity: nil, logger: harness.log.logger(label: "tracker"))
        options.connection.signposts = Signposts(subsystem: "OpenAPIMobileClients.MobileTracker", sink: signposter)
        let tracker = MobileTracker(options: options)
        try await tracker.initialize(brandId: "925", config: harness.config)
        await tracker.track(eventName: "SIGNED_IN")
        #expect(await tracker.flush(timeout: .seconds(60)))
        try await waitUntil("the pass that emptied the queue has ended") { signposter.openIntervals.isEmpty }
        #expect(signposter.violations.isEmpty, "\(signposter.violations)")
        let intervals = signposter.finished
        #expect(intervals.contains(.init(name: "queue flush", subsystem: "OpenAPIMobileClients.MobileTracker", detail: "delivery pass")), "\(intervals)")
        let requests = intervals.filter { $0.name == "request" }.map(\.detail)
        #expect(requests.contains("createTrackingSession") && requests.contains("sendTrackingSessionData"), "\(requests)")
    }
}
