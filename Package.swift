// swift-tools-version:6.0
import PackageDescription

/// The SDK package: the generated clients of the four backends, an SDK on top
/// of each, and their sample apps. The other audiences have packages of their
/// own, which this one depends on by path:
///
/// - `Generator/`: clientgen and its plugins (what `make generate` runs),
/// - `Runtime/`: what every generated client links (ClientRuntime, Resilience),
/// - `Sandbox/`: the backends as their documents describe them, which the
///   SDK tests run as backend doubles (its HTTP server is `Sandbox/Server`).
///
/// Sections below: dependencies, clients, SDKs, examples, test support,
/// tests, benchmarks.

// MARK: Dependencies

let clientRuntime: Target.Dependency = .product(name: "ClientRuntime", package: "Runtime")
let resilience: Target.Dependency = .product(name: "Resilience", package: "Runtime")
let runtimeSupport: Target.Dependency = .product(name: "RuntimeSupport", package: "Runtime")
let clientRuntimeTesting: Target.Dependency = .product(name: "ClientRuntimeTesting", package: "Runtime")
let loopbackHTTPServer: Target.Dependency = .product(name: "LoopbackHTTPServer", package: "Runtime")
let openAPIModel: Target.Dependency = .product(name: "OpenAPIModel", package: "Generator")
let processTestSupport: Target.Dependency = .product(name: "ProcessTestSupport", package: "Generator")
let contractCheck: Target.Dependency = .product(name: "ContractCheck", package: "Sandbox")
let sandboxCore: Target.Dependency = .product(name: "SandboxCore", package: "Sandbox")
let openAPIRuntime: Target.Dependency = .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")
let urlSession: Target.Dependency = .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession")
let httpTypes: Target.Dependency = .product(name: "HTTPTypes", package: "swift-http-types")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let grdb: Target.Dependency = .product(name: "GRDB", package: "GRDB.swift")
let crypto: Target.Dependency = .product(name: "Crypto", package: "swift-crypto")

// MARK: Clients

/// The generated clients (`make generate` writes `Sources/Clients/<Module>`
/// from `specs/clients.json`); each is a target of its own, so an app links
/// only the backends it talks to.
let generatedClients = ["SecureNodeAPI", "SoulAPI", "SafepocketAPI", "MobileTrackerAPI"]

/// A generated client target: what every generated file imports.
func client(_ name: String, path: String) -> Target {
    .target(name: name, dependencies: [clientRuntime, openAPIRuntime, httpTypes], path: path)
}

// MARK: SDKs

/// The SDKs, one per backend, each on its generated client: the library
/// products an app links.
let sdkTargets: [Target] = [
    // SecureNode's offline branding dataset (SQLite through GRDB): atomic
    // syncs with their cursor, local lookups, the Call Directory snapshot.
    .target(name: "BrandingStore", dependencies: [grdb]),
    // Sync engine, billing outbox, device lifecycle, logo cache, the facade.
    .target(name: "SecureNode", dependencies: ["BrandingStore", "SecureNodeAPI", resilience, clientRuntime, runtimeSupport, grdb, urlSession]),
    // The SDK as its iOS README presents it: `SecureNode.configure(_:)`, the
    // `SecureNodeSDK` class with completion-based call events, over the engine above.
    .target(name: "SecureNodeSDK", dependencies: ["SecureNode", "BrandingStore", resilience, runtimeSupport, openAPIRuntime]),
    // OTP sign-in with the resend cooldown, the session, moods.
    .target(name: "Soul", dependencies: ["SoulAPI", resilience, clientRuntime, urlSession, httpTypes, logging]),
    // PKCE sign-in, the session, the error envelope, idempotency keys on writes.
    .target(name: "Safepocket", dependencies: ["SafepocketAPI", resilience, clientRuntime, urlSession, httpTypes, logging, crypto]),
    // Sessions, dual storage and a durable, bounded event queue.
    .target(name: "MobileTracker", dependencies: ["MobileTrackerAPI", resilience, clientRuntime, runtimeSupport, grdb, urlSession, logging]),
]

