// swift-tools-version:6.0
import PackageDescription

/// The sandbox's core: the four backends as their documents describe them,
/// every request checked against its spec. A package of its own because it is
/// a development tool, not part of any SDK: the SDK package's tests run its
/// behaviours as backend doubles, and the HTTP server in `Server/` (a package
/// of its own again, so that nothing else resolves Hummingbird and SwiftNIO)
/// serves them.
let package = Package(
    name: "Sandbox",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "ContractCheck", targets: ["ContractCheck"]),
        .library(name: "SandboxCore", targets: ["SandboxCore"]),
    ],
    dependencies: [
        .package(path: "../Generator"),
        .package(path: "../Runtime"),
        // SHA-256 for the PKCE check: CryptoKit on Apple platforms, BoringSSL elsewhere.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
    ],
    targets: [
        // MARK: Sandbox

        // Requests (and, in strict mode, answers) checked against a spec: the
        // operation they match, their parameters and body against its
        // schemas, each violation with the spec's file:line:column.
        .target(
            name: "ContractCheck",
            dependencies: [.product(name: "OpenAPIModel", package: "Generator")]
        ),
        // Backends under path prefixes, each request checked against its
        // spec, answered from the backend's state as its document describes
        // (or with the spec's example), faults injected from a seed, counted.
        .target(
            name: "SandboxCore",
            dependencies: [
                "ContractCheck",
                .product(name: "OpenAPIModel", package: "Generator"),
                .product(name: "RuntimeSupport", package: "Runtime"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // MARK: Tests

        .testTarget(
            name: "ContractCheckTests",
            dependencies: ["ContractCheck", .product(name: "OpenAPIModel", package: "Generator")]
        ),
        .testTarget(name: "SandboxTests", dependencies: ["SandboxCore", "ContractCheck"]),
    ],
    swiftLanguageModes: [.v6]
)
