// swift-tools-version:6.0
import PackageDescription

/// One package for everything an app or a team adds by this repository's
/// URL and a version: the generated clients of the four backends and their
/// SDKs, the runtime (ClientRuntime, what every generated client links,
/// and the middlewares an app adds), and the generator with its plugins.
/// SwiftPM names a package by its repository's root, and refuses a package
/// resolved from a URL that depends on a local path, so the audiences are
/// folders of this one manifest, not packages of their own:
///
/// - `Generator/`: clientgen and its plugins (what `make generate` runs),
/// - `Runtime/`: ClientRuntime (all a generated client links), Resilience (middlewares any client may add),
/// - `Sandbox/`: the backends as their documents describe them, which the
///   SDK tests run as backend doubles,
/// - `Sources/`, `Examples/`, `Tests/`, `Benchmarks/`: the clients, the
///   SDKs, the sample apps, their tests and benchmarks.
///
/// An app fetches every dependency below (SwiftPM fetches a package's
/// whole dependency list) but builds only what its products use. What must
/// never reach an app stays out of this manifest: the sandbox's HTTP server
/// (Hummingbird, SwiftNIO) is the package in `Sandbox/Server`, the peer
/// generator the one in `Benchmarks/PeerComparison`; nothing resolved by
/// URL depends on either.
///
/// Sections below: dependencies, generator, runtime, clients, SDKs,
/// sandbox, examples, test support, tests, benchmarks, products.

// MARK: Dependencies

/// The App Store privacy manifest of a target that calls a required-reason
/// API or collects data (`make privacy` checks each against its sources;
/// docs/Privacy.md has the table an app's privacy answers need).
let privacyManifest: Resource = .copy("PrivacyInfo.xcprivacy")
let openAPIRuntime: Target.Dependency = .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")
let urlSession: Target.Dependency = .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession")
let httpTypes: Target.Dependency = .product(name: "HTTPTypes", package: "swift-http-types")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let grdb: Target.Dependency = .product(name: "GRDB", package: "GRDB.swift")

// MARK: Generator

/// The libyaml the YAML reader links: the system's on Linux, the vendored
/// copy on Apple platforms, or the vendored copy everywhere when the
/// environment says `LIBYAML=vendored`.
let libYAML: (dependencies: [Target.Dependency], settings: [SwiftSetting]) = {
    let apple: [Platform] = [.macOS, .macCatalyst, .iOS, .tvOS, .watchOS, .visionOS]
    if Context.environment["LIBYAML"] == "vendored" { return (["CLibYAMLVendored"], [.define("LIBYAML_VENDORED")]) }
    return (
        [.target(name: "CLibYAML", condition: .when(platforms: [.linux, .android, .windows, .openbsd, .wasi])),
         .target(name: "CLibYAMLVendored", condition: .when(platforms: apple))],
        [.define("LIBYAML_VENDORED", .when(platforms: apple))])
}()

