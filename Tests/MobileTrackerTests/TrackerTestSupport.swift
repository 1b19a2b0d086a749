import BackendDoubles
import ClientRuntimeTesting
import Foundation
import Logging
import LoopbackHTTPServer
import MobileTracker
import Resilience
import RuntimeSupport

/// A tracker over a ``TrackerBackend``, its files in a fresh folder; a new
/// ``makeTracker()`` is a new app launch over the same files and primary store.
struct TrackerHarness {
    let backend: TrackerBackend
    let folder: URL
    let primary: InMemoryKeyValueStore
    let log = LogCapture()

    init(keepAlive: Bool = true, sessionIDStyle: TrackerBackend.SessionIDStyle = .uuid) throws {
        backend = try TrackerBackend(keepAlive: keepAlive, sessionIDStyle: sessionIDStyle)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tracker-\(UUID().uuidString)")
        primary = InMemoryKeyValueStore()
    }

    var config: TrackerConfig { config(debug: true) }

    /// The configuration; `debug: false` keeps request logging out of a
    /// test that sends a hundred thousand requests.
    func config(debug: Bool) -> TrackerConfig {
        TrackerConfig(debug: debug, apiUrl: backend.baseURL.absoluteString, xApiKey: backend.apiKey)
    }

    /// A tracker over the harness's files; `logLevel` below `.trace` leaves
    /// out the per-request lines a test of logging needs and a stress test
    /// does not.
    func makeTracker(
        primary: InMemoryKeyValueStore? = nil, connectivity: Connectivity? = nil, maximumQueuedItems: Int = 10_000, logLevel: Logger.Level = .trace,
        initializationTimeout: Duration = .seconds(30), timeouts: TransportTimeouts = TransportTimeouts(), clock: ManualClock? = nil
    ) -> MobileTracker {
        var options = MobileTracker.Options(
            folder: folder, primaryStore: primary ?? self.primary, connectivity: connectivity, logger: log.logger(label: "tracker", level: logLevel),
            maximumQueuedItems: maximumQueuedItems, initializationTimeout: initializationTimeout, timeouts: timeouts)
        if let clock { options.connection.clock = clock.sdkClock }
        return MobileTracker(options: options)
    }

    func initialized() async throws -> MobileTracker {
        let tracker = makeTracker()
        try await tracker.initialize(brandId: "925", config: config)
        return tracker
    }

    func cleanUp() { try? FileManager.default.removeItem(at: folder) }

    /// The tracker's protected file for the stored value `key` of brand 925
    /// (what identifies a person is kept there only, never in the primary store).
    func storedFile(_ key: String) -> String? {
        (try? Data(contentsOf: folder.appendingPathComponent("brand-925").appendingPathComponent("__GT_925_" + key)))
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// Answers requests by event name and attempt (1 for the first request
    /// naming it) with `reply`, or lets the backend behave when it returns
    /// nil; returns the attempts per event name.
    func answerByEvent(_ reply: @escaping @Sendable (String, Int) -> LoopbackHTTPServer.Reply?) -> Locked<[String: Int]> {
        let attempts = Locked([String: Int]())
        backend.fault.withLock { $0 = { request in
            let name = (JSONText.object(request.body)?["event_name"] as? String) ?? ""
            let attempt = attempts.withLock { $0[name, default: 0] += 1; return $0[name]! }
            return reply(name, attempt)
        } }
        return attempts
    }
}