// MARK: Examples

/// The sample apps (`Examples/<name>`): the code an app team copies, on the
/// public products only.
let exampleTargets: [Target] = [
    .executableTarget(name: "soul-example", dependencies: ["Soul", "SoulAPI", resilience, argumentParser, logging], path: "Examples/soul-example"),
    .executableTarget(
        name: "safepocket-example", dependencies: ["Safepocket", "SafepocketAPI", resilience, argumentParser, logging],
        path: "Examples/safepocket-example"),
    .executableTarget(name: "tracker-example", dependencies: ["MobileTracker", argumentParser, logging], path: "Examples/tracker-example"),
    .executableTarget(
        name: "securenode-example", dependencies: ["SecureNodeSDK", "SecureNode", argumentParser, urlSession], path: "Examples/securenode-example"),
]

// MARK: Test support

/// Targets the tests share (`Tests/Support/<name>`).
let testSupportTargets: [Target] = [
    // Backends that behave as their documents say (the sandbox's behaviours)
    // on the loopback server.
    .target(
        name: "BackendDoubles", dependencies: [loopbackHTTPServer, openAPIModel, sandboxCore, contractCheck, runtimeSupport, logging, urlSession, openAPIRuntime, httpTypes],
        path: "Tests/Support/BackendDoubles"),
    // Every SOUL and Safepocket operation through its SDK's stack against
    // injected faults (the retry contract; tests and bench).
    .target(
        name: "RetryMatrix",
        dependencies: ["Soul", "Safepocket", "SoulAPI", "SafepocketAPI", resilience, "BackendDoubles", loopbackHTTPServer, runtimeSupport, logging],
        path: "Tests/Support/RetryMatrix"),
    // A client generated from Tests/Fixtures/features.yaml (one schema or
    // operation per generator feature), regenerated by `make generate`.
    client("FeatureClient", path: "Tests/Support/FeatureClient"),
    // Processes for the kill tests to SIGKILL: one tracking and delivering,
    // one delivering the billing outbox, one running a sync.
    .executableTarget(name: "tracker-child", dependencies: ["MobileTracker", resilience, logging], path: "Tests/Support/tracker-child"),
    .executableTarget(
        name: "outbox-delivery-child", dependencies: ["SecureNode", "SecureNodeAPI", resilience, urlSession], path: "Tests/Support/outbox-delivery-child"),
    .executableTarget(name: "branding-crash-child", dependencies: ["BrandingStore"], path: "Tests/Support/branding-crash-child"),
]

// MARK: Tests

