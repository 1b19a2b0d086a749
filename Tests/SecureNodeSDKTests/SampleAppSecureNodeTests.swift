import BackendDoubles
import Foundation
import PlatformRules
import RuntimeSupport
import SampleAppModels
import SecureNodeSDK
import Testing

/// The iOS sample app's SecureNode screen (`SampleAppModels.SecureNodeModel`),
/// in this serialized suite because `SecureNode.configure(_:)` sets up the
/// process's one SDK: configure and the SDK at launch, a sync at launch,
/// and the Managed Contacts switch, which asks for permission first.
extension SecureNodeSDKTests {
    @Test @MainActor func theSampleAppsLaunchSyncsAndItsContactsSwitchAsksFirst() async throws {
        defer { cleanUp() }
        let configuration = SecureNode.Configuration(
            apiURL: URL(string: "https://edge.securenode.io")!, apiKey: "your-api-key-here", appGroupId: "group.com.sample.securenode")
        // iOS's Contacts and its permission: the user will refuse when asked.
        let contacts = SimulatedContacts(authorization: .notDetermined, answer: .denied)
        let screen = SecureNodeModel(configuration: configuration, permission: contacts, contactsStore: contacts)
        await screen.launch()
        guard case .upToDate(_, .full, _) = screen.status else {
            Issue.record("the launch sync: \(screen.status) \(screen.message ?? "")")
            return
        }
        #expect(screen.sdk != nil && screen.message == nil)
        #expect(SecureNode.engine?.lookup(e164: "+61412345678", atRingTime: false)?.brandName == "Acme Bank")

        await screen.setManagedContacts(true)
        #expect(contacts.prompts == 1 && !screen.managedContactsOn, "without permission the switch stays off")
        #expect(screen.message == "Allow access to Contacts in Settings to show brands in Contacts.")
        #expect(contacts.contents.isEmpty)

        // iOS asks once: the user allows it in Settings, and the switch goes on without a prompt.
        contacts.setAuthorization(.authorized)
        let again = SecureNodeModel(configuration: configuration, permission: contacts, contactsStore: contacts)
        await again.setManagedContacts(true)
        #expect(contacts.prompts == 1 && again.managedContactsOn)
        #expect(contacts.contents.map(\.displayName) == ["Acme Bank"], "one contact per brand after the sync")
        await again.setManagedContacts(false)
        #expect(contacts.contents.isEmpty, "off: the SDK's contacts go (off the main thread)")
        #expect(contacts.violations.isEmpty)
    }
}
