#if canImport(UIKit) && !os(watchOS)
import ObjectiveC
import UIKit

/// The UIKit hook of automatic screen tracking: `UIViewController.viewDidAppear(_:)`
/// is exchanged once, process-wide, for a version that calls the original
/// and then hands the controller to the installed observer, unless it is a
/// container (navigation, tab bar, split view, page view), which is never a
/// screen of its own. What to name it, and which tracker gets it, is
/// `AutomaticScreenTracking`'s business (tested on every platform).
///
/// An Apple adapter: this file imports only UIKit and the Objective-C
/// runtime, so `make ios-check` type-checks it for iOS on its own.
@MainActor
enum ViewAppearanceHook {
    private static var exchanged = false
    private static var observer: (@MainActor (AnyObject, String?) -> Void)?

    /// Makes `observer` the one that receives every appearing controller,
    /// with its navigation title (for SwiftUI, `.navigationTitle`), from
    /// now on, exchanging the method on the first call.
    static func install(_ observer: @escaping @MainActor (AnyObject, String?) -> Void) {
        self.observer = observer
        guard !exchanged,
            let original = class_getInstanceMethod(UIViewController.self, #selector(UIViewController.viewDidAppear(_:))),
            let replacement = class_getInstanceMethod(UIViewController.self, #selector(UIViewController.mobileTrackerViewDidAppear(_:)))
        else { return }
        method_exchangeImplementations(original, replacement)
        exchanged = true
    }

    /// Called after every view controller's `viewDidAppear(_:)`.
    fileprivate static func didAppear(_ controller: UIViewController) {
        guard let observer, !isContainer(controller) else { return }
        observer(controller, title(of: controller))
    }

    /// The screen showing now in the key window (the top of what is
    /// presented, the selected tab, the visible one of a navigation stack),
    /// with its navigation title: the initial page view.
    static func visibleScreen() -> (controller: AnyObject, title: String?)? {
        let windows = UIApplication.shared.connectedScenes.compactMap { ($0 as? UIWindowScene)?.keyWindow }
        guard var controller = windows.first?.rootViewController else { return nil }
        while true {
            if let presented = controller.presentedViewController {
                controller = presented
            } else if let navigation = controller as? UINavigationController, let visible = navigation.visibleViewController {
                controller = visible
            } else if let tabs = controller as? UITabBarController, let selected = tabs.selectedViewController {
                controller = selected
            } else {
                break
            }
        }
        return isContainer(controller) ? nil : (controller, title(of: controller))
    }

    private static func isContainer(_ controller: UIViewController) -> Bool {
        controller is UINavigationController || controller is UITabBarController || controller is UISplitViewController
            || controller is UIPageViewController
    }

    private static func title(of controller: UIViewController) -> String? {
        controller.navigationItem.title ?? controller.title
    }
}

extension UIViewController {
    /// After the exchange this is `viewDidAppear(_:)`'s implementation; the
    /// call inside it runs the original one. `dynamic`, so that call is sent
    /// through the Objective-C runtime (and finds the exchanged
    /// implementation) rather than bound at compile time to this method.
    @objc dynamic fileprivate func mobileTrackerViewDidAppear(_ animated: Bool) {
        mobileTrackerViewDidAppear(animated)
        ViewAppearanceHook.didAppear(self)
    }
}
#endif
