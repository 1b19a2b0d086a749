import Foundation
import SecureNodeSDK

/// What the sample app's `application(_:didFinishLaunchingWithOptions:)`
/// does, in the order iOS requires, kept here so tests on Linux run it
/// against a double of `BGTaskScheduler` that keeps iOS's rules:
///
/// 1. synchronously, before launch ends: SecureNode's background refresh is
///    registered (iOS ends an app that registers a launch handler after
///    launch, or twice);
/// 2. then, in the background: MobileTracker's `initialize` and
///    SecureNode's configure, SDK and first sync.
///
/// A later `SecureNodeSDK` (the Managed Contacts switch makes one) never
/// registers again: registration is this one call.
@MainActor
public enum AppLaunch {
    /// Runs the launch; returns the background work it started (tests wait
    /// for it; the app does not).
    @discardableResult
    public static func didFinishLaunching(
        tracker: TrackerModel, secureNode: SecureNodeModel?, managedContacts: Bool,
        backgroundTasks: BackgroundRefreshScheduler? = .system
    ) -> Task<Void, Never> {
        // Before this function returns: the launch has not finished yet.
        if secureNode != nil { SecureNode.registerBackgroundRefresh(scheduler: backgroundTasks) }
        return Task {
            await tracker.launch()
            await secureNode?.launch(managedContacts: managedContacts)
        }
    }
}
