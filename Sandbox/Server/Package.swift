// swift-tools-version:6.0
import PackageDescription

/// The sandbox over HTTP: Hummingbird 2 serving `SandboxCore` (a library of
/// the repository's root package, two folders up). A package of its own, so
/// that neither the root package, nor its tests, nor the apps that depend
/// on it by URL resolve Hummingbird and SwiftNIO: nothing depends on this
/// package; `make sandbox` builds it.
let package = Package(
    name: "SandboxServer",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "OpenAPIMobileClients", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.7.0"),
    ],
    targets: [
        .executableTarget(
            name: "sandbox",
            dependencies: [
                .product(name: "_SandboxCore", package: "OpenAPIMobileClients"),
                .product(name: "_ContractCheck", package: "OpenAPIMobileClients"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/sandbox"
        ),
    ],
    swiftLanguageModes: [.v6]
)
