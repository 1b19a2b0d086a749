import Foundation
import PlatformRules
import Resilience
import SecureNodeEngine
import Testing

/// What Instruments shows of SecureNode (through `OSSignposter` on a
/// device, a simulated signposter holding its rules here): the launch
/// flow's branding sync, its billing delivery and each request, named with
/// its operation's id, each interval begun and ended once.
@Suite struct SecureNodeIntervalsTests {
    @Test func aSyncIsAnIntervalWithItsRequestsAndItsBillingDelivery() async throws {
        let fake = try FakeSecureNode()
        let folder = try makeFolder("intervals")
        defer { try? FileManager.default.removeItem(at: folder) }
        fake.route("POST /api/mobile/device/register", .json(200, #"{"success":true,"device_id":"device-1"}"#))
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([FakeSecureNode.record("+61412345678", "Acme Bank")], syncedAt: "2024-01-02T08:15:00Z")))
        let signposter = SimulatedSignposter()
        var configuration = SecureNodeEngine.Configuration(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder,
            device: DeviceProfile(deviceID: "device-1", platform: .ios, sdkVersion: "1.0.0"), transport: FakeSecureNode.transport(), sendsHeartbeats: false)
            .with { $0.logoFetch = { _ in testLogo() } }
        configuration.connection.signposts = Signposts(subsystem: "OpenAPIMobileClients.SecureNode", sink: signposter)
        let sdk = try SecureNodeEngine(configuration)

        #expect(await sdk.sync().isUpToDate)
        let intervals = signposter.finished
        #expect(signposter.violations.isEmpty, "\(signposter.violations)")
        #expect(signposter.openIntervals.isEmpty, "every interval ended: \(signposter.openIntervals)")
        #expect(intervals.contains(.init(name: "branding sync", subsystem: "OpenAPIMobileClients.SecureNode", detail: "launch flow")))
        #expect(intervals.contains(.init(name: "billing delivery", subsystem: "OpenAPIMobileClients.SecureNode", detail: "after sync")))
        let requests = intervals.filter { $0.name == "request" }.map(\.detail)
        #expect(requests.contains("syncBranding") && requests.contains("registerDevice"), "each request named by its operation: \(requests)")
    }
}
