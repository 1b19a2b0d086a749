import BackendDoubles
import ClientRuntimeTesting
import Foundation
import LoopbackHTTPServer
import MobileTracker
import Resilience
import Testing

@Suite struct TrackerInitializationTests {
    @Test(arguments: ["", "92a", " 925", "-925", "9.25"])
    func aBrandIDMustBeNumeric(brand: String) async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        await #expect(throws: TrackerError.invalidBrandId) { try await harness.makeTracker().initialize(brandId: brand, config: harness.config) }
        #expect(harness.backend.server.requests.isEmpty)
    }

    @Test func theConfigurationIsValidated() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let url = harness.backend.baseURL.absoluteString
        let cases: [(TrackerConfig?, String)] = [
            (nil, "a configuration with apiUrl and xApiKey is required"),
            (TrackerConfig(xApiKey: "k"), "apiUrl is required"),
            (TrackerConfig(apiUrl: "http://api.example.com", xApiKey: "k"), "apiUrl must use https (http only to a loopback host)"),
            // A name that starts like a loopback address is not one: the key would go in clear to whoever it names.
            (TrackerConfig(apiUrl: "http://127.example.com", xApiKey: "k"), "apiUrl must use https (http only to a loopback host)"),
            (TrackerConfig(apiUrl: "http://127.0.0.1.example.com", xApiKey: "k"), "apiUrl must use https (http only to a loopback host)"),
            (TrackerConfig(apiUrl: "not a url", xApiKey: "k"), "apiUrl is not a valid URL"),
            (TrackerConfig(apiUrl: url, xApiKey: " "), "xApiKey is required"),
            (TrackerConfig(apiUrl: url, xApiKey: "k", cookieExpiration: 0), "cookieExpiration must be more than 0 days"),
        ]
        for (config, reason) in cases {
            await #expect(throws: TrackerError.invalidConfiguration(reason: reason)) {
                try await harness.makeTracker().initialize(brandId: "925", config: config)
            }
        }
        #expect(harness.backend.server.requests.isEmpty)
    }

    /// Every SDK of the family has timeouts: a server that never accepts
    /// ends the session's request at the connect bound (scaled down here),
    /// as the network's failure. The initialization's own limit is set far
    /// off, so what ended the request is the connect bound, named in the
    /// log, whatever the machine's load (without the bound, the request
    /// waits for URLSession's 60 s and the log names no connect bound).
    @Test func aServerThatDoesNotAcceptEndsTheSessionRequestAtTheConnectTimeout() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let late = try UnacceptingListener()
        let tracker = harness.makeTracker(
            initializationTimeout: .seconds(600), timeouts: TransportTimeouts(connect: .milliseconds(500), read: .seconds(3)))
        await #expect {
            try await tracker.initialize(brandId: "925", config: TrackerConfig(apiUrl: late.baseURL.absoluteString, xApiKey: harness.backend.apiKey))
        } throws: { error in
            guard case TrackerError.networkError = error else { return false }
            return true
        }
        // Where the transport dials first (Linux), the log names the connect bound.
        if ConnectTimeoutMiddleware.dialsBeforeSending {
            #expect(harness.log.all.contains { $0.contains("could not connect to 127.0.0.1:\(late.port) within 0.5 seconds") }, "\(harness.log.all.suffix(3))")
        }
    }

    @Test func anAPIURLWithATrailingSlashIsUsedWithoutItAndAWarningIsLogged() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = harness.makeTracker(logLevel: .info)
        let url = harness.backend.baseURL.absoluteString
        try await tracker.initialize(brandId: "925", config: TrackerConfig(apiUrl: url + "//", xApiKey: harness.backend.apiKey))
        await tracker.track(eventName: "AFTER")
        #expect(await tracker.flush(timeout: .seconds(60)))
        #expect(harness.backend.server.requests.map(\.path) == ["/v2/tracking-session", "/v2/tracking-session-data"], "no double slash in any path")
        #expect(harness.log.all.contains { $0.hasPrefix("warning ") && $0.contains("apiUrl should not end with a slash: using \(url)") })
        await #expect(throws: TrackerError.invalidConfiguration(reason: "apiUrl is not a valid URL")) {
            try await harness.makeTracker().initialize(brandId: "925", config: TrackerConfig(apiUrl: "/", xApiKey: "k"))
        }
    }

    @Test func aSessionIsCreatedOnceAndRestoredAtLaunch() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = harness.makeTracker()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 { group.addTask { try await tracker.initialize(brandId: "925", config: harness.config) } }
            try await group.waitForAll()
        }
        try await tracker.initialize(brandId: "925", config: harness.config)
        #expect(harness.backend.sessions.count == 1, "concurrent calls wait for the one in progress")
        let session = try #require(await tracker.sessionID())
        let device = try #require(await tracker.deviceID())
        let created = try #require(harness.backend.received.first)
        #expect(created.json["device_id"] as? String == device && (created.json["brand_id"] as? NSNumber)?.intValue == 925)
        #expect(created.json["os_name"] as? String == "Linux" && created.json["device_type"] as? String == "Mobile")
        #expect(harness.backend.server.requests.first?.header("X-API-Key") == harness.backend.apiKey)

        // Dual storage: the prefix, both stores.
        let keys = Set(harness.primary.allKeys())
        #expect(keys == ["__GT_925_session_id", "__GT_925_device_id", "__GT_925_brand_id"])
        let files = try FileManager.default.contentsOfDirectory(atPath: harness.folder.appendingPathComponent("brand-925").path)
        #expect(Set(files).isSuperset(of: keys))

        let relaunched = harness.makeTracker()
        try await relaunched.initialize(brandId: "925", config: harness.config)
        let restoredSession = await relaunched.sessionID()
        let restoredDevice = await relaunched.deviceID()
        #expect(restoredSession == session && restoredDevice == device)
        #expect(harness.backend.sessions.count == 1, "restored, not created")

        // The primary store lost (UserDefaults wiped): the backup restores it and repairs the primary.
        let freshPrimary = InMemoryKeyValueStore()
        let repaired = harness.makeTracker(primary: freshPrimary)
        try await repaired.initialize(brandId: "925", config: harness.config)
        let repairedSession = await repaired.sessionID()
        let repairedDevice = await repaired.deviceID()
        #expect(repairedSession == session && repairedDevice == device)
        #expect(freshPrimary.string(forKey: "__GT_925_session_id") != nil, "the primary is repaired from the backup")
        #expect(harness.backend.sessions.count == 1)
    }

    @Test func anExpiredStoredSessionIsReplaced() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let first = try await harness.initialized()
        let old = await first.sessionID()
        // Both copies say the session expired an hour ago.
        let expired = #"{"value":"\#(old ?? "")","expires":\#(Date().timeIntervalSince1970 - 3600)}"#
        harness.primary.set(expired, forKey: "__GT_925_session_id")
        try Data(expired.utf8).write(to: harness.folder.appendingPathComponent("brand-925/__GT_925_session_id"))
        let relaunched = try await harness.initialized()
        let replaced = await relaunched.sessionID()
        #expect(replaced != old)
        #expect(harness.backend.sessions.count == 2)
    }

    @Test func aMalformedSessionResponseFailsAndTheNextCallRetries() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        harness.backend.fault.withLock { $0 = { request in request.path == "/v2/tracking-session" ? .json(200, #"{"data":{}}"#) : nil } }
        let clock = ManualClock()
        let tracker = harness.makeTracker(clock: clock)
        await #expect(throws: TrackerError.sessionCreationFailed(reason: "the response has no session id (data.id)")) {
            try await tracker.initialize(brandId: "925", config: harness.config)
        }
        await tracker.track(eventName: "OFFLINE_FIRST")
        #expect(await tracker.queueStatus().pending == 1, "kept while there is no session")
        harness.backend.fault.withLock { $0 = nil }
        await tracker.track(eventName: "TOO_SOON")
        #expect(harness.backend.sessions.isEmpty, "session creation is retried at most every 5 s")
        clock.advance(by: .seconds(5.1))
        await tracker.track(eventName: "SECOND")
        #expect(await tracker.flush(timeout: .seconds(60)))
        #expect(harness.backend.sessions.count == 1)
        #expect(harness.backend.events.map(\.eventName) == ["OFFLINE_FIRST", "TOO_SOON", "SECOND"])
    }
}
