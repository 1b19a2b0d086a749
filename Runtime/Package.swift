// swift-tools-version:6.0
import PackageDescription

/// The runtime an app links with generated clients, as a package of its own
/// so that an app depending on it resolves and builds only what it uses:
/// swift-openapi-runtime, swift-http-types and swift-log. The generator, the
/// backend SDKs and their dependencies (GRDB, swift-crypto,
/// swift-argument-parser) live in the package one folder up.
let package = Package(
    name: "OpenAPIMobileRuntime",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "ClientRuntime", targets: ["ClientRuntime"]),
        .library(name: "Resilience", targets: ["Resilience"]),
        .library(name: "ClientRuntimeTesting", targets: ["ClientRuntimeTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    ],
    targets: [
        // What generated clients call: coding, parameters, errors, validation.
        .target(
            name: "ClientRuntime",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // swift-openapi-runtime middlewares that make any client retry-safe:
        // credentials, token refresh, retry, idempotency keys, redaction.
        .target(
            name: "Resilience",
            dependencies: [
                "ClientRuntime",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // For apps' tests: an in-memory transport that records requests and
        // answers from a script.
        .target(
            name: "ClientRuntimeTesting",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
