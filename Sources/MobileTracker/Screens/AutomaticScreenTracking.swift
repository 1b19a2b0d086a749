/// A view controller that names its own screen for automatic tracking, or
/// opts out of it by returning nil.
public protocol TrackedScreen {
    /// The `screen` value of this controller's `VIEW_PAGE` events; nil: not tracked.
    var trackedScreenName: String? { get }
}

/// Automatic `VIEW_PAGE` events, as the document describes: a platform
/// hook (on UIKit `ViewAppearanceHook`, which skips container
/// controllers) reports each view controller that appeared, with its
/// navigation title; its name comes from ``TrackedScreen`` or else
/// ``ScreenNaming`` (SwiftUI's hosting controllers by their root view or
/// their navigation title), and goes to every tracker that asked for
/// automatic tracking. The screen already showing when a tracker
/// installs is its initial page view ("Initial page view tracked on
/// initialization"). Each tracker takes its screens from one stream, in the
/// order they appeared, and ``MobileTracker/screen(name:properties:)``
/// drops a repeat of the last one. The UIKit hook feeds ``shared``; tests
/// make hubs of their own, so their screens reach their trackers alone.
@MainActor
final class AutomaticScreenTracking {
    /// The process's hub, which the UIKit hook feeds.
    static let shared = AutomaticScreenTracking()

    /// A tracker that asked for automatic tracking, and where its screens go.
    private struct Subscriber {
        weak var tracker: MobileTracker?
        let screens: AsyncStream<String>.Continuation
        /// Whether a navigation title may name a screen (``MobileTracker/Options/namesScreensByNavigationTitle``).
        let usesTitles: Bool
    }
    private var subscribers: [ObjectIdentifier: Subscriber] = [:]

    /// Starts automatic screen tracking for `tracker` (once per tracker);
    /// `hook` is handed the function to call with each controller that
    /// appeared and its navigation title; `visible` says which screen shows
    /// now, tracked at once as the initial page view.
    func install(
        for tracker: MobileTracker, usesTitles: Bool = true, hook: @MainActor (@escaping @MainActor (AnyObject, String?) -> Void) -> Void,
        visible: @MainActor () -> (controller: AnyObject, title: String?)? = { nil }
    ) {
        let key = ObjectIdentifier(tracker)
        // A subscriber whose tracker is gone does not count: another tracker may have its address now.
        guard subscribers[key]?.tracker == nil else { return }
        let (names, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        subscribers[key] = Subscriber(tracker: tracker, screens: continuation, usesTitles: usesTitles)
        Task.detached { [weak tracker] in
            for await name in names {
                guard let tracker else { return }
                await tracker.screen(name: name)
            }
        }
        hook(didAppear)
        // The initial page view: what already shows, for this tracker alone.
        if let shown = visible(), let name = Self.screenName(of: shown.controller, title: usesTitles ? shown.title : nil) { continuation.yield(name) }
    }

    /// The screen name of `controller` (with its navigation title), nil when it is not tracked.
    static func screenName(of controller: AnyObject, title: String? = nil) -> String? {
        if let named = controller as? any TrackedScreen { return named.trackedScreenName }
        return ScreenNaming.automaticName(typeName: String(reflecting: type(of: controller)), title: title)
    }

    /// Reports an appearing controller, with its navigation title, to every installed tracker.
    func didAppear(_ controller: AnyObject, title: String?) {
        subscribers = subscribers.filter { $0.value.tracker != nil }
        for subscriber in subscribers.values {
            if let name = Self.screenName(of: controller, title: subscriber.usesTitles ? title : nil) { subscriber.screens.yield(name) }
        }
    }
}
