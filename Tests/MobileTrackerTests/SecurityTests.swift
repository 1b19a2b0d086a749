import BackendDoubles
import Foundation
import LoopbackHTTPServer
import MobileTracker
import ProcessTestSupport
import Resilience
import RuntimeSupport
import SDKCore
import Testing
import Waiting

/// The tracker's connections are verified as every SDK's are: an
/// interception is told apart from a dead network, and the API key follows
/// no redirect to another host.
@Suite struct TrackerSecurityTests {
    @Test func anInterceptedConnectionIsTypedAndToldApartFromTheNetwork() async throws {
        let tls = try UntrustedTLSServer()
        defer { tls.stop() }
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = harness.makeTracker()
        var thrown: TrackerError?
        do {
            try await tracker.initialize(brandId: "925", config: TrackerConfig(apiUrl: tls.url.absoluteString, xApiKey: harness.backend.apiKey))
        } catch { thrown = error }
        let error = try #require(thrown)
        // The reference's five cases stay as they are; the refusal is typed underneath.
        #expect(error.kind == "networkError")
        let refusal = try #require(error.connectionRefusal, "\(error)")
        #expect(refusal.reason == .systemRefused)
        #expect(error.description == "the secure connection could not be verified (127.0.0.1: the system does not trust its certificate, or the TLS handshake failed)")
        #expect(TrackerError.networkError(underlying: URLError(.notConnectedToInternet)).connectionRefusal == nil)
    }

    @Test func theAPIKeyFollowsNoRedirectToAnotherHost() async throws {
        let elsewhere = try LoopbackHTTPServer { _ in .json(201, #"{"data":{"id":"stolen"}}"#) }
        defer { elsewhere.shutdown() }
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let target = elsewhere.baseURL.absoluteString
        harness.backend.fault.withLock { $0 = { request in .respond(status: 307, headers: [("Location", target + request.target)], body: "") } }
        let tracker = harness.makeTracker()
        var thrown: TrackerError?
        do { try await tracker.initialize(brandId: "925", config: harness.config) } catch { thrown = error }
        #expect(thrown?.connectionRefusal?.reason == .redirectRefused, "\(String(describing: thrown))")
        #expect(elsewhere.requests.isEmpty, "no X-API-Key reached the other host")
    }

    @Test func itsFilesAreReadableInTheBackgroundAndOutOfBackups() async throws {
        #if !canImport(Darwin)
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        await tracker.track(eventName: "BUTTON_CLICK", attributes: ["button": "buy"])
        _ = await tracker.flush(timeout: .seconds(30))
        let wrong = DataAtRest.files(in: harness.folder, notProtectedAs: .background)
        #expect(wrong.isEmpty, "\(wrong)")
        #endif
    }

    @Test func aDeliveredEventsValuesAreErasedFromTheFiles() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        let marker = "user-\(UUID().uuidString.prefix(8))@example.com"
        /// The files under the tracker's folder that hold `text`.
        func filesHold(_ text: String) throws -> [String] {
            let needle = Data(text.utf8)
            var holding: [String] = []
            for case let url as URL in FileManager.default.enumerator(at: harness.folder, includingPropertiesForKeys: nil) ?? .init() {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                if try Data(contentsOf: url).range(of: needle) != nil { holding.append(url.lastPathComponent) }
            }
            return holding
        }
        // Refused (503, kept for later) while they are recorded: the values
        // are in the queue's files.
        let refusing = Locked(true)
        harness.backend.fault.withLock { fault in
            fault = { request in
                request.path.hasSuffix("/tracking-session-data") && refusing.read() ? .json(503, #"{"success":false,"message":"busy"}"#) : nil
            }
        }
        for index in 0..<50 { await tracker.track(eventName: "SIGNED_UP", attributes: ["email": marker, "index": index]) }
        try await waitUntil("the values to be in the queue's files") { try !filesHold(marker).isEmpty }
        refusing.withLock { $0 = false }
        #expect(await tracker.flush(timeout: .seconds(60)))
        #expect(harness.backend.events.count == 50, "delivered")
        // Deleted rows are zeroed in the database (secure_delete); the
        // write-ahead log keeps the pages they were written in until it is
        // truncated.
        try await waitUntil("the delivered event's values to be erased from every file") { try filesHold(marker).isEmpty }
    }

    @Test func aHostWithoutPinsIsWarnedAboutWhateverDebugSays() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        // Production, `debug` off: the reference's switch for the tracker's
        // own output; a warning about the connection is not debug output.
        let config = TrackerConfig(debug: false, apiUrl: "https://api.mobiletracker.example", xApiKey: "test-key")
        // The session cannot be created there; the warning comes before.
        try? await harness.makeTracker().initialize(brandId: "925", config: config)
        #expect(ConnectionConfiguration.hasWarnedUnpinned(sdk: "MobileTracker"))
    }

    /// The Darwin primary store (`UserDefaults`, in every device backup),
    /// recording what is written to it.
    final class RecordingPrimaryStore: TrackerKeyValueStore {
        let store = InMemoryKeyValueStore()
        let written = Locked<[(key: String, value: String)]>([])
        func string(forKey key: String) -> String? { store.string(forKey: key) }
        func set(_ value: String, forKey key: String) {
            written.withLock { $0.append((key, value)) }
            store.set(value, forKey: key)
        }
        func remove(forKey key: String) { store.remove(forKey: key) }
        func allKeys() -> [String] { store.allKeys() }
    }

    @Test func nothingPersonalGoesToTheBackedUpPrimaryStore() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let primary = RecordingPrimaryStore()
        // What an earlier version left there: moved to the protected file, gone from the primary.
        primary.store.set(#"{"value":"old-user@example.com","expires":9999999999}"#, forKey: "__GT_925_session_email")
        let recording = MobileTracker(options: .init(
            folder: harness.folder, primaryStore: primary, connectivity: nil, logger: harness.log.logger(label: "tracker")))
        try await recording.initialize(brandId: "925", config: harness.config)
        #expect(primary.store.string(forKey: "__GT_925_session_email") == nil, "an earlier version's email left the primary store")
        await recording.identify(userId: "user-4711", profileData: ["email": "ada@example.com", "name": "Ada"])
        await recording.setMetadata(["plan": "pro", "city": "Lisbon"])
        #expect(await recording.flush(timeout: .seconds(60)))
        // A relaunch still has them, from the protected files.
        let relaunched = MobileTracker(options: .init(
            folder: harness.folder, primaryStore: primary, connectivity: nil, logger: harness.log.logger(label: "tracker")))
        try await relaunched.initialize(brandId: "925", config: harness.config)
        let keys = Set(primary.written.read().map(\.key))
        #expect(keys.isSubset(of: ["__GT_925_session_id", "__GT_925_device_id", "__GT_925_brand_id"]), "\(keys.sorted())")
        for personal in ["ada@example.com", "user-4711", "Lisbon", "old-user@example.com"] {
            #expect(!primary.written.read().contains { $0.value.contains(personal) }, "\(personal) was written to the primary store")
            #expect(!primary.store.allKeys().contains { primary.store.string(forKey: $0)?.contains(personal) == true })
        }
        #expect(!primary.written.read().isEmpty, "the session id is kept where the reference puts it")
    }
}
