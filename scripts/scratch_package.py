"""A scratch Swift package whose targets are generated clients, each
depending on ClientRuntime from this repository's package (by path: the
checkout as it is), with one library product naming them all, so
`swift build --product NAME` compiles them and nothing else the
repository's package holds (used by corpus.py and
bench_codegen.py), all into one build folder; and a timed debug build of
one target of such a package (bench_codegen.py, bench_compare.py)."""
import os, shutil, subprocess, tempfile, time

# One build folder for every scratch package of this kind (`swift build
# --scratch-path`): ClientRuntime and the packages it stands on are compiled
# once, by whichever script builds first, and reused by the others.
BUILD_FOLDER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), '.build-scratch')


def build_command(package, *selection, folder=BUILD_FOLDER):
    """`swift build` of `package` into the shared build folder (or `folder`), for `selection` (e.g. --product NAME)."""
    return ['swift', 'build', '--package-path', package, '--scratch-path', folder, *selection]


def write_manifest(package, root, modules, name, drivers=False):
    """Writes `package`/Package.swift with one target per module in `modules`;
    with `drivers`, each module also gets an executable `<module>Driver`
    (its conformance driver, scripts/conformance) and the products are those
    executables instead of one library."""
    runtime = ('.product(name: "ClientRuntime", package: "OpenAPIMobileClients"), '
               '.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"), .product(name: "HTTPTypes", package: "swift-http-types")')
    targets = [f'        .target(name: "{m}", dependencies: [{runtime}])' for m in modules]
    names = ', '.join(f'"{m}"' for m in modules)
    products = f'.library(name: "{name}", targets: [{names}])'
    dependencies = ''
    if drivers:
        targets += [f'        .executableTarget(name: "{m}Driver", dependencies: ["{m}", {runtime}, '
                    '.product(name: "_ClientConformance", package: "OpenAPIMobileClients"), '
                    '.product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession")])' for m in modules]
        products = ', '.join(f'.executable(name: "{m}Driver", targets: ["{m}Driver"])' for m in modules)
        dependencies = '\n        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.0.0"),'
    target_list = ',\n'.join(targets)
    manifest = f'''// swift-tools-version:6.0
// Scratch package: generated clients compiled against ClientRuntime.
import PackageDescription

let package = Package(
    name: "{name}",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [{products}],
    dependencies: [
        .package(name: "OpenAPIMobileClients", path: "{root}"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),{dependencies}
    ],
    targets: [
{target_list}
    ],
    swiftLanguageModes: [.v6]
)
'''
    os.makedirs(package, exist_ok=True)
    with open(os.path.join(package, 'Package.swift'), 'w') as f:
        f.write(manifest)


def timed_debug_build(package, target, warm_target=None):
    """A from-scratch debug build of `target` in `package` (its own `.build`),
    after `warm_target` (its dependencies) is built when given, so the
    figure is the target's own: (wall seconds, peak RSS in MB of the largest
    compiler process, the compilers' CPU seconds). SystemExit with the
    build's output when it fails."""
    # Forget the target's objects and the build plan (whose output file map
    # names the generated files).
    shutil.rmtree(os.path.join(package, '.build', 'debug', target + '.build'), ignore_errors=True)
    for plan in ('debug.yaml', 'build.db'):
        if os.path.exists(os.path.join(package, '.build', plan)):
            os.remove(os.path.join(package, '.build', plan))
    if warm_target:
        subprocess.run(['swift', 'build', '--package-path', package, '--target', warm_target], check=True, capture_output=True)
    with tempfile.NamedTemporaryFile('r') as timing:
        started = time.monotonic()
        build = subprocess.run(['/usr/bin/time', '-f', '%M %U %S', '-o', timing.name, 'swift', 'build', '--package-path', package, '--target', target],
                               capture_output=True, text=True)
        seconds = time.monotonic() - started
        if build.returncode != 0:
            raise SystemExit(f'{target} did not compile in {package}:\n{build.stdout[-3000:]}')
        peak_kb, user, system = timing.read().split()[-3:]
    return seconds, int(peak_kb) / 1024, float(user) + float(system)