let testTargets: [Target] = [
    .testTarget(name: "BrandingStoreTests", dependencies: ["BrandingStore", "branding-crash-child", processTestSupport, runtimeSupport, grdb]),
    .testTarget(
        name: "SecureNodeTests",
        dependencies: [
            "SecureNode", "SecureNodeAPI", "BrandingStore", resilience, clientRuntime, loopbackHTTPServer, "outbox-delivery-child",
            processTestSupport, runtimeSupport, urlSession, httpTypes,
        ]),
    .testTarget(
        name: "SecureNodeSDKTests",
        dependencies: ["SecureNodeSDK", "BrandingStore", "BackendDoubles", loopbackHTTPServer, runtimeSupport, urlSession, openAPIRuntime, httpTypes]),
    .testTarget(
        name: "SoulTests",
        dependencies: ["Soul", "SoulAPI", resilience, clientRuntimeTesting, "BackendDoubles", loopbackHTTPServer, runtimeSupport, logging]),
    .testTarget(
        name: "SafepocketTests",
        dependencies: ["Safepocket", "SafepocketAPI", resilience, clientRuntimeTesting, "BackendDoubles", loopbackHTTPServer, openAPIModel, logging]),
    .testTarget(
        name: "MobileTrackerTests",
        dependencies: [
            "MobileTracker", "MobileTrackerAPI", resilience, clientRuntimeTesting, "BackendDoubles", loopbackHTTPServer, processTestSupport,
            runtimeSupport, "tracker-child", logging,
        ]),
    .testTarget(name: "RetryContractTests", dependencies: ["RetryMatrix", "SoulAPI", "SafepocketAPI", "SecureNodeAPI", clientRuntime]),
    // Every operation of the four generated clients over real HTTP on a
    // loopback socket, answered with the specs' examples.
    .testTarget(
        name: "ClientConsumerTests",
        dependencies: generatedClients.map { .target(name: $0) } + [
            clientRuntime, clientRuntimeTesting, loopbackHTTPServer, openAPIModel, resilience, "BackendDoubles", openAPIRuntime, urlSession, httpTypes,
        ]),
    // The generator's features, proved on the code it generated.
    .testTarget(
        name: "GeneratedFeatureTests",
        dependencies: ["FeatureClient", clientRuntime, clientRuntimeTesting, loopbackHTTPServer, resilience, urlSession, httpTypes]),
    .testTarget(
        name: "ExampleTests",
        dependencies: [
            "soul-example", "safepocket-example", "tracker-example", "securenode-example", "BackendDoubles", loopbackHTTPServer, processTestSupport,
        ]),
]

// MARK: Benchmarks

/// `make bench` programs (`Benchmarks/<name>`), each its own process so its
/// memory figures are its own.
let benchmarkTargets: [Target] = [
    // The resilience stack's per-request overhead.
    .executableTarget(
        name: "resilience-bench", dependencies: [resilience, loopbackHTTPServer, openAPIRuntime, urlSession, httpTypes, logging],
        path: "Benchmarks/resilience-bench"),
    // SOUL's refresh storm and the retry matrix.
    .executableTarget(name: "sdk-bench", dependencies: ["RetryMatrix", "Soul", resilience, runtimeSupport, "BackendDoubles", logging], path: "Benchmarks/sdk-bench"),
    // The MobileTracker queue (track cost, drain).
    .executableTarget(
        name: "tracker-bench", dependencies: ["MobileTracker", resilience, "BackendDoubles", logging], path: "Benchmarks/tracker-bench"),
    // The branding store at 1M records.
    .executableTarget(name: "branding-bench", dependencies: ["BrandingStore", grdb], path: "Benchmarks/branding-bench"),
    // A 1M-record full sync over loopback HTTP through the generated client
    // into the store, streamed and buffered.
    .executableTarget(
        name: "sync-http-bench",
        dependencies: ["BrandingStore", "SecureNode", "SecureNodeAPI", clientRuntime, loopbackHTTPServer, openAPIRuntime, httpTypes],
        path: "Benchmarks/sync-http-bench"),
]

let sdks = ["BrandingStore", "SecureNode", "SecureNodeSDK", "Soul", "Safepocket", "MobileTracker"]
let examples = ["soul-example", "safepocket-example", "tracker-example", "securenode-example"]

let package = Package(
    name: "OpenAPIMobileClients",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [.library(name: "Clients", targets: generatedClients)]
        + generatedClients.map { .library(name: $0, targets: [$0]) }
        + sdks.map { .library(name: $0, targets: [$0]) }
        + examples.map { .executable(name: $0, targets: [$0]) },
    dependencies: [
        .package(path: "Generator"),
        .package(path: "Runtime"),
        .package(path: "Sandbox"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // SHA-256 for PKCE: CryptoKit on Apple platforms, BoringSSL elsewhere.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
    ],
    targets: generatedClients.map { client($0, path: "Sources/Clients/\($0)") }
        + sdkTargets + exampleTargets + testSupportTargets + testTargets + benchmarkTargets,
    swiftLanguageModes: [.v6]
)
