#if canImport(UIKit) && !os(watchOS)
import ObjectiveC
import UIKit

/// A view controller that names its own screen for automatic tracking, or
/// opts out of it by returning nil.
public protocol TrackedScreen {
    /// The `screen` value of this controller's `VIEW_PAGE` events; nil: not tracked.
    var trackedScreenName: String? { get }
}

/// Automatic `VIEW_PAGE` events on UIKit, as the document describes:
/// `UIViewController.viewDidAppear(_:)` is exchanged once, process-wide,
/// for a version that calls the original and then reports the screen to
/// every tracker that asked for automatic tracking. Names come from
/// ``TrackedScreen`` or else ``ScreenNaming``; container controllers are
/// skipped. Each tracker takes its screens from one stream, in the order
/// they appeared, and ``MobileTracker/screen(name:properties:)`` drops a
/// repeat of the last one.
@MainActor
enum UIKitScreenTracking {
    private static var exchanged = false
    private static var streams: [ObjectIdentifier: AsyncStream<String>.Continuation] = [:]

    /// Starts automatic screen tracking for `tracker` (once per tracker).
    static func install(for tracker: MobileTracker) {
        let key = ObjectIdentifier(tracker)
        guard streams[key] == nil else { return }
        let (names, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        streams[key] = continuation
        Task.detached { [weak tracker] in
            for await name in names {
                guard let tracker else { return }
                await tracker.screen(name: name)
            }
        }
        guard !exchanged,
            let original = class_getInstanceMethod(UIViewController.self, #selector(UIViewController.viewDidAppear(_:))),
            let replacement = class_getInstanceMethod(UIViewController.self, #selector(UIViewController.mobileTrackerViewDidAppear(_:)))
        else { return }
        method_exchangeImplementations(original, replacement)
        exchanged = true
    }

    /// Called after every view controller's `viewDidAppear(_:)`.
    fileprivate static func didAppear(_ controller: UIViewController) {
        guard !streams.isEmpty else { return }
        if controller is UINavigationController || controller is UITabBarController || controller is UISplitViewController
            || controller is UIPageViewController
        {
            return
        }
        let name: String?
        if let named = controller as? any TrackedScreen {
            name = named.trackedScreenName
        } else {
            name = ScreenNaming.automaticName(typeName: String(reflecting: type(of: controller)))
        }
        guard let name else { return }
        for continuation in streams.values { continuation.yield(name) }
    }
}

extension UIViewController {
    /// After the exchange this is `viewDidAppear(_:)`'s implementation; the
    /// call inside it runs the original one. `dynamic`, so that call is sent
    /// through the Objective-C runtime (and finds the exchanged
    /// implementation) rather than bound at compile time to this method.
    @objc dynamic fileprivate func mobileTrackerViewDidAppear(_ animated: Bool) {
        mobileTrackerViewDidAppear(animated)
        UIKitScreenTracking.didAppear(self)
    }
}
#endif
