import BackendDoubles
import Foundation
import RuntimeSupport
import SampleAppModels
import SecureNodeSDK
import Testing

/// Permission answered by the test, counting the times it was asked.
final class AnsweredPermission: ContactsPermission {
    let granted: Bool
    private let asked = Locked(0)
    var timesAsked: Int { asked.read() }

    init(granted: Bool) { self.granted = granted }

    func request() async -> Bool {
        asked.withLock { $0 += 1 }
        return granted
    }
}

/// The iOS sample app's SecureNode screen (`SampleAppModels.SecureNodeModel`),
/// in this serialized suite because `SecureNode.configure(_:)` sets up the
/// process's one SDK: configure and the SDK at launch, a sync at launch,
/// and the Managed Contacts switch, which asks for permission first.
extension SecureNodeSDKTests {
    @Test @MainActor func theSampleAppsLaunchSyncsAndItsContactsSwitchAsksFirst() async throws {
        defer { cleanUp() }
        let configuration = SecureNode.Configuration(
            apiURL: URL(string: "https://edge.securenode.io")!, apiKey: "your-api-key-here", appGroupId: "group.com.sample.securenode")
        let refused = AnsweredPermission(granted: false)
        let contacts = InMemoryManagedContactStore()
        let screen = SecureNodeModel(configuration: configuration, permission: refused, contactsStore: contacts)
        await screen.launch()
        guard case .upToDate(_, .full, _) = screen.status else {
            Issue.record("the launch sync: \(screen.status) \(screen.message ?? "")")
            return
        }
        #expect(screen.sdk != nil && screen.message == nil)
        #expect(SecureNode.engine?.lookup(e164: "+61412345678", atRingTime: false)?.brandName == "Acme Bank")

        await screen.setManagedContacts(true)
        #expect(refused.timesAsked == 1 && !screen.managedContactsOn, "without permission the switch stays off")
        #expect(screen.message == "Allow access to Contacts in Settings to show brands in Contacts.")
        #expect(contacts.managedContacts().isEmpty)

        let allowed = AnsweredPermission(granted: true)
        let again = SecureNodeModel(configuration: configuration, permission: allowed, contactsStore: contacts)
        await again.setManagedContacts(true)
        #expect(allowed.timesAsked == 1 && again.managedContactsOn)
        #expect(contacts.managedContacts().map(\.displayName) == ["Acme Bank"], "one contact per brand after the sync")
        await again.setManagedContacts(false)
        #expect(contacts.managedContacts().isEmpty, "off: the SDK's contacts go")
    }
}
