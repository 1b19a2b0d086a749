// swift-tools-version:6.0
import PackageDescription

/// The runtime apps link (ClientRuntime, Resilience, ClientRuntimeTesting) is
/// the package in `Runtime/`, so that an app needing only it does not
/// resolve the generator's and the SDKs' dependencies.
let clientRuntime: Target.Dependency = .product(name: "ClientRuntime", package: "Runtime")
let resilience: Target.Dependency = .product(name: "Resilience", package: "Runtime")
let clientRuntimeTesting: Target.Dependency = .product(name: "ClientRuntimeTesting", package: "Runtime")

/// The generator (YAML reading -> OpenAPI model -> diagnostics -> CLI) lives in
/// `Generator/`, one folder per pipeline stage; the generated clients and the
/// backend SDKs live in `Sources/`.
/// What resilience tests and benchmarks build on: the layers, a loopback
/// server, and a real URLSession transport.
let resilienceOverLoopback: [Target.Dependency] = [
    resilience, "LoopbackHTTPServer",
    .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
    .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
    .product(name: "HTTPTypes", package: "swift-http-types"),
    .product(name: "Logging", package: "swift-log"),
]

/// The generated clients (`make generate` writes `Sources/Clients/<Module>`
/// from `specs/clients.json`); each is a target of its own, so an app links
/// only the backends it talks to.
let generatedClients = ["SecureNodeAPI", "SoulAPI", "SafepocketAPI", "MobileTrackerAPI"]

