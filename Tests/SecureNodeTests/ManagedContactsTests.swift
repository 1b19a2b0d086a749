import BrandingStore
import Foundation
import LoopbackHTTPServer
import SecureNodeEngine
import Testing

/// The README's optional Managed Contacts sync: which contacts the SDK
/// adds, changes and removes (the decision logic, tested here over the
/// in-memory store; the Contacts-framework store is an Apple adapter).
@Suite struct ManagedContactsTests {
    @Test func thePlanAddsChangesAndRemovesByBrandAndLeavesTheRest() {
        let existing = [
            ManagedContact(identifier: "c1", brandKey: "brand_acme", displayName: "Acme Bank", phoneNumbers: ["+61412345678"], photo: Data([1])),
            ManagedContact(identifier: "c2", brandKey: "brand_old", displayName: "Gone Ltd", phoneNumbers: ["+61400000000"]),
            ManagedContact(identifier: "c3", brandKey: "brand_same", displayName: "Same", phoneNumbers: ["+61411111111"]),
            ManagedContact(identifier: "c4", brandKey: "brand_same", displayName: "Same", phoneNumbers: ["+61411111111"]),
        ]
        let desired = [
            ManagedContact(brandKey: "brand_acme", displayName: "Acme Bank", phoneNumbers: ["+61412345678", "+61412345679"], photo: Data([1])),
            ManagedContact(brandKey: "brand_new", displayName: "Northwind", phoneNumbers: ["+447700900123"]),
            ManagedContact(brandKey: "brand_same", displayName: "Same", phoneNumbers: ["+61411111111"]),
        ]
        let plan = ManagedContactsPlan.plan(desired: desired, existing: existing)
        #expect(plan.additions.map(\.brandKey) == ["brand_new"])
        #expect(plan.updates.map(\.identifier) == ["c1"] && plan.updates.first?.phoneNumbers.count == 2, "a new number changes Acme's contact")
        #expect(plan.removals == ["c2", "c4"], "a brand gone, and a second contact of one brand")
        #expect(plan.unchanged == 1)
    }

    @Test func oneContactPerBrandWithItsNumbersAndLogoWithinTheBound() {
        let records = [
            StoredBrandingRecord(e164: "+61412345679", brandName: "Acme Bank", brandID: "brand_acme", logoURL: "https://assets.securenode.io/a.png", updatedAt: ""),
            StoredBrandingRecord(e164: "+61412345678", brandName: "Acme Bank", brandID: "brand_acme", updatedAt: ""),
            StoredBrandingRecord(e164: "+447700900123", brandName: "Northwind", brandID: "", updatedAt: ""),
            StoredBrandingRecord(e164: "+14155550100", brandName: "Zeta", brandID: "brand_zeta", updatedAt: ""),
        ]
        let (contacts, leftOut) = ManagedContactsPlan.desiredContacts(from: records, maximumNumbers: 3) { url in Data(url.utf8) }
        #expect(contacts.map(\.brandKey) == ["Northwind", "brand_acme"], "brand id, or the name without one; in key order")
        #expect(contacts.last?.phoneNumbers == ["+61412345678", "+61412345679"])
        #expect(contacts.last?.photo == Data("https://assets.securenode.io/a.png".utf8), "the brand's logo as the photo")
        #expect(leftOut == 1, "Zeta's number past the bound of 3")
    }

