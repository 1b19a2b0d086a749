// swift-tools-version:6.0
import PackageDescription

/// The generator: `clientgen` and the two SwiftPM plugins that run it, as a
/// package of its own, so that an app package that generates its client
/// with the plugins resolves swift-argument-parser and nothing else (the
/// runtime its generated code calls is the package in `../Runtime`).
///
/// The pipeline reads top to bottom, one folder per stage under `Sources/`:
/// CLibYAML -> YAMLReader -> OpenAPIModel -> Codegen (and SpecDiff beside it)
/// -> clientgen.
let package = Package(
    name: "Generator",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "clientgen", targets: ["clientgen"]),
        .plugin(name: "ClientgenBuildPlugin", targets: ["ClientgenBuildPlugin"]),
        .plugin(name: "ClientgenCommandPlugin", targets: ["ClientgenCommandPlugin"]),
        // For tools that read specs as the generator does (the sandbox's
        // contract check, this repository's tests).
        .library(name: "OpenAPIModel", targets: ["OpenAPIModel"]),
        // For this repository's process tests (children started, killed and read).
        .library(name: "ProcessTestSupport", targets: ["ProcessTestSupport"]),
        // `make bench`'s parse timings, a product so that the SDK package
        // builds it into the same build folder as every other benchmark.
        .executable(name: "clientgen-bench", targets: ["clientgen-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.7.0"),
    ],
    targets: [
        // MARK: Pipeline

        // Stage 0: the system libyaml, through pkg-config.
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // Stage 1: libyaml events -> node tree with line:column marks.
        .target(name: "YAMLReader", dependencies: ["CLibYAML"]),
        // Stage 2: node tree -> typed, $ref-resolved OpenAPI document + diagnostics.
        .target(name: "OpenAPIModel", dependencies: ["YAMLReader"]),
        // Stage 3: OpenAPI model -> Swift declarations -> text.
        .target(name: "Codegen", dependencies: ["OpenAPIModel"]),
        // Beside stage 3: breaking-change rules between two versions of a
        // spec, with the Swift symbols each change touches.
        .target(name: "SpecDiff", dependencies: ["OpenAPIModel", "Codegen"]),
        // The command-line tool: lint, generate, diff.
        .executableTarget(
            name: "clientgen",
            dependencies: [
                "OpenAPIModel", "Codegen", "SpecDiff",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Plugins

        // For app packages with their own specs: the client generated on every
        // build from the target's openapi.yaml (build-tool plugin), or written
        // into the target's sources on demand (`swift package generate-clients`).
        .plugin(name: "ClientgenBuildPlugin", capability: .buildTool(), dependencies: ["clientgen"]),
        .plugin(
            name: "ClientgenCommandPlugin",
            capability: .command(
                intent: .custom(verb: "generate-clients", description: "Write the client of each target holding openapi.yaml into its sources"),
                permissions: [.writeToPackageDirectory(reason: "writes the generated client into the target's Generated/ folder")]
            ),
            dependencies: ["clientgen"]
        ),

        // MARK: Test support

        // Finding, running and killing the child processes tests start.
        .target(name: "ProcessTestSupport", path: "Tests/Support/ProcessTestSupport"),

        // MARK: Tests

        .testTarget(name: "YAMLReaderTests", dependencies: ["YAMLReader"]),
        .testTarget(name: "OpenAPIModelTests", dependencies: ["OpenAPIModel"]),
        .testTarget(
            name: "CodegenTests",
            dependencies: ["Codegen"],
            // Reference specs and the exact Swift they must generate (read by the tests, not compiled).
            exclude: ["References"]
        ),
        .testTarget(name: "SpecDiffTests", dependencies: ["SpecDiff", "OpenAPIModel", "YAMLReader"]),
        .testTarget(name: "ClientgenTests", dependencies: ["clientgen", "Codegen", "ProcessTestSupport"]),

        // MARK: Benchmarks

        // `make bench`: parse timings against the raw libyaml event loop.
        .executableTarget(
            name: "clientgen-bench",
            dependencies: ["OpenAPIModel", "YAMLReader", "CLibYAML"],
            path: "Benchmarks/clientgen-bench"
        ),
    ],
    swiftLanguageModes: [.v6]
)
