"""apple/swift-openapi-generator 1.14.3, the peer the benchmarks compare
with, built in release in a scratch package (`.build-peer/package`), and the
scratch package its generated clients compile in (used by bench_codegen.py
and ios_size.py)."""
import os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What the peer generates: types and a client, public.
CONFIG = 'generate: [types, client]\naccessModifier: public\n'


def peer_executable(purpose='no peer figures'):
    """The peer's `swift-openapi-generator`, built when needed; None (said on
    stderr, with `purpose`) when it does not build here."""
    package = os.path.join(ROOT, '.build-peer', 'package')
    os.makedirs(os.path.join(package, 'Sources', 'Peer'), exist_ok=True)
    with open(os.path.join(package, 'Package.swift'), 'w') as handle:
        handle.write('''// swift-tools-version:5.9
// Scratch package of the benchmarks: builds apple/swift-openapi-generator to compare with.
import PackageDescription

let package = Package(
    name: "PeerGenerator",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")],
    targets: [.target(name: "Peer", path: "Sources/Peer")]
)
''')
    with open(os.path.join(package, 'Sources', 'Peer', 'Peer.swift'), 'w') as handle:
        handle.write('// An empty target, so the package resolves.\n')
    build = subprocess.run(['swift', 'build', '-c', 'release', '--package-path', package, '--product', 'swift-openapi-generator'],
                           capture_output=True, text=True)
    if build.returncode != 0:
        print(f'peer: apple/swift-openapi-generator 1.14.3 did not build here; {purpose}', file=sys.stderr)
        return None
    return os.path.join(package, '.build', 'release', 'swift-openapi-generator')


def write_client_package(package, target, platforms, comment):
    """`package`/Package.swift: one target, `target`, on swift-openapi-runtime
    and swift-http-types, as the peer's generated code needs."""
    with open(os.path.join(package, 'Package.swift'), 'w') as handle:
        handle.write(f'''// swift-tools-version:5.9
// {comment}
import PackageDescription

let package = Package(
    name: "PeerClients",
    platforms: [{platforms}],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
    ],
    targets: [
        .target(name: "{target}", dependencies: [
            .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
    ]
)
''')
