// swift-tools-version:6.0
import PackageDescription

/// The runtime an app links with generated clients, as a package of its own
/// so that an app depending on it resolves and builds only what it uses:
/// swift-openapi-runtime, swift-http-types and swift-log. The generator is the
/// package in `../Generator`; the backend SDKs and their dependencies (GRDB,
/// swift-crypto) live in the package one folder up.
let package = Package(
    name: "Runtime",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "ClientRuntime", targets: ["ClientRuntime"]),
        .library(name: "Resilience", targets: ["Resilience"]),
        .library(name: "RuntimeSupport", targets: ["RuntimeSupport"]),
        .library(name: "ClientRuntimeTesting", targets: ["ClientRuntimeTesting"]),
        .library(name: "LoopbackHTTPServer", targets: ["LoopbackHTTPServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        // Tests only: the real URLSession transport the resilience tests run over.
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.0.0"),
    ],
    targets: [
        // MARK: Runtime

        // What generated clients call: coding, parameters, errors, validation.
        .target(
            name: "ClientRuntime",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // swift-openapi-runtime middlewares that make any client retry-safe:
        // credentials, token refresh, retry, idempotency keys, redaction; and
        // the layer the backend SDKs share (one call path, one stack builder,
        // one failure classification).
        .target(
            name: "Resilience",
            dependencies: [
                "ClientRuntime", "RuntimeSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Small building blocks the runtime, the SDKs and the sandbox share:
        // a value behind a lock, a seedable random generator.
        .target(name: "RuntimeSupport"),

        // MARK: Test support

        // For apps' tests: an in-memory transport that records requests and
        // answers from a script; a log capture.
        .target(
            name: "ClientRuntimeTesting",
            dependencies: [
                "RuntimeSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // For tests that need real HTTP over a real socket: an in-process
        // HTTP/1.1 server on 127.0.0.1 with scripted, fault-injecting replies.
        .target(name: "LoopbackHTTPServer", dependencies: ["RuntimeSupport"]),

        // MARK: Tests

        .testTarget(
            name: "ClientRuntimeTests",
            dependencies: ["ClientRuntime", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        .testTarget(
            name: "ResilienceTests",
            dependencies: [
                "Resilience", "ClientRuntime", "ClientRuntimeTesting", "LoopbackHTTPServer",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
