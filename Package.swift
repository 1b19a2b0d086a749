// swift-tools-version:6.0
import PackageDescription

/// The generator (YAML reading -> OpenAPI model -> diagnostics -> CLI) lives in
/// `Generator/`, one folder per pipeline stage; runtime modules that apps link
/// live in `Sources/`.
let package = Package(
    name: "OpenAPIMobileClients",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "clientgen", targets: ["clientgen"]),
        .library(name: "OpenAPIModel", targets: ["OpenAPIModel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
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
        // The command-line tool.
        .executableTarget(
            name: "clientgen",
            dependencies: [
                "OpenAPIModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Generator/clientgen"
        ),
        // `make bench`: parse timings against the raw libyaml event loop.
        .executableTarget(
            name: "clientgen-bench",
            dependencies: ["OpenAPIModel", "YAMLReader", "CLibYAML"],
            path: "Benchmarks/ParseBenchmarks"
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
            name: "ClientgenTests",
            dependencies: ["clientgen"],
            path: "Tests/ClientgenTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
