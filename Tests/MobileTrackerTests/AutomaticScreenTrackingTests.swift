import BackendDoubles
import Foundation
import Testing
import Waiting

@testable import MobileTracker

/// Stand-ins for an app's view controllers: the platform hook hands the
/// tracking whatever object appeared, so plain classes behave as UIKit's would.
final class CheckoutViewController {}
final class SettingsController: TrackedScreen {
    var trackedScreenName: String? { "Preferences" }
}
final class DebugOverlayViewController: TrackedScreen {
    var trackedScreenName: String? { nil }
}
final class _InternalViewController {}
/// Stands in for SwiftUI's hosting controller: its type name carries the root view's.
final class UIHostingController<Content> {}
struct CartView {}

/// Automatic screen tracking behind the platform hook (UIKit's lives in an
/// Apple adapter): which controllers become which `VIEW_PAGE` events.
@Suite struct AutomaticScreenTrackingTests {
    @Test @MainActor func eachAppearingControllerBecomesOneViewPageNamedAsTheDocumentSays() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        var hooks: [@MainActor (AnyObject, String?) -> Void] = []
        let hub = AutomaticScreenTracking()
        hub.install(for: tracker) { hooks.append($0) }
        hub.install(for: tracker) { hooks.append($0) }
        #expect(hooks.count == 1, "one hook per tracker, however often it is installed")
        let appeared = try #require(hooks.first)

        for controller: AnyObject in [
            CheckoutViewController(), CheckoutViewController(), SettingsController(), DebugOverlayViewController(),
            _InternalViewController(), CheckoutViewController(),
        ] {
            appeared(controller, nil)
        }
        let expected = ["Checkout", "Preferences", "Checkout"]
        func views() -> [TrackerBackend.Received] { harness.backend.events.filter { $0.eventName == "VIEW_PAGE" } }
        // The hook's screens reach the tracker through a stream: flush until they arrived.
        try await waitUntil("the screens to arrive") {
            _ = await tracker.flush(timeout: .seconds(1))
            return views().count >= expected.count
        }
        #expect(views().compactMap { ($0.json["data"] as? [String: Any])?["screen"] as? String } == expected,
            "a type name loses its suffix, a TrackedScreen names itself or opts out, private controllers and repeats are skipped")
    }

    @Test @MainActor func swiftUIScreensAreNamedByTheirRootViewOrTheirTitleAndTheShownOneIsTheInitialPageView() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        var hooks: [@MainActor (AnyObject, String?) -> Void] = []
        // The screen already showing when the tracker starts: the initial page view, with no appearance reported.
        AutomaticScreenTracking().install(for: tracker, hook: { hooks.append($0) }, visible: { (CheckoutViewController(), nil) })
        let appeared = try #require(hooks.first)
        appeared(UIHostingController<CartView>(), "Your cart")      // the root view's type names it
        appeared(UIHostingController<Any>(), "Tracking")             // a type-erased root: its navigation title
        appeared(UIHostingController<Any>(), nil)                    // neither: not tracked
        appeared(UIHostingController<Any>(), "SOUL")
        let expected = ["Checkout", "Cart", "Tracking", "SOUL"]
        func views() -> [String] {
            harness.backend.events.filter { $0.eventName == "VIEW_PAGE" }.compactMap { ($0.json["data"] as? [String: Any])?["screen"] as? String }
        }
        try await waitUntil("the screens to arrive") {
            _ = await tracker.flush(timeout: .seconds(1))
            return views().count >= expected.count
        }
        #expect(views() == expected)
    }

    @Test @MainActor func navigationTitlesNameNoScreenWhenTheAppSaysSo() {
        #expect(AutomaticScreenTracking.screenName(of: UIHostingController<Any>(), title: "Acme Coffee") == "Acme Coffee")
        #expect(ScreenNaming.automaticName(typeName: String(reflecting: UIHostingController<Any>.self), title: nil) == nil)
        // `namesScreensByNavigationTitle: false` installs without titles: such a screen is not named.
        #expect(MobileTracker.Options().namesScreensByNavigationTitle)
        #expect(!MobileTracker.Options(namesScreensByNavigationTitle: false).namesScreensByNavigationTitle)
    }

    @Test @MainActor func theScreenNameComesFromTheControllerOrItsType() {
        #expect(AutomaticScreenTracking.screenName(of: CheckoutViewController()) == "Checkout")
        #expect(AutomaticScreenTracking.screenName(of: SettingsController()) == "Preferences")
        #expect(AutomaticScreenTracking.screenName(of: DebugOverlayViewController()) == nil)
        #expect(AutomaticScreenTracking.screenName(of: _InternalViewController()) == nil)
    }
}
