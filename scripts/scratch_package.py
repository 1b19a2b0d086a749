"""A scratch Swift package whose targets are generated clients, each
depending on ClientRuntime, the package in this repository's Runtime/
folder (used by corpus.py and
bench_codegen.py)."""
import os


def write_manifest(package, root, modules, name):
    """Writes `package`/Package.swift with one target per module in `modules`."""
    targets = ',\n'.join(
        f'        .target(name: "{m}", dependencies: [.product(name: "ClientRuntime", package: "Runtime"), '
        f'.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"), .product(name: "HTTPTypes", package: "swift-http-types")])'
        for m in modules)
    manifest = f'''// swift-tools-version:6.0
// Scratch package: generated clients compiled against ClientRuntime.
import PackageDescription

let package = Package(
    name: "{name}",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(path: "{os.path.join(root, 'Runtime')}"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
    ],
    targets: [
{targets}
    ],
    swiftLanguageModes: [.v6]
)
'''
    os.makedirs(package, exist_ok=True)
    with open(os.path.join(package, 'Package.swift'), 'w') as f:
        f.write(manifest)