let package = Package(
    name: "OpenAPIMobileClients",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .executable(name: "clientgen", targets: ["clientgen"]),
        .plugin(name: "ClientgenBuildPlugin", targets: ["ClientgenBuildPlugin"]),
        .plugin(name: "ClientgenCommandPlugin", targets: ["ClientgenCommandPlugin"]),
        .library(name: "OpenAPIModel", targets: ["OpenAPIModel"]),
        .library(name: "ContractCheck", targets: ["ContractCheck"]),
        .library(name: "SandboxCore", targets: ["SandboxCore"]),
        .library(name: "Clients", targets: generatedClients),
        .library(name: "BrandingStore", targets: ["BrandingStore"]),
        .library(name: "SecureNode", targets: ["SecureNode"]),
        .library(name: "Soul", targets: ["Soul"]),
        .library(name: "Safepocket", targets: ["Safepocket"]),
        .library(name: "MobileTracker", targets: ["MobileTracker"]),
        .executable(name: "soul-example", targets: ["soul-example"]),
        .executable(name: "safepocket-example", targets: ["safepocket-example"]),
        .executable(name: "tracker-example", targets: ["tracker-example"]),
        .executable(name: "securenode-example", targets: ["securenode-example"]),
    ] + generatedClients.map { .library(name: $0, targets: [$0]) },
    dependencies: [
        .package(path: "Runtime"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // SHA-256 for PKCE: CryptoKit on Apple platforms, BoringSSL elsewhere.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
    ],
    targets: [
        // Stage 0: the system libyaml, through pkg-config.
        .systemLibrary(
            name: "CLibYAML",
            path: "Generator/CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // Stage 1: libyaml events -> node tree with line:column marks.
        .target(
            name: "YAMLReader",
            dependencies: ["CLibYAML"],
            path: "Generator/YAML"
        ),
        // Stage 2: node tree -> typed, $ref-resolved OpenAPI document + diagnostics.
        .target(
            name: "OpenAPIModel",
            dependencies: ["YAMLReader"],
            path: "Generator/OpenAPI"
        ),
        // Stage 3: OpenAPI model -> Swift declarations -> text.
        .target(
            name: "Codegen",
            dependencies: ["OpenAPIModel"],
            path: "Generator/Codegen"
        ),
        // Requests checked against a spec: the operation they match, their
        // parameters and body against its schemas, each violation with the
        // spec's file:line (the sandbox's contract check).
        .target(
            name: "ContractCheck",
            dependencies: ["OpenAPIModel"],
            path: "Generator/Contract"
        ),
        // The sandbox's core: backends under path prefixes, each request
        // checked against its spec, answered from the backend's state as its
        // document describes (or with the spec's example), and counted
        // (served over HTTP by the package in Sandbox/Server).
        .target(
            name: "SandboxCore",
            dependencies: ["ContractCheck", "OpenAPIModel", .product(name: "Crypto", package: "swift-crypto")],
            path: "Sandbox/Core"
        ),
        // Breaking-change rules between two versions of a spec, with the
        // Swift symbols each change touches.
        .target(
            name: "SpecDiff",
            dependencies: ["OpenAPIModel", "Codegen"],
            path: "Generator/SpecDiff"
        ),
        // The command-line tool.
        .executableTarget(
            name: "clientgen",
            dependencies: [
                "OpenAPIModel", "Codegen", "SpecDiff",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Generator/clientgen"
        ),
        // For app packages with their own specs: the client generated on every
        // build from the target's openapi.yaml (build-tool plugin), or written
        // into the target's sources on demand (`swift package generate-clients`).
        .plugin(
            name: "ClientgenBuildPlugin",
            capability: .buildTool(),
            dependencies: ["clientgen"],
            path: "Plugins/ClientgenBuildPlugin"
        ),
        .plugin(
            name: "ClientgenCommandPlugin",
            capability: .command(
                intent: .custom(verb: "generate-clients", description: "Write the client of each target holding openapi.yaml into its sources"),
                permissions: [.writeToPackageDirectory(reason: "writes the generated client into the target's Generated/ folder")]
            ),
            dependencies: ["clientgen"],
            path: "Plugins/ClientgenCommandPlugin"
        ),
        // `make bench`: parse timings against the raw libyaml event loop.
        .executableTarget(
            name: "clientgen-bench",
            dependencies: ["OpenAPIModel", "YAMLReader", "CLibYAML"],
            path: "Benchmarks/ParseBenchmarks"
        ),
        // Runtime: SecureNode's offline branding dataset (SQLite through GRDB):
        // atomic syncs with their cursor, local lookups.
        .target(
            name: "BrandingStore",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/BrandingStore"
        ),
        // Runtime: the SecureNode SDK on the generated client: sync engine,
        // billing outbox, device lifecycle, logo cache, the `SecureNode` facade.
        .target(
            name: "SecureNode",
            dependencies: [
                "BrandingStore", "SecureNodeAPI", resilience, clientRuntime,
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/SecureNode"
        ),
        // Runtime: the SOUL SDK on the generated client: OTP sign-in with the
        // resend cooldown, the session (refresh once, then expire), moods.
        .target(
            name: "Soul",
            dependencies: [
                "SoulAPI", resilience, clientRuntime,
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Soul"
        ),
        // Test support: backends that behave as their documents say (the
        // sandbox's behaviours: SOUL's OTP and token rotation, Safepocket's
        // PKCE, SecureNode's sync and billing, MobileTracker's events), on
        // the loopback server.
        .target(
            name: "BackendDoubles",
            dependencies: [
                "LoopbackHTTPServer", "OpenAPIModel", "ProcessTestSupport", "SandboxCore", "ContractCheck",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Support/BackendDoubles"
        ),
        // Runtime: the Safepocket SDK on the generated client: PKCE sign-in,
        // the session, the error envelope, idempotency keys on writes.
        .target(
            name: "Safepocket",
            dependencies: [
                "SafepocketAPI", resilience, clientRuntime,
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/Safepocket"
        ),
        .testTarget(
            name: "SafepocketTests",
            dependencies: [
                "Safepocket", "SafepocketAPI", resilience, "BackendDoubles", "LoopbackHTTPServer", "OpenAPIModel",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/SafepocketTests"
        ),
        .testTarget(
            name: "SoulTests",
            dependencies: [
                "Soul", "SoulAPI", resilience, "BackendDoubles", "LoopbackHTTPServer", "ProcessTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/SoulTests"
        ),
        // Test support: every SOUL and Safepocket operation through its SDK's
        // stack against injected faults (the retry contract; tests and bench).
        .target(
            name: "RetryMatrix",
            dependencies: [
                "Soul", "Safepocket", "SoulAPI", "SafepocketAPI", resilience, "BackendDoubles", "LoopbackHTTPServer", "ProcessTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Support/RetryMatrix"
        ),
        .testTarget(
            name: "RetryContractTests",
            dependencies: ["RetryMatrix", "SoulAPI", "SafepocketAPI", "SecureNodeAPI", clientRuntime],
            path: "Tests/RetryContractTests"
        ),
        // `make bench`: SOUL's refresh storm and the retry matrix.
        .executableTarget(
            name: "sdk-bench",
            dependencies: ["RetryMatrix", "Soul", resilience, "BackendDoubles", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/SDKBenchmarks"
        ),
        // Runtime: the MobileTracker SDK on the generated client: sessions,
        // dual storage and a durable, bounded event queue.
        .target(
            name: "MobileTracker",
            dependencies: [
                "MobileTrackerAPI", resilience, clientRuntime,
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/MobileTracker"
        ),
        // Kill test: a process that tracks and delivers, for the test to SIGKILL.
        .executableTarget(
            name: "tracker-child",
            dependencies: ["MobileTracker", resilience, .product(name: "Logging", package: "swift-log")],
            path: "Tests/Support/TrackerChild"
        ),
        .testTarget(
            name: "MobileTrackerTests",
            dependencies: [
                "MobileTracker", "MobileTrackerAPI", resilience, "BackendDoubles", "LoopbackHTTPServer", "ProcessTestSupport", "tracker-child",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/MobileTrackerTests"
        ),
        // Sample apps: the code an app team copies, on the public products only.
        .executableTarget(
            name: "soul-example",
            dependencies: [
                "Soul", "SoulAPI", resilience,
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/SoulExample"
        ),
        .executableTarget(
            name: "safepocket-example",
            dependencies: [
                "Safepocket", "SafepocketAPI", resilience,
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/SafepocketExample"
        ),
        .executableTarget(
            name: "tracker-example",
            dependencies: [
                "MobileTracker",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/TrackerExample"
        ),
        .executableTarget(
            name: "securenode-example",
            dependencies: [
                "SecureNode",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            path: "Examples/SecureNodeExample"
        ),
        .testTarget(
            name: "ExampleTests",
            dependencies: [
                "soul-example", "safepocket-example", "tracker-example", "securenode-example", "BackendDoubles", "LoopbackHTTPServer",
                "ProcessTestSupport",
            ],
            path: "Tests/ExampleTests"
        ),
        // `make bench`: the MobileTracker queue (track cost, drain).
        .executableTarget(
            name: "tracker-bench",
            dependencies: ["MobileTracker", resilience, "BackendDoubles", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/TrackerBenchmarks"
        ),
        // Outbox tests: a process that delivers an outbox, for the test to SIGKILL.
        .executableTarget(
            name: "outbox-delivery-child",
            dependencies: [
                "SecureNode", "SecureNodeAPI", resilience,
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            path: "Tests/Support/OutboxDeliveryChild"
        ),
        .testTarget(
            name: "SecureNodeTests",
            dependencies: [
                "SecureNode", "SecureNodeAPI", "BrandingStore", resilience, clientRuntime, "LoopbackHTTPServer", "outbox-delivery-child",
                "ProcessTestSupport",
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/SecureNodeTests"
        ),
        // `make bench`: the branding store at 1M records.
        .executableTarget(
            name: "branding-bench",
            dependencies: ["BrandingStore", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/BrandingBenchmarks"
        ),
        // `make bench`: a 1M-record full sync over loopback HTTP through the
        // generated client into the store, streamed and buffered (its own
        // program, so branding-bench's memory figures stay the store's).
        .executableTarget(
            name: "sync-http-bench",
            dependencies: [
                "BrandingStore", "SecureNode", "SecureNodeAPI", clientRuntime, "LoopbackHTTPServer",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Benchmarks/SyncHTTPBenchmarks"
        ),
        // Test support: finding and starting the child processes tests kill; a lock.
        .target(
            name: "ProcessTestSupport",
            path: "Tests/Support/ProcessTestSupport"
        ),
        // Crash tests: a process that runs one sync, for the test to SIGKILL.
        .executableTarget(
            name: "branding-crash-child",
            dependencies: ["BrandingStore"],
            path: "Tests/Support/BrandingCrashChild"
        ),
        .testTarget(
            name: "BrandingStoreTests",
            dependencies: ["BrandingStore", "branding-crash-child", "ProcessTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/BrandingStoreTests"
        ),
        .testTarget(
            name: "ClientRuntimeTests",
            dependencies: [clientRuntime, .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Tests/ClientRuntimeTests"
        ),
        // Test support: an in-process HTTP/1.1 server on a loopback socket
        // with scripted, fault-injecting replies.
        .target(
            name: "LoopbackHTTPServer",
            path: "Tests/Support/LoopbackHTTPServer"
        ),
        .testTarget(
            name: "ResilienceTests",
            dependencies: resilienceOverLoopback + ["BackendDoubles", clientRuntime],
            path: "Tests/ResilienceTests"
        ),
        // `make bench`: the resilience stack's per-request overhead.
        .executableTarget(
            name: "resilience-bench",
            dependencies: resilienceOverLoopback,
            path: "Benchmarks/ResilienceBenchmarks"
        ),
        .testTarget(
            name: "YAMLReaderTests",
            dependencies: ["YAMLReader"],
            path: "Tests/YAMLReaderTests"
        ),
        .testTarget(
            name: "OpenAPIModelTests",
            dependencies: ["OpenAPIModel"],
            path: "Tests/OpenAPIModelTests"
        ),
        .testTarget(
            name: "CodegenTests",
            dependencies: ["Codegen"],
            path: "Tests/CodegenTests",
            // Reference specs and the exact Swift they must generate (read by the tests, not compiled).
            exclude: ["References"]
        ),
        // Consumer tests: every operation of the four generated clients over
        // real HTTP on a loopback socket, answered with the specs' examples.
        .testTarget(
            name: "ClientConsumerTests",
            dependencies: generatedClients.map { .target(name: $0) } + [
                clientRuntime, clientRuntimeTesting, "LoopbackHTTPServer", "OpenAPIModel", resilience, "BackendDoubles",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/ClientConsumerTests"
        ),
        // A client generated from Tests/Fixtures/features.yaml (one schema or
        // operation per generator feature), so tests prove the generated code
        // behaves; regenerated by `make generate` like the real clients.
        .target(
            name: "FeatureClient",
            dependencies: [
                clientRuntime,
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/Support/FeatureClient"
        ),
        .testTarget(
            name: "GeneratedFeatureTests",
            dependencies: [
                "FeatureClient", clientRuntime, clientRuntimeTesting, "LoopbackHTTPServer", resilience,
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/GeneratedFeatureTests"
        ),
        .testTarget(
            name: "ContractCheckTests",
            dependencies: ["ContractCheck", "OpenAPIModel"],
            path: "Tests/ContractCheckTests"
        ),
        .testTarget(
            name: "SandboxTests",
            dependencies: ["SandboxCore", "ContractCheck"],
            path: "Tests/SandboxTests"
        ),
        .testTarget(
            name: "SpecDiffTests",
            dependencies: ["SpecDiff", "OpenAPIModel", "YAMLReader"],
            path: "Tests/SpecDiffTests"
        ),
        .testTarget(
            name: "ClientgenTests",
            dependencies: ["clientgen", "Codegen", "ProcessTestSupport"],
            path: "Tests/ClientgenTests"
        ),
    ] + generatedClients.map { name in
        .target(
            name: name,
            dependencies: [
                clientRuntime,
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Sources/Clients/\(name)"
        )
    },
    swiftLanguageModes: [.v6]
)
