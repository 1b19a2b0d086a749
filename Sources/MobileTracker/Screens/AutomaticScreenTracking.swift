/// A view controller that names its own screen for automatic tracking, or
/// opts out of it by returning nil.
public protocol TrackedScreen {
    /// The `screen` value of this controller's `VIEW_PAGE` events; nil: not tracked.
    var trackedScreenName: String? { get }
}

/// Automatic `VIEW_PAGE` events, as the document describes: a platform
/// hook (on UIKit `ViewAppearanceHook`, which skips container
/// controllers) reports each view controller that appeared; its name comes
/// from ``TrackedScreen`` or else ``ScreenNaming``, and goes to every
/// tracker that asked for automatic tracking. Each tracker takes its
/// screens from one stream, in the order they appeared, and
/// ``MobileTracker/screen(name:properties:)`` drops a repeat of the last one.
@MainActor
enum AutomaticScreenTracking {
    /// A tracker that asked for automatic tracking, and where its screens go.
    private struct Subscriber {
        weak var tracker: MobileTracker?
        let screens: AsyncStream<String>.Continuation
    }
    private static var subscribers: [ObjectIdentifier: Subscriber] = [:]

    /// Starts automatic screen tracking for `tracker` (once per tracker);
    /// `hook` is handed the function to call with each controller that
    /// appeared.
    static func install(for tracker: MobileTracker, hook: @MainActor (@escaping @MainActor (AnyObject) -> Void) -> Void) {
        let key = ObjectIdentifier(tracker)
        // A subscriber whose tracker is gone does not count: another tracker may have its address now.
        guard subscribers[key]?.tracker == nil else { return }
        let (names, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        subscribers[key] = Subscriber(tracker: tracker, screens: continuation)
        Task.detached { [weak tracker] in
            for await name in names {
                guard let tracker else { return }
                await tracker.screen(name: name)
            }
        }
        hook(didAppear)
    }

    /// The screen name of `controller`, nil when it is not tracked.
    static func screenName(of controller: AnyObject) -> String? {
        if let named = controller as? any TrackedScreen { return named.trackedScreenName }
        return ScreenNaming.automaticName(typeName: String(reflecting: type(of: controller)))
    }

    /// Reports an appearing controller to every installed tracker.
    static func didAppear(_ controller: AnyObject) {
        subscribers = subscribers.filter { $0.value.tracker != nil }
        guard !subscribers.isEmpty, let name = screenName(of: controller) else { return }
        for subscriber in subscribers.values { subscriber.screens.yield(name) }
    }
}