    /// An SDK over `fake` with managed contacts in `contacts`.
    func launch(_ fake: FakeSecureNode, folder: URL, contacts: (any ManagedContactStore)?) throws -> SecureNodeEngine {
        try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder,
            device: DeviceProfile(deviceID: "device-contacts", platform: .ios, sdkVersion: "1.0.0"), transport: FakeSecureNode.transport(), sendsHeartbeats: false, managedContacts: contacts)
            .with { $0.logoFetch = { url in testLogo("logo \(url.lastPathComponent)") } })
    }

    static func record(_ e164: String, _ name: String, brand: String, logo: String? = nil) -> String {
        FakeSecureNode.record(e164, name)
            .replacingOccurrences(of: #""brand_id":"brand_1""#, with: #""brand_id":"\#(brand)""#)
            .replacingOccurrences(of: #""logo_url":null"#, with: logo.map { #""logo_url":"https://assets.securenode.io/logos/\#($0)""# } ?? #""logo_url":null"#)
    }

    @Test func contactsFollowTheDatasetAndBrandingAndNeverTouchAnotherContact() async throws {
        let fake = try FakeSecureNode()
        fake.acceptDevice()
        let folder = try makeFolder("contacts")
        defer { try? FileManager.default.removeItem(at: folder) }
        let contacts = InMemoryManagedContactStore(othersContacts: ["user-1": "Mum", "user-2": "Dentist"])
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([
            Self.record("+61412345678", "Acme Bank", brand: "brand_acme", logo: "acme.png"),
            Self.record("+61412345679", "Acme Bank", brand: "brand_acme", logo: "acme.png"),
            Self.record("+447700900123", "Northwind", brand: "brand_nw"),
        ], syncedAt: "2024-01-02T08:15:00Z")))
        let sdk = try launch(fake, folder: folder, contacts: contacts)
        _ = await sdk.sync()
        var managed = contacts.managedContacts()
        #expect(managed.map(\.displayName) == ["Acme Bank", "Northwind"])
        #expect(managed.first?.phoneNumbers == ["+61412345678", "+61412345679"])
        #expect(managed.first?.photo == testLogo("logo acme.png"), "the logo, fetched after the sync, as the photo")

        // Northwind is purged, Acme loses a number: one removal, one update.
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([
            Self.record("+61412345679", "Acme Bank", brand: "brand_acme", logo: "acme.png").replacingOccurrences(of: #""is_active":true"#, with: #""is_active":false"#),
            Self.record("+447700900123", "Northwind", brand: "brand_nw").replacingOccurrences(of: #""is_active":true"#, with: #""is_active":false"#),
        ], syncedAt: "2024-01-03T08:15:00Z")))
        let writesBefore = contacts.writes
        _ = await sdk.sync()
        managed = contacts.managedContacts()
        #expect(managed.map(\.phoneNumbers) == [["+61412345678"]])
        #expect(contacts.writes - writesBefore == 2)
        #expect(sdk.syncManagedContacts() == { var unchanged = ManagedContactsReport(); unchanged.unchanged = 1; return unchanged }(),
            "nothing to do when nothing changed")

        // The key is refused: branding is off, and so are its contacts.
        fake.route("GET /api/mobile/branding/sync", .json(401, #"{"error":"unauthorized"}"#))
        _ = await sdk.sync()
        #expect(contacts.managedContacts().isEmpty)
        #expect(contacts.othersContacts == ["user-1": "Mum", "user-2": "Dentist"], "the user's own contacts were never touched")
    }

    @Test func withoutPermissionOrConfigurationNothingHappens() async throws {
        let fake = try FakeSecureNode()
        fake.acceptDevice()
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([
            Self.record("+61412345678", "Acme Bank", brand: "brand_acme"),
        ], syncedAt: "2024-01-02T08:15:00Z")))
        let folder = try makeFolder("contacts-off")
        defer { try? FileManager.default.removeItem(at: folder) }
        let denied = InMemoryManagedContactStore(authorized: false)
        let sdk = try launch(fake, folder: folder, contacts: denied)
        _ = await sdk.sync()
        #expect(denied.managedContacts().isEmpty && denied.writes == 0)
        #expect(sdk.syncManagedContacts().notAuthorized)
        denied.setAuthorized(true)
        #expect(sdk.syncManagedContacts().added == 1, "once allowed, the next sync adds them")

        let plainFolder = try makeFolder("contacts-none")
        defer { try? FileManager.default.removeItem(at: plainFolder) }
        let unconfigured = try launch(fake, folder: plainFolder, contacts: nil)
        _ = await unconfigured.sync()
        #expect(unconfigured.syncManagedContacts() == ManagedContactsReport(), "off by default")
    }
}
