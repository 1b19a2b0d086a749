import Foundation
import MobileTracker

/// MobileTracker as its reference asks an app to use it: `initialize` at
/// launch (automatic screen views start with it on iOS), an event tracked
/// from a button, and `identify` once the user signed in.
@MainActor
public final class TrackerModel: ScreenModel {
    /// The tracking session, once initialized.
    public private(set) var sessionID: String? { didSet { onChange?() } }
    /// Events waiting to be delivered.
    public private(set) var pendingEvents = 0 { didSet { onChange?() } }
    /// Why initialization failed, for the developer's eye.
    public private(set) var message: String? { didSet { onChange?() } }
    /// Called after every change of what the screen shows.
    public var onChange: (@MainActor () -> Void)?

    private let tracker: MobileTracker
    private let brandID: String
    private let config: TrackerConfig

    /// Tracking for brand `brandID` with `config` (its `apiUrl` and `xApiKey`).
    public init(tracker: MobileTracker, brandID: String, config: TrackerConfig) {
        self.tracker = tracker
        self.brandID = brandID
        self.config = config
    }

    /// At launch: restores or creates the session.
    public func launch() async {
        do {
            try await tracker.initialize(brandId: brandID, config: config)
            sessionID = await tracker.sessionID()
            message = nil
        } catch {
            message = "\(error)"
        }
        await refresh()
    }

    /// The button's event.
    public func buttonTapped(_ name: String) async {
        await tracker.track(eventName: "BUTTON_CLICK", attributes: ["button": name])
        await refresh()
    }

    /// After the user signed in (to SOUL or Safepocket): events carry `user_id` from now on.
    public func signedIn(userID: String) async {
        await tracker.identify(userId: userID)
        await refresh()
    }

    private func refresh() async {
        pendingEvents = await tracker.queueStatus().pending
    }
}
