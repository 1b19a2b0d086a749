import BackendDoubles
import Foundation
import LoopbackHTTPServer
import MobileTracker
import ProcessTestSupport
import Resilience
import Testing

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
}
