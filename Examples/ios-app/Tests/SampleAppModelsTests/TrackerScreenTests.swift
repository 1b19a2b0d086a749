import BackendDoubles
import Foundation
import MobileTracker
import SampleAppModels
import Testing

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
}
