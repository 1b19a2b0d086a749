import BackendDoubles
import Foundation
import MobileTracker
import PlatformRules
import SampleAppModels
import SecureNodeSDK
import Testing

/// The iOS sample app's launch (`SampleAppModels.AppLaunch`, what its app
/// delegate's `didFinishLaunching` runs) against a `BGTaskScheduler` that
/// keeps iOS's rules, with the identifiers its Info.plist permits: the
/// refresh is registered before launch ends, once, whatever the app does
/// after (the Managed Contacts switch makes a second `SecureNodeSDK`), and
/// a background wake syncs.
extension SecureNodeSDKTests {
    /// The sample app's Info.plist.
    static var sampleInfo: [String: Any] {
        get throws {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Examples/ios-app/Support/SampleApp-Info.plist")
            let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
            return try #require(plist as? [String: Any])
        }
    }

    @Test @MainActor func theSampleAppRegistersItsBackgroundRefreshBeforeLaunchEndsAndOnce() async throws {
        defer { cleanUp() }
        let permitted = try #require(try Self.sampleInfo["BGTaskSchedulerPermittedIdentifiers"] as? [String])
        let system = SimulatedBackgroundTasks(permitted: Set(permitted))
        let tracker = try TrackerBackend()
        let trackerModel = TrackerModel(
            tracker: MobileTracker(options: .init(folder: folder.appendingPathComponent("tracker"), connectivity: nil)), brandID: "925",
            config: TrackerConfig(apiUrl: tracker.baseURL.absoluteString, xApiKey: tracker.apiKey))
        let configuration = SecureNode.Configuration(
            apiURL: URL(string: "https://edge.securenode.io")!, apiKey: "your-api-key-here", appGroupId: "group.com.sample.securenode")
        let contacts = SimulatedContacts(authorization: .notDetermined)
        let secureNode = SecureNodeModel(configuration: configuration, permission: contacts, contactsStore: contacts)

        let started = AppLaunch.didFinishLaunching(tracker: trackerModel, secureNode: secureNode, managedContacts: false, backgroundTasks: system.scheduler)
        system.finishLaunching()
        await started.value
        #expect(system.registered == [SecureNodeSDK.backgroundRefreshTaskIdentifier])
        #expect(secureNode.status.isUpToDate, "\(secureNode.status)")
        #expect(trackerModel.sessionID != nil, "\(trackerModel.message ?? "")")

        // After launch, the switch makes a second SDK object: nothing is registered again.
        await secureNode.setManagedContacts(true)
        #expect(secureNode.managedContactsOn && contacts.prompts == 1, "the switch asked once")
        // A background wake runs the SDK configured last.
        #expect(await system.launch(SecureNodeSDK.backgroundRefreshTaskIdentifier) == true)
        #expect(system.violations.isEmpty, "\(system.violations)")
        #expect(contacts.violations.isEmpty, "\(contacts.violations)")
    }

    @Test @MainActor func theOldLaunchOrderIsWhatIOSWouldEndTheAppFor() async throws {
        defer { cleanUp() }
        let system = SimulatedBackgroundTasks(permitted: [SecureNodeSDK.backgroundRefreshTaskIdentifier])
        let configuration = SecureNode.Configuration(apiURL: URL(string: "https://edge.securenode.io")!, apiKey: "your-api-key-here")
        // The sample before: the SDK made (and the refresh registered) in a Task, after launch had ended,
        // then again by the Managed Contacts switch.
        system.finishLaunching()
        await withKnownIssue("registration after launch, then a second registration") {
            await Task {
                SecureNode.configure(configuration)
                // What the adapter did then: BGTaskScheduler.register at each SDK's init.
                _ = system.scheduler.register(SecureNodeSDK.backgroundRefreshTaskIdentifier, { _ in })
                _ = system.scheduler.register(SecureNodeSDK.backgroundRefreshTaskIdentifier, { _ in })
            }.value
        }
        #expect(system.violations.count == 2)
        #expect(system.violations.first?.contains("before application finishes launching") == true)
    }
}
