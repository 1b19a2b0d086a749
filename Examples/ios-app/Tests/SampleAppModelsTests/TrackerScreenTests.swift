import BackendDoubles
import Foundation
import SampleAppModels
import Testing
import Waiting

@testable import MobileTracker

/// Stands in for the hosting controller SwiftUI gives a tab: its root view is type-erased.
final class UIHostingController<Content> {}

/// MobileTracker in the sample app: initialized at launch, an event from a
/// button, `identify` after sign-in.
@Suite @MainActor struct TrackerScreenTests {
    @Test func initializeAtLaunchThenAButtonsEventAndIdentifyAfterSignIn() async throws {
        let backend = try TrackerBackend()
        let folder = try makeFolder("tracker-screen")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tracker = MobileTracker(options: .init(folder: folder, primaryStore: InMemoryKeyValueStore(), transport: RedirectingTransport(to: backend.baseURL), connectivity: nil))
        let screen = TrackerModel(
            tracker: tracker, brandID: "925", config: TrackerConfig(apiUrl: "https://tracker.sample.example", xApiKey: backend.apiKey))
        await screen.launch()
        #expect(screen.sessionID != nil && screen.message == nil, "\(screen.message ?? "")")
        await screen.buttonTapped("signup")
        await screen.signedIn(userID: "user-42")
        await screen.buttonTapped("checkout")
        #expect(await tracker.flush(timeout: .seconds(60)))
        let clicks = backend.events.filter { $0.eventName == "BUTTON_CLICK" }
        #expect(clicks.count == 2)
        #expect((clicks.last?.json["data"] as? [String: Any])?["user_id"] as? String == "user-42", "events after identify carry the user")
        #expect((clicks.first?.json["data"] as? [String: Any])?["user_id"] == nil, "not before")
    }

    @Test func theTabsAreTrackedByTheirTitlesWithNoCallOfTheApps() async throws {
        let backend = try TrackerBackend()
        let folder = try makeFolder("tracker-tabs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tracker = MobileTracker(options: .init(folder: folder, primaryStore: InMemoryKeyValueStore(), transport: RedirectingTransport(to: backend.baseURL), connectivity: nil))
        let screen = TrackerModel(
            tracker: tracker, brandID: "925", config: TrackerConfig(apiUrl: "https://tracker.sample.example", xApiKey: backend.apiKey))
        await screen.launch()
        // What the UIKit hook reports when the user goes through the tabs and opens a transaction:
        // each a hosting controller with a type-erased root and the navigation title the sample sets.
        var hooks: [@MainActor (AnyObject, String?) -> Void] = []
        let hub = AutomaticScreenTracking()
        hub.install(for: tracker) { hooks.append($0) }
        let appeared = try #require(hooks.first)
        for title in SampleScreens.tabs + [SampleScreens.transaction] { appeared(UIHostingController<Any>(), title) }
        let expected = SampleScreens.tabs + [SampleScreens.transaction]
        func views() -> [String] {
            backend.events.filter { $0.eventName == "VIEW_PAGE" }.compactMap { ($0.json["data"] as? [String: Any])?["screen"] as? String }
        }
        try await waitUntil("the screen views to arrive") {
            _ = await tracker.flush(timeout: .seconds(1))
            return views().count >= expected.count
        }
        #expect(views() == expected, "each tab one VIEW_PAGE, named by its title; the transaction sheet by its fixed title, never a merchant")
    }
}
