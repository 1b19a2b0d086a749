import BackendDoubles
import Foundation
import PlatformRules
import RuntimeSupport
import SampleAppModels
import SecureNodeSDK
import Testing
import Waiting

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

    @Test @MainActor func theLastFlipOfTheContactsSwitchDecides() async throws {
        defer { cleanUp() }
        let configuration = SecureNode.Configuration(
            apiURL: URL(string: "https://edge.securenode.io")!, apiKey: "your-api-key-here", appGroupId: "group.com.sample.securenode")
        let contacts = SimulatedContacts(authorization: .authorized)
        let prompt = PendingPrompt()
        let screen = SecureNodeModel(configuration: configuration, permission: prompt, contactsStore: contacts)
        await screen.launch()
        // On: the prompt is up; the user turns the switch off again before answering it.
        let on = Task { await screen.setManagedContacts(true) }
        try await waitUntil("the prompt is up") { prompt.asked == 1 }
        await screen.setManagedContacts(false)
        prompt.answer(true)
        await on.value
        #expect(!screen.managedContactsOn, "off was the last flip")
        #expect(screen.sdk != nil)
        _ = await SecureNode.sync()
        #expect(contacts.contents.isEmpty, "no contact written once the switch went off")
        #expect(contacts.violations.isEmpty)
    }
}

/// A permission prompt the user has not answered yet: `request()` waits
/// until the test calls ``answer(_:)``.
final class PendingPrompt: ContactsPermission {
    private let state = Locked<(asked: Int, answer: Bool?, waiter: CheckedContinuation<Bool, Never>?)>((0, nil, nil))

    /// Times the app asked.
    var asked: Int { state.withLock { $0.asked } }

    func request() async -> Bool {
        await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> Bool? in
                state.asked += 1
                if let answer = state.answer { return answer }
                state.waiter = continuation
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// The user answers the prompt.
    func answer(_ granted: Bool) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.answer = granted
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: granted)
    }
}
