// swift-tools-version:6.0
import PackageDescription

/// The iOS sample app of all four SDKs, and its Call Directory extension: a
/// package of its own, so that the Linux build never sees its SwiftUI.
/// `make ios-check` compiles both targets for iOS; Xcode builds the app
/// from `project.yml` (README.md in this folder). The screens' logic is
/// `SampleAppModels`, in the repository's package, where the Linux tests
/// run it.
let package = Package(
    name: "SampleApp",
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [
        .library(name: "SampleApp", targets: ["SampleApp"]),
        .library(name: "CallDirectoryExtension", targets: ["CallDirectoryExtension"]),
    ],
    dependencies: [
        .package(name: "OpenAPIMobileClients", path: "../.."),
    ],
    targets: [
        // The app: SwiftUI screens over the view models, and the adapters to
        // the system (the browser session, Contacts permission).
        .target(
            name: "SampleApp",
            dependencies: [
                .product(name: "_SampleAppModels", package: "OpenAPIMobileClients"),
                .product(name: "SecureNodeSDK", package: "OpenAPIMobileClients"),
                .product(name: "Soul", package: "OpenAPIMobileClients"),
                .product(name: "Safepocket", package: "OpenAPIMobileClients"),
                .product(name: "MobileTracker", package: "OpenAPIMobileClients"),
            ],
            path: "SampleApp",
            // The app's own required-reason API use (UserDefaults); the SDKs bring theirs.
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // The Call Directory extension: SecureNode's ready-made provider, nothing else.
        .target(
            name: "CallDirectoryExtension",
            dependencies: [.product(name: "SecureNodeCallDirectory", package: "OpenAPIMobileClients")],
            path: "CallDirectoryExtension"
        ),
    ],
    swiftLanguageModes: [.v6]
)