/// The pipeline reads top to bottom, one folder per stage under
/// `Generator/Sources/`: CLibYAML -> YAMLReader -> OpenAPIModel -> Codegen
/// (and SpecDiff beside it) -> clientgen.
let generatorTargets: [Target] = [
    // Stage 0: libyaml. On Linux the system's (libyaml-dev), through
    // pkg-config; on Apple platforms, where there is none to link, the
    // vendored release (upstream sources unmodified, every function
    // renamed oamc_yaml_...: scripts/update_libyaml.py), so a Mac needs
    // Xcode alone. `LIBYAML=vendored` builds the vendored copy on Linux too
    // (`make yaml-copies`: both copies give the same trees).
    .systemLibrary(name: "CLibYAML", path: "Generator/Sources/CLibYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
    .target(
        name: "CLibYAMLVendored", path: "Generator/Sources/CLibYAMLVendored", exclude: ["upstream", "VERSION"],
        cSettings: [.headerSearchPath("upstream/include"), .define("YAML_DECLARE_STATIC")]),
    // Stage 1: libyaml events -> node tree with line:column marks.
    .target(name: "YAMLReader", dependencies: libYAML.dependencies, path: "Generator/Sources/YAMLReader", swiftSettings: libYAML.settings),
    // Stage 2: node tree -> typed, $ref-resolved OpenAPI document + diagnostics.
    .target(name: "OpenAPIModel", dependencies: ["YAMLReader"], path: "Generator/Sources/OpenAPIModel"),
    // Stage 3: OpenAPI model -> Swift declarations -> text.
    .target(name: "Codegen", dependencies: ["OpenAPIModel"], path: "Generator/Sources/Codegen"),
    // Beside stage 3: breaking-change rules between two versions of a
    // spec, with the Swift symbols each change touches.
    .target(name: "SpecDiff", dependencies: ["OpenAPIModel", "Codegen"], path: "Generator/Sources/SpecDiff"),
    // The command-line tool: lint, generate, diff.
    .executableTarget(name: "clientgen", dependencies: ["OpenAPIModel", "Codegen", "SpecDiff", argumentParser], path: "Generator/Sources/clientgen"),
    // For app packages with their own specs: the client generated on every
    // build from the target's openapi.yaml (build-tool plugin), or written
    // into the target's sources on demand (`swift package generate-clients`).
    .plugin(name: "ClientgenBuildPlugin", capability: .buildTool(), dependencies: ["clientgen"], path: "Generator/Plugins/ClientgenBuildPlugin"),
    .plugin(
        name: "ClientgenCommandPlugin",
        capability: .command(
            intent: .custom(verb: "generate-clients", description: "Write the client of each target holding openapi.yaml into its sources"),
            permissions: [.writeToPackageDirectory(reason: "writes the generated client into the target's Generated/ folder")]),
        dependencies: ["clientgen"], path: "Generator/Plugins/ClientgenCommandPlugin"),
]

// MARK: Runtime

/// What an app links with a generated client (`Runtime/Sources/`): its
/// libraries depend on swift-openapi-runtime, swift-http-types and
/// swift-log only.
let runtimeTargets: [Target] = [
    // What generated clients call: coding, parameters, errors, validation.
    .target(name: "ClientRuntime", dependencies: ["RuntimeSupport", openAPIRuntime, httpTypes], path: "Runtime/Sources/ClientRuntime"),
    // swift-openapi-runtime middlewares that make any client retry-safe:
    // credentials, token refresh, retry, idempotency keys, redaction; and
    // the layer the backend SDKs share (one call path, one stack builder,
    // one failure classification).
    .target(
        name: "Resilience", dependencies: ["ClientRuntime", "RuntimeSupport", openAPIRuntime, httpTypes, logging], path: "Runtime/Sources/Resilience",
        resources: [privacyManifest]),
    // Small building blocks the runtime, the SDKs and the sandbox share:
    // a value behind a lock, work that callers join, a seedable random generator.
    .target(name: "RuntimeSupport", path: "Runtime/Sources/RuntimeSupport"),
    // For apps' tests: an in-memory transport that records requests and
    // answers from a script; a log capture; a clock a test moves.
    .target(name: "ClientRuntimeTesting", dependencies: ["ClientRuntime", "RuntimeSupport", openAPIRuntime, httpTypes, logging], path: "Runtime/Sources/ClientRuntimeTesting"),
    // The loop of the conformance drivers `clientgen conformance-driver`
    // renders, and their streaming transport: this repository's harness,
    // not an app's (the underscored product `_ClientConformance`).
    .target(name: "ClientConformance", dependencies: ["ClientRuntime", openAPIRuntime, httpTypes], path: "Runtime/Sources/ClientConformance"),
    // For tests that need real HTTP over a real socket: an in-process
    // HTTP/1.1 server on 127.0.0.1 with scripted, fault-injecting replies.
    .target(name: "LoopbackHTTPServer", dependencies: ["RuntimeSupport"], path: "Runtime/Sources/LoopbackHTTPServer"),
]

// MARK: Clients

/// The generated clients (`make generate` writes `Sources/Clients/<Module>`
/// from `specs/clients.json`); each is a target of its own, so an app links
/// only the backends it talks to.
let generatedClients = ["SecureNodeAPI", "SoulAPI", "SafepocketAPI", "MobileTrackerAPI"]

/// A generated client target: what every generated file imports.
func client(_ name: String, path: String) -> Target {
    .target(name: name, dependencies: ["ClientRuntime", openAPIRuntime, httpTypes], path: path)
}

// MARK: SDKs

/// The SDKs, one per backend, each on its generated client: the library
/// products an app links.
let sdkTargets: [Target] = [
    // What only the SDKs share, `package` but for what their public API
    // takes (ConnectionConfiguration, the queued-write reports): the
    // connection, the one middleware stack, the call path and its failure
    // classification, the signed-in wiring, the offline write queue.
    .target(name: "SDKCore", dependencies: ["Resilience", "ClientRuntime", "RuntimeSupport", openAPIRuntime, httpTypes, logging]),
    // How the SDKs open the SQLite databases they keep data in (lock wait,
    // WAL, durability, secure_delete, migrations): `package` only.
    .target(name: "DurableStore", dependencies: [grdb]),
    // SecureNode's offline branding dataset (SQLite through GRDB): atomic
    // syncs with their cursor, local lookups, the Call Directory snapshot.
    .target(name: "BrandingStore", dependencies: ["DurableStore", grdb, "SecureNodeCallDirectory", "RuntimeSupport"], resources: [privacyManifest]),
    // What the Call Directory extension links, Foundation only: the shared
    // files' formats, the load state, the whole request in one call.
    .target(name: "SecureNodeCallDirectory"),
    // Sync engine, billing outbox, device lifecycle, logo cache, the facade.
    .target(
        name: "SecureNodeEngine", dependencies: ["BrandingStore", "DurableStore", "SecureNodeAPI", "Resilience", "SDKCore", "ClientRuntime", "RuntimeSupport", grdb, urlSession, logging],
        resources: [privacyManifest]),
    // The SDK as its iOS README presents it: `SecureNode.configure(_:)`, the
    // `SecureNodeSDK` class with completion-based call events, over the engine above.
    .target(name: "SecureNodeSDK", dependencies: ["SecureNodeEngine", "BrandingStore", "Resilience", "SDKCore", "RuntimeSupport", openAPIRuntime]),
    // OTP sign-in with the resend cooldown, the session, moods.
    .target(name: "Soul", dependencies: ["SoulAPI", "Resilience", "SDKCore", "ClientRuntime", "RuntimeSupport", urlSession, httpTypes, logging], resources: [privacyManifest]),
    // PKCE sign-in, the session, the error envelope, idempotency keys on writes.
    .target(
        name: "Safepocket", dependencies: ["SafepocketAPI", "Resilience", "SDKCore", "ClientRuntime", urlSession, httpTypes, logging, "RuntimeSupport"],
        resources: [privacyManifest]),
    // Sessions, dual storage and a durable, bounded event queue.
    .target(
        name: "MobileTracker", dependencies: ["MobileTrackerAPI", "DurableStore", "Resilience", "SDKCore", "ClientRuntime", "RuntimeSupport", grdb, urlSession, logging],
        resources: [privacyManifest]),
]

// MARK: Sandbox

/// The sandbox's core (`Sandbox/Sources/`): the four backends as their
/// documents describe them, every request checked against its spec. The
/// SDK tests run its behaviours as backend doubles; its HTTP server is the
/// package in `Sandbox/Server`.
let sandboxTargets: [Target] = [
    // Requests (and, in strict mode, answers) checked against a spec: the
    // operation they match, their parameters and body against its
    // schemas, each violation with the spec's file:line:column.
    .target(name: "ContractCheck", dependencies: ["OpenAPIModel"], path: "Sandbox/Sources/ContractCheck"),
    // Backends under path prefixes, each request checked against its
    // spec, answered from the backend's state as its document describes
    // (or with the spec's example), faults injected from a seed, counted.
    .target(name: "SandboxCore", dependencies: ["ContractCheck", "OpenAPIModel", "RuntimeSupport"], path: "Sandbox/Sources/SandboxCore"),
]

// MARK: Examples

/// The sample apps (`Examples/<name>`): the code an app team copies, on the
/// public products only, each depending on its SDK alone (the SDK
/// re-exports its generated client and the runtime types its API uses;
/// `make bench-build` type-checks them as code outside this package).
let exampleTargets: [Target] = [
    // The four tools' one `--log-level` / `--verbose`.
    .target(name: "ExampleLogging", dependencies: [argumentParser, logging], path: "Examples/ExampleLogging"),
    .executableTarget(
        name: "soul-example", dependencies: ["Soul", "ExampleLogging", argumentParser, logging], path: "Examples/soul-example"),
    .executableTarget(
        name: "safepocket-example", dependencies: ["Safepocket", "ExampleLogging", argumentParser, logging],
        path: "Examples/safepocket-example"),
    .executableTarget(name: "tracker-example", dependencies: ["MobileTracker", "ExampleLogging", argumentParser, logging], path: "Examples/tracker-example"),
    .executableTarget(
        name: "securenode-example", dependencies: ["SecureNodeSDK", "ExampleLogging", argumentParser, urlSession, logging],
        path: "Examples/securenode-example"),
]

// MARK: The iOS sample app's screens

/// The logic of the iOS sample app's screens (`Examples/ios-app/SampleAppModels`),
/// one view model per screen, plain Swift: the Linux tests run each against
/// the sandbox's backends; the app (`Examples/ios-app`, a package of its
/// own) draws them with SwiftUI.
let sampleAppTargets: [Target] = [
    .target(
        name: "SampleAppModels", dependencies: ["Soul", "Safepocket", "MobileTracker", "SecureNodeSDK"],
        path: "Examples/ios-app/SampleAppModels"),
]

// MARK: Test support

/// Targets the tests share (`Tests/Support/<name>`): the generator's tests, the runtime's and the SDKs'.
let testSupportTargets: [Target] = [
    // Waiting for the state an assertion reads, with a hang guard, never for a time.
    .target(name: "Waiting", path: "Tests/Support/Waiting"),
    // Finding, running and killing the child processes tests start.
    .target(name: "ProcessTestSupport", dependencies: ["Waiting"], path: "Tests/Support/ProcessTestSupport"),
    // Backends that behave as their documents say (the sandbox's behaviours)
    // on the loopback server.
    .target(
        name: "BackendDoubles",
        dependencies: ["SDKCore", 
            "LoopbackHTTPServer", "OpenAPIModel", "SandboxCore", "ContractCheck", "RuntimeSupport", "ClientRuntimeTesting", logging, urlSession, openAPIRuntime, httpTypes,
        ],
        path: "Tests/Support/BackendDoubles"),
    // Every SOUL and Safepocket operation through its SDK's stack against
    // injected faults (the retry contract; tests and bench).
    .target(
        name: "RetryMatrix",
        dependencies: ["Soul", "Safepocket", "SoulAPI", "SafepocketAPI", "Resilience", "BackendDoubles", "LoopbackHTTPServer", "RuntimeSupport", logging],
        path: "Tests/Support/RetryMatrix"),
    // A client generated from Tests/Fixtures/features.yaml (one schema or
    // operation per generator feature), regenerated by `make generate`.
    client("FeatureClient", path: "Tests/Support/FeatureClient"),
    // Processes for the kill tests to SIGKILL: one tracking and delivering,
    // one delivering the billing outbox, one running a sync.
    .executableTarget(name: "tracker-child", dependencies: ["MobileTracker", "Resilience", logging], path: "Tests/Support/tracker-child"),
    .executableTarget(
        name: "outbox-delivery-child", dependencies: ["SecureNodeEngine", "SecureNodeAPI", "Resilience", urlSession], path: "Tests/Support/outbox-delivery-child"),
    .executableTarget(name: "branding-crash-child", dependencies: ["BrandingStore"], path: "Tests/Support/branding-crash-child"),
    // iOS's side of Call Directory requests: what it holds, CallKit's rules
    // checked on every call (a broken rule is a test failure).
    .target(name: "CallDirectoryTesting", dependencies: ["SecureNodeCallDirectory", "RuntimeSupport"], path: "Tests/Support/CallDirectoryTesting"),
    // iOS's rules for the frameworks the SDKs drive, kept by doubles on
    // Linux (BGTaskScheduler, ...): a rule iOS traps on is a test failure.
    .target(
        name: "PlatformRules", dependencies: ["SecureNodeEngine", "MobileTracker", "Resilience", "RuntimeSupport", "Waiting"],
        path: "Tests/Support/PlatformRules"),
]

// MARK: Tests

/// The reference tests' specs (`Generator/Tests/References/ReferenceName/name.yaml`),
/// each with the exact Swift files it must generate beside it. Each folder is
/// a target, compiled against ClientRuntime whenever the tests are built (as
/// the peer generator's consumer tests compile its output), so a reference
/// that reads right but does not build fails the build; `ReferenceTests`
/// checks the generator writes exactly these files and that every folder is
/// listed here.
let generatorReferences = [
    "additional-properties", "assumed-marks", "compositions", "defaults", "enums", "event-streams", "formats", "openapi-32", "inline-and-odd-names", "nullable",
    "offline-extensions", "operations", "properties", "recursive", "secret-marks", "security-schemes", "shared-shapes", "streamed-arrays",
]

/// `assumed-marks` -> `ReferenceAssumedMarks`.
func referenceModule(_ name: String) -> String {
    "Reference" + name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
}

/// The compiled references (see ``generatorReferences``).
let generatorReferenceTargets: [Target] = generatorReferences.map { name in
    .target(
        name: referenceModule(name), dependencies: ["ClientRuntime", openAPIRuntime, httpTypes], path: "Generator/Tests/References/\(referenceModule(name))",
        exclude: ["\(name).yaml"])
}

/// The generator's tests (`Generator/Tests/`).
let generatorTestTargets: [Target] = [
    .testTarget(name: "YAMLReaderTests", dependencies: ["YAMLReader"], path: "Generator/Tests/YAMLReaderTests"),
    // Every node of a file's tree, for `make yaml-copies` (built against each libyaml copy).
    .executableTarget(name: "yaml-tree-dump", dependencies: ["YAMLReader"], path: "Generator/Tests/yaml-tree-dump"),
    .testTarget(name: "OpenAPIModelTests", dependencies: ["OpenAPIModel"], path: "Generator/Tests/OpenAPIModelTests"),
    .testTarget(
        name: "CodegenTests", dependencies: ["Codegen"] + generatorReferences.map { .target(name: referenceModule($0)) },
        path: "Generator/Tests/CodegenTests"),
    .testTarget(name: "SpecDiffTests", dependencies: ["SpecDiff", "OpenAPIModel", "YAMLReader"], path: "Generator/Tests/SpecDiffTests"),
    .testTarget(name: "ClientgenTests", dependencies: ["clientgen", "Codegen", "ProcessTestSupport"], path: "Generator/Tests/ClientgenTests"),
]

/// The runtime's and the sandbox's tests (`Runtime/Tests/`, `Sandbox/Tests/`).
let runtimeTestTargets: [Target] = [
    .testTarget(name: "RuntimeSupportTests", dependencies: ["RuntimeSupport", "Waiting"], path: "Runtime/Tests/RuntimeSupportTests"),
    .testTarget(name: "ClientRuntimeTests", dependencies: ["ClientRuntime", httpTypes], path: "Runtime/Tests/ClientRuntimeTests"),
    .testTarget(
        name: "ResilienceTests",
        dependencies: ["SDKCore", 
            "Resilience", "ClientRuntime", "ClientRuntimeTesting", "LoopbackHTTPServer", "ProcessTestSupport", "Waiting", "PlatformRules", openAPIRuntime, urlSession,
            httpTypes, logging,
        ],
        path: "Runtime/Tests/ResilienceTests"),
    .testTarget(name: "ContractCheckTests", dependencies: ["ContractCheck", "OpenAPIModel"], path: "Sandbox/Tests/ContractCheckTests"),
    .testTarget(name: "SandboxTests", dependencies: ["SandboxCore", "ContractCheck"], path: "Sandbox/Tests/SandboxTests"),
]

/// The clients' and SDKs' tests (`Tests/`).
let sdkTestTargets: [Target] = [
    .testTarget(
        name: "BrandingStoreTests",
        dependencies: [
            "BrandingStore", "DurableStore", "branding-crash-child", "ProcessTestSupport", "RuntimeSupport", "Waiting", grdb, "SecureNodeCallDirectory", "CallDirectoryTesting",
        ]),
    .testTarget(name: "SecureNodeCallDirectoryTests", dependencies: ["SecureNodeCallDirectory", "CallDirectoryTesting"]),
    .testTarget(
        name: "SecureNodeTests",
        dependencies: ["SDKCore", 
            "SecureNodeEngine", "SecureNodeAPI", "BrandingStore", "Resilience", "ClientRuntime", "ClientRuntimeTesting", "BackendDoubles", "LoopbackHTTPServer", "outbox-delivery-child",
            "ProcessTestSupport", "RuntimeSupport", "Waiting", urlSession, httpTypes, "SecureNodeCallDirectory", "CallDirectoryTesting", "PlatformRules",
        ]),
    .testTarget(
        name: "SecureNodeSDKTests",
        dependencies: [
            "SecureNodeSDK", "SecureNodeEngine", "BrandingStore", "BackendDoubles", "LoopbackHTTPServer", "RuntimeSupport", "Waiting", "SampleAppModels", urlSession,
            "PlatformRules", "MobileTracker",
            openAPIRuntime, httpTypes,
        ]),
    .testTarget(
        name: "SoulTests",
        dependencies: ["SDKCore", 
            "Soul", "SoulAPI", "Resilience", "ClientRuntimeTesting", "BackendDoubles", "LoopbackHTTPServer", "ProcessTestSupport", "RuntimeSupport",
            "Waiting", logging,
        ]),
    .testTarget(
        name: "SafepocketTests",
        dependencies: ["SDKCore", 
            "Safepocket", "SafepocketAPI", "Resilience", "ClientRuntimeTesting", "BackendDoubles", "LoopbackHTTPServer", "OpenAPIModel", "PlatformRules",
            "ProcessTestSupport", "RuntimeSupport", "Waiting", logging,
        ]),
    .testTarget(
        name: "MobileTrackerTests",
        dependencies: ["SDKCore", 
            "MobileTracker", "MobileTrackerAPI", "Resilience", "ClientRuntimeTesting", "BackendDoubles", "LoopbackHTTPServer", "ProcessTestSupport",
            "RuntimeSupport", "tracker-child", "Waiting", "PlatformRules", logging,
        ]),
    .testTarget(name: "RetryContractTests", dependencies: ["RetryMatrix", "SoulAPI", "SafepocketAPI", "SecureNodeAPI", "ClientRuntime"]),
    // Every operation of the four generated clients over real HTTP on a
    // loopback socket, answered with the specs' examples.
    .testTarget(
        name: "ClientConsumerTests",
        dependencies: generatedClients.map { .target(name: $0) } + [
            "ClientRuntime", "ClientRuntimeTesting", "LoopbackHTTPServer", "OpenAPIModel", "Resilience", "BackendDoubles", "RuntimeSupport", openAPIRuntime, urlSession, httpTypes,
        ]),
    // The generator's features, proved on the code it generated.
    .testTarget(
        name: "GeneratedFeatureTests",
        dependencies: ["FeatureClient", "ClientRuntime", "ClientRuntimeTesting", "LoopbackHTTPServer", "Resilience", urlSession, httpTypes]),
    .testTarget(
        name: "SampleAppModelsTests",
        dependencies: [
            "SampleAppModels", "Soul", "Safepocket", "SafepocketAPI", "MobileTracker", "SecureNodeSDK", "SecureNodeEngine", "Resilience", "BackendDoubles", "ClientRuntimeTesting",
            "LoopbackHTTPServer", "Waiting", "PlatformRules",
        ],
        path: "Examples/ios-app/Tests/SampleAppModelsTests"),
    .testTarget(
        name: "ExampleTests",
        dependencies: [
            "soul-example", "safepocket-example", "tracker-example", "securenode-example", "BackendDoubles", "LoopbackHTTPServer", "ProcessTestSupport",
            "Waiting",
        ]),
]

// MARK: Benchmarks

/// `make bench` programs (`Benchmarks/<name>`, `Generator/Benchmarks/<name>`),
/// each its own process so its memory figures are its own.
let benchmarkTargets: [Target] = [
    // What the benchmark programs share: the BENCH line, the peak memory.
    .target(name: "BenchSupport", path: "Benchmarks/BenchSupport"),
    // Parse timings against the raw libyaml event loop.
    .executableTarget(name: "clientgen-bench", dependencies: ["OpenAPIModel", "YAMLReader", "BenchSupport"], path: "Generator/Benchmarks/clientgen-bench"),
    // The resilience stack's per-request overhead.
    .executableTarget(
        name: "resilience-bench", dependencies: ["Resilience", "LoopbackHTTPServer", "BenchSupport", openAPIRuntime, urlSession, httpTypes, logging],
        path: "Benchmarks/resilience-bench"),
    // SOUL's refresh storm and the retry matrix.
    .executableTarget(
        name: "sdk-bench", dependencies: ["RetryMatrix", "BenchSupport", "Soul", "Resilience", "RuntimeSupport", "BackendDoubles", logging], path: "Benchmarks/sdk-bench"),
    // The MobileTracker queue (track cost, drain).
    .executableTarget(name: "tracker-bench", dependencies: ["MobileTracker", "Resilience", "BackendDoubles", "BenchSupport", logging], path: "Benchmarks/tracker-bench"),
    // The branding store at 1M records.
    .executableTarget(name: "branding-bench", dependencies: ["BrandingStore", "BenchSupport", grdb], path: "Benchmarks/branding-bench"),
    // The Call Directory extension's loads (complete, incremental) and the
    // host's changes file at 1M entries, one mode per process.
    .executableTarget(name: "call-directory-bench", dependencies: ["SecureNodeCallDirectory", "BenchSupport"], path: "Benchmarks/call-directory-bench"),
    // A 1M-record full sync over loopback HTTP through the generated client
    // into the store, streamed and buffered.
    .executableTarget(
        name: "sync-http-bench",
        dependencies: ["BrandingStore", "SecureNodeEngine", "SecureNodeAPI", "ClientRuntime", "LoopbackHTTPServer", "BenchSupport", openAPIRuntime, httpTypes],
        path: "Benchmarks/sync-http-bench"),
]

// MARK: Products

/// The SDK products an app links, one per backend (SecureNode has three layers).
let sdks = ["SecureNodeSDK", "SecureNodeEngine", "BrandingStore", "SecureNodeCallDirectory", "Soul", "Safepocket", "MobileTracker"]
/// The runtime products a team with its own spec links.
let runtimeLibraries = ["ClientRuntime", "Resilience", "ClientRuntimeTesting"]
/// Libraries of this repository's own tools (the sandbox server package
/// links them; the peer comparison's benchmark prints through BenchSupport;
/// the conformance drivers `make conformance` builds link ClientConformance)
/// and the iOS sample app's screens (for the app's own package,
/// `Examples/ios-app`): not for apps. SwiftPM offers every product
/// of a package, so these are named with a leading underscore, the
/// convention for products outside a package's API (as the peer
/// generator's `_OpenAPIGeneratorCore`): an app team's product list does
/// not lead them there, and no release promises them.
let internalLibraries = ["SandboxCore", "ContractCheck", "SampleAppModels", "BenchSupport", "ClientConformance"]

let package = Package(
    name: "OpenAPIMobileClients",
    // iOS is compiled for on every change (`make ios-check`), Linux built
    // and tested; macOS runs the generator and the plugins for iOS teams.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [.library(name: "Clients", targets: generatedClients)]
        + generatedClients.map { .library(name: $0, targets: [$0]) }
        + sdks.map { .library(name: $0, targets: [$0]) }
        + runtimeLibraries.map { .library(name: $0, targets: [$0]) }
        + [
            .executable(name: "clientgen", targets: ["clientgen"]),
            .plugin(name: "ClientgenBuildPlugin", targets: ["ClientgenBuildPlugin"]),
            .plugin(name: "ClientgenCommandPlugin", targets: ["ClientgenCommandPlugin"]),
        ]
        + internalLibraries.map { .library(name: "_" + $0, targets: [$0]) },
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.7.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: generatorTargets + runtimeTargets + generatedClients.map { client($0, path: "Sources/Clients/\($0)") } + sdkTargets
        + sandboxTargets + exampleTargets + sampleAppTargets + testSupportTargets + generatorReferenceTargets + generatorTestTargets + runtimeTestTargets
        + sdkTestTargets + benchmarkTargets,
    swiftLanguageModes: [.v6]
)
