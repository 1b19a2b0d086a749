import ClientRuntimeTesting
import Foundation
import SecureNodeEngine
import Testing
import Waiting

/// An app that lets a `SecureNode` go (the sample's Managed Contacts switch
/// configures a new one) leaves nothing of it running: the object goes, and
/// so does its URLSession, which iOS keeps, with its delegate and
/// connections, until it is invalidated.
@Suite struct SecureNodeReleaseTests {
    @Test func aSecureNodeTheAppLetsGoInvalidatesItsSession() async throws {
        let fake = try FakeSecureNode()
        fake.acceptDevice()
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([
            ManagedContactsTests.record("+61412345678", "Acme Bank", brand: "brand_acme"),
        ], syncedAt: "2024-01-02T08:15:00Z")))
        let folder = try makeFolder("release")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = LogCapture()
        var secureNode: SecureNodeEngine? = try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder,
            device: DeviceProfile(deviceID: "device-release", platform: .ios, sdkVersion: "1.0.0"), sendsHeartbeats: false, logger: log.logger(label: "securenode"))
            .with { $0.logoFetch = { url in testLogo("logo \(url.lastPathComponent)") } })
        #expect(await secureNode?.sync().isUpToDate == true)
        weak let released = secureNode
        secureNode = nil
        try await waitUntil("the SDK object released") { released == nil }
        try await waitUntil("its URLSession invalidated") { log.all.contains { $0.contains("an SDK URLSession was invalidated") } }
    }
}
