import Foundation
import PlatformRules
import SecureNodeEngine
import Testing

/// Managed Contacts held to iOS's Contacts rules (``SimulatedContacts``
/// records every call without full access, on the main thread, or to a
/// contact not the SDK's), and to what a user does in the Contacts app
/// between two syncs.
@Suite struct ContactsRulesTests {
    let plan = ManagedContactsTests()

    /// A sync serving Acme Bank (two numbers) and Northwind.
    func serveTwoBrands(_ fake: FakeSecureNode) {
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([
            ManagedContactsTests.record("+61412345678", "Acme Bank", brand: "brand_acme"),
            ManagedContactsTests.record("+61412345679", "Acme Bank", brand: "brand_acme"),
            ManagedContactsTests.record("+447700900123", "Northwind", brand: "brand_nw"),
        ], syncedAt: "2024-01-02T08:15:00Z")))
    }

    @Test(arguments: [SimulatedContacts.Authorization.notDetermined, .denied, .restricted, .limited])
    func withoutFullAccessTheSDKNeitherReadsNorWritesNorAsks(_ authorization: SimulatedContacts.Authorization) async throws {
        let fake = try FakeSecureNode()
        fake.acceptDevice()
        serveTwoBrands(fake)
        let folder = try makeFolder("contacts-rules-\(authorization)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let contacts = SimulatedContacts(authorization: authorization)
        let sdk = try plan.launch(fake, folder: folder, contacts: contacts)
        let status = await sdk.sync()
        #expect(status.isUpToDate, "branding works without Contacts: \(status)")
        #expect(sdk.syncManagedContacts().notAuthorized)
        #expect(contacts.violations.isEmpty && contacts.prompts == 0 && contacts.contents.isEmpty)

        // The user gives full access in Settings: the next sync adds the brands.
        contacts.setAuthorization(.authorized)
        #expect(sdk.syncManagedContacts().added == 2)
        #expect(contacts.contents.map(\.displayName) == ["Acme Bank", "Northwind"])
    }

    @Test func whatTheUserDeletesOrRenamesInContactsIsPutRightAtTheNextSync() async throws {
        let fake = try FakeSecureNode()
        fake.acceptDevice()
        serveTwoBrands(fake)
        let folder = try makeFolder("contacts-user")
        defer { try? FileManager.default.removeItem(at: folder) }
        let contacts = SimulatedContacts(authorization: .authorized)
        let sdk = try plan.launch(fake, folder: folder, contacts: contacts)
        #expect(await sdk.sync().isUpToDate)
        #expect(contacts.contents.map(\.displayName) == ["Acme Bank", "Northwind"])

        contacts.userDeletesContact(brandKey: "brand_nw")
        contacts.userRenamesContact(brandKey: "brand_acme", to: "Mum")
        var report = sdk.syncManagedContacts()
        #expect(report.added == 1 && report.updated == 1 && report.failures == 0, "\(report)")
        #expect(contacts.contents.map(\.displayName) == ["Acme Bank", "Northwind"])

        contacts.userDeletesGroup()
        report = sdk.syncManagedContacts()
        #expect(report.added == 2 && report.failures == 0, "\(report)")

        // The user deletes a contact while the SDK is about to change it: iOS
        // refuses the save (record does not exist), the SDK counts a failure
        // and the next sync adds the brand again.
        contacts.userRenamesContact(brandKey: "brand_acme", to: "Renamed")
        contacts.beforeNextWrite { $0.userDeletesContact(brandKey: "brand_acme") }
        report = sdk.syncManagedContacts()
        #expect(report.failures == 1 && report.updated == 0, "\(report)")
        report = sdk.syncManagedContacts()
        #expect(report.added == 1 && report.failures == 0, "\(report)")
        #expect(contacts.contents.map(\.displayName) == ["Acme Bank", "Northwind"])
        #expect(contacts.violations.isEmpty)
    }

    @Test func accessWithdrawnInSettingsStopsEveryCallAndRemovesNothing() async throws {
        let fake = try FakeSecureNode()
        fake.acceptDevice()
        serveTwoBrands(fake)
        let folder = try makeFolder("contacts-withdrawn")
        defer { try? FileManager.default.removeItem(at: folder) }
        let contacts = SimulatedContacts(authorization: .authorized)
        let sdk = try plan.launch(fake, folder: folder, contacts: contacts)
        #expect(await sdk.sync().isUpToDate)
        let writes = contacts.writes
        contacts.setAuthorization(.denied)
        // Branding turned off would remove the contacts; without access the SDK leaves them.
        fake.route("GET /api/mobile/branding/sync", .json(401, #"{"error":"unauthorized"}"#))
        _ = await sdk.sync()
        #expect(contacts.writes == writes && contacts.violations.isEmpty)
        #expect(sdk.syncManagedContacts().notAuthorized)
    }
}
