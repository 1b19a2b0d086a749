import BrandingStore
import CallDirectoryTesting
import Foundation
import SecureNodeEngine
import SecureNodeCallDirectory
import Testing

/// SecureNode's reload flow with the Call Directory extension's loads on a
/// phone that fails the test on any CallKit rule: a reload that succeeds
/// confirms the load, so the next one hands only the changes; a refused
/// reload makes the next one complete.
@Suite struct CallDirectoryExtensionTests {
    let fake: FakeSecureNode
    let folder: URL
    let sdk: SecureNodeEngine
    let phone = SimulatedCallDirectory()

    init() throws {
        fake = try FakeSecureNode()
        folder = try makeFolder("call-directory-extension")
        fake.acceptDevice()
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([
            FakeSecureNode.record("+61412345678", "Acme Bank"), FakeSecureNode.record("+1234567890", "Contoso Health"),
        ], syncedAt: "2024-01-02T08:15:00Z")))
        sdk = try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder,
            device: DeviceProfile(deviceID: "device-1", platform: .ios, sdkVersion: "1.0.0"), transport: FakeSecureNode.transport(), sendsHeartbeats: false)
            .with { $0.logoFetch = { _ in testLogo() } })
    }

    struct ReloadRefused: Error {}

    /// The host's reload: iOS runs the extension on the SDK's folder; the reload throws when iOS did not keep the request.
    func reload(at now: Date, ending: SimulatedCallDirectory.Ending = .accepted) throws -> CallDirectoryLoadReport? {
        var report: CallDirectoryLoadReport?
        _ = try sdk.reloadCallDirectoryIfNeeded(now: now) {
            report = phone.load(from: sdk.callDirectory.folder, ending: ending)
            if ending != .accepted || report?.error != nil { throw ReloadRefused() }
        }
        return report
    }

    /// What the phone should hold: the store's numbers and names.
    func dataset() throws -> [CallDirectoryPhoneNumber: String] {
        var entries: [CallDirectoryPhoneNumber: String] = [:]
        try sdk.store.forEachNumber { entries[$0] = $1 }
        return entries
    }

    @Test func aConfirmedReloadIsFollowedByLoadsOfTheChangesOnly() async throws {
        _ = await sdk.sync()
        let start = Date()
        #expect(try reload(at: start)?.mode == .complete)
        #expect(phone.entries == [61_412_345_678: "Acme Bank", 1_234_567_890: "Contoso Health"])

        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([
            FakeSecureNode.record("+1234567890", "Contoso Health", active: false), FakeSecureNode.record("+447700900123", "Northwind"),
        ], syncedAt: "2024-01-03T00:00:00Z")))
        _ = await sdk.sync()
        let report = try #require(try reload(at: start.addingTimeInterval(16 * 60)))
        #expect(report.mode == .incremental && report.removed == 1 && report.added == 1)
        #expect(phone.entries == (try dataset()))
        #expect(phone.entries == [61_412_345_678: "Acme Bank", 447_700_900_123: "Northwind"])
    }

    @Test func aRefusedReloadIsFollowedByACompleteLoad() async throws {
        _ = await sdk.sync()
        let start = Date()
        _ = try reload(at: start)
        let loaded = try Data(contentsOf: sdk.callDirectory.current)
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([FakeSecureNode.record("+447700900123", "Northwind")],
            syncedAt: "2024-01-03T00:00:00Z")))
        _ = await sdk.sync()
        #expect(throws: ReloadRefused.self) { try reload(at: start.addingTimeInterval(16 * 60), ending: .failed) }
        #expect(try Data(contentsOf: sdk.callDirectory.current) == loaded, "the extension serves what iOS loaded")
        #expect(phone.entries == [61_412_345_678: "Acme Bank", 1_234_567_890: "Contoso Health"], "iOS discarded the refused request")

        // The next reload exports again and hands the complete list: iOS's state after a refusal is not known.
        let report = try #require(try reload(at: start.addingTimeInterval(17 * 60)))
        #expect(report.mode == .reset && report.added == 3)
        #expect(phone.entries == (try dataset()))
        // And the one after it, confirmed, hands only the changes again.
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([FakeSecureNode.record("+447700900123", "Northwind Bank")],
            syncedAt: "2024-01-04T00:00:00Z")))
        _ = await sdk.sync()
        #expect(try reload(at: start.addingTimeInterval(40 * 60))?.mode == .incremental)
        #expect(phone.entries == (try dataset()))
    }
}
