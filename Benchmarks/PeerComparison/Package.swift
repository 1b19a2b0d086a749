// swift-tools-version:6.0
import PackageDescription

// `make bench` only: one generated client call, ours against the client
// apple/swift-openapi-generator generates for the same spec
// (specs/safepocket.yaml), over the same in-memory transport, in one run;
// and typed event streams, ours against swift-openapi-runtime's helpers.
// A package of its own, so that neither the main package nor its users
// resolve or build the peer generator.
let package = Package(
    name: "PeerComparison",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "OpenAPIMobileClients", path: "../.."),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "PeerSafepocket",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .executableTarget(
            name: "client-call-bench",
            dependencies: [
                "PeerSafepocket",
                .product(name: "SafepocketAPI", package: "OpenAPIMobileClients"),
                .product(name: "ClientRuntime", package: "OpenAPIMobileClients"),
                .product(name: "_BenchSupport", package: "OpenAPIMobileClients"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "event-stream-bench",
            dependencies: [
                .product(name: "ClientRuntime", package: "OpenAPIMobileClients"),
                .product(name: "_BenchSupport", package: "OpenAPIMobileClients"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ]
)
