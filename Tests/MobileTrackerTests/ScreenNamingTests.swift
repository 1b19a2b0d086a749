import Testing

@testable import MobileTracker

/// The names automatic screen tracking gives UIKit view controllers (the
/// hook itself needs UIKit; its naming rules are tested on every platform).
@Suite struct ScreenNamingTests {
    @Test(arguments: [
        ("MyApp.ProductDetailsViewController", "ProductDetails"),
        ("MyApp.CheckoutController", "Checkout"),
        ("MyApp.Home", "Home"),
        ("MyApp.ViewController", "ViewController"),
        ("MyApp.Settings.ProfileViewController", "Profile"),
        ("MyApp.ListViewController<MyApp.Order>", "List"),
        ("MyApp.(unknown context at $1034c8).PrivateViewController", "Private"),
        ("LegacyObjCCartViewController", "LegacyObjCCart"),
        ("__C.LegacyObjCCartViewController", "LegacyObjCCart"),
    ])
    func appControllersAreNamedWithoutModuleOrSuffix(typeName: String, expected: String) {
        #expect(ScreenNaming.automaticName(typeName: typeName) == expected)
    }

    @Test(arguments: [
        ("SwiftUI.UIHostingController<MyApp.CartView>", nil, "Cart"),
        ("SwiftUI.UIHostingController<SwiftUI.ModifiedContent<MyApp.CheckoutScreen, SwiftUI._EnvironmentKeyWritingModifier<Swift.Optional<MyApp.Store>>>>", "Pay", "Checkout"),
        ("SwiftUI.UIHostingController<SwiftUI.ModifiedContent<SwiftUI.AnyView, SwiftUI.RootModifier>>", "Tracking", "Tracking"),
        ("SwiftUI.NavigationStackHostingController<SwiftUI.AnyView>", " SOUL ", "SOUL"),
        ("MyApp.RootHostingController", "Settings", "Settings"),
    ] as [(String, String?, String)])
    func swiftUIHostingControllersAreNamedByTheirRootViewThenTheirTitle(typeName: String, title: String?, expected: String) {
        #expect(ScreenNaming.automaticName(typeName: typeName, title: title) == expected)
    }

    @Test(arguments: [
        "UINavigationController", "UIKit.UIAlertController", "__C.UIActivityViewController", "UIInputWindowController", "_UIRemoteInputViewController",
        "SwiftUI.UIHostingController<SwiftUI.AnyView>", "MyApp.RootHostingController", "MyApp._InternalViewController",
    ])
    func frameworkAndPrivateControllersAreNotScreens(typeName: String) {
        #expect(ScreenNaming.automaticName(typeName: typeName) == nil)
    }
}
