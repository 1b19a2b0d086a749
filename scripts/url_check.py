#!/usr/bin/env python3
"""`make url-check`: an app adds this repository's products by URL and a
version rule, as every iOS team adds a package (Package.swift's
`.package(url:from:)`, or Xcode's File > Add Package Dependencies).

The repository is published as a git URL (`file://`, a bare repository
of the working tree tagged with the current version; scripts/published_package.py),
and scratch packages outside the repository depend on it:

1. An app that names only `SecureNodeSDK`, SecureNode's README line:
   `swift package resolve`, printing what it fetched.
2. An app that names every SDK product, the generated clients and the
   runtime libraries, by version rule (`from:`): resolved and built,
   its executable run (one line from each product it names); then the
   same manifest with `branch: "main"`, resolved.

Prints, for each, the packages fetched, their size and the modules built
(`BENCH url-*` lines) and fails when Hummingbird or SwiftNIO is fetched,
when anything does not resolve or build, or when the app prints other
than expected. The plugin by URL is `make plugin-check`.

Usage: url_check.py [--revision REV] [--keep]   (REV: publish a commit instead of the working tree)"""
import argparse, os, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_support
import published_package as published

parser = argparse.ArgumentParser()
parser.add_argument('--revision', help='publish this commit instead of the working tree')
parser.add_argument('--keep', action='store_true', help='keep the scratch folder')
args = parser.parse_args()

# Every library product an app links, and the module each one is imported as.
SDK_PRODUCTS = ['SecureNodeSDK', 'SecureNodeEngine', 'BrandingStore', 'SecureNodeCallDirectory', 'Soul', 'Safepocket', 'MobileTracker']
CLIENT_PRODUCTS = ['Clients', 'SecureNodeAPI', 'SoulAPI', 'SafepocketAPI', 'MobileTrackerAPI']
RUNTIME_PRODUCTS = ['ClientRuntime', 'Resilience', 'ClientRuntimeTesting']

# What the app does with each product: a real call, one line printed each.
MAIN = '''import BrandingStore
import ClientRuntime
import ClientRuntimeTesting
import Foundation
import MobileTracker
import MobileTrackerAPI
import Resilience
import Safepocket
import SafepocketAPI
import SecureNodeAPI
import SecureNodeCallDirectory
import SecureNodeEngine
import SecureNodeSDK
import Soul
import SoulAPI

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("url-check-\\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

// SecureNodeSDK: the README's API.
print("SecureNodeSDK", SecureNode.sdkVersion, SecureNodeEngine.backgroundRefreshTaskIdentifier)
// BrandingStore: an empty store, opened.
let store = try BrandingStore(path: folder.appendingPathComponent("branding.sqlite").path)
print("BrandingStore", store.lookup(e164: "+61412345678") == nil ? "empty" : "not empty")
// SecureNodeCallDirectory: where the extension reads the App Group's files.
print("SecureNodeCallDirectory", CallDirectoryFolder(appGroupContainer: folder).url.lastPathComponent)
// Safepocket: RFC 7636's example challenge.
print("Safepocket", PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")!.challenge)
// Soul: the staging server.
print("Soul", Soul.Environment.staging.baseURL.absoluteString)
// MobileTracker: a configuration.
print("MobileTracker", TrackerConfig(apiUrl: "https://tracker.example", xApiKey: "key").apiUrl ?? "")
// The generated clients and the runtime: a call through a scripted transport.
let transport = ScriptedTransport(replies: [.json(200, #"{"status":"ok"}"#)])
let soulAPI = SoulAPI.Client(server: .production, transport: transport, middlewares: [RetryMiddleware()])
// HealthStatus is an assumed shape (x-assumed): its fields are optional.
print("SoulAPI", try await soulAPI.checkHealth().status ?? "absent")
print("Clients", SecureNodeAPI.Client.Server.production.url.host ?? "", SafepocketAPI.Client.self, MobileTrackerAPI.Client.self)
print("ClientRuntime", JSONCoding.formatDateTime(Date(timeIntervalSince1970: 0)))
'''

EXPECTED_PREFIXES = ['SecureNodeSDK ', 'BrandingStore empty', 'SecureNodeCallDirectory ', 'Safepocket E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'Soul https://',
                     'MobileTracker https://tracker.example', 'SoulAPI ok', 'Clients ', 'ClientRuntime 1970-01-01T00:00:00']


fail = script_support.failing('url-check')


def swift(*arguments, cwd):
    result = subprocess.run(['swift', *arguments], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f'swift {" ".join(arguments)} in {os.path.basename(cwd)} exited {result.returncode}:\n'
             f'{result.stdout[-3000:]}{result.stderr[-3000:]}')
    return result


def write_app(folder, requirement, products, main):
    os.makedirs(os.path.join(folder, 'Sources', 'App'), exist_ok=True)
    dependencies = ', '.join(f'.product(name: "{name}", package: "{published.IDENTITY}")' for name in products)
    with open(os.path.join(folder, 'Package.swift'), 'w') as f:
        f.write(f'''// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(url: "{requirement[0]}", {requirement[1]}),
    ],
    targets: [
        .executableTarget(name: "App", dependencies: [{dependencies}]),
    ],
    swiftLanguageModes: [.v6]
)
''')
    with open(os.path.join(folder, 'Sources', 'App', 'main.swift'), 'w') as f:
        f.write(main)


def main():
    scratch = published.scratch_folder('url-check-')
    try:
        url, version = published.publish(scratch, revision=args.revision)
        what = f'commit {args.revision}' if args.revision else 'the working tree'
        print(f'url-check: {what} published as {url}, tagged {version}')
        problems = []

        # 1. SecureNode's README: the SDK by URL and version, nothing else.
        readme = os.path.join(scratch, 'ReadmeApp')
        write_app(readme, (url, f'from: "{version}"'), ['SecureNodeSDK'], 'import SecureNodeSDK\nprint(SecureNode.sdkVersion)\n')
        begin = time.monotonic()
        swift('package', 'resolve', cwd=readme)
        print(f'url-check: an app naming SecureNodeSDK resolved in {time.monotonic() - begin:.1f} s')
        problems += published.report('url-sdk-app', readme, built=False)

        # 2. Every product an app links, by version rule: resolved, built, run.
        app = os.path.join(scratch, 'App')
        write_app(app, (url, f'from: "{version}"'), SDK_PRODUCTS + CLIENT_PRODUCTS + RUNTIME_PRODUCTS, MAIN)
        begin = time.monotonic()
        swift('package', 'resolve', cwd=app)
        # What an app's build compiles: its own target and what it links (Xcode builds the app target).
        swift('build', '--product', 'App', cwd=app)
        build_time = time.monotonic() - begin
        problems += published.report('url-app', app)
        print(f'BENCH url-app-first-build {build_time:.1f} s')
        ran = subprocess.run([os.path.join(app, '.build', 'debug', 'App')], capture_output=True, text=True, timeout=120)
        lines = ran.stdout.splitlines()
        missing = [prefix for prefix in EXPECTED_PREFIXES if not any(line.startswith(prefix) for line in lines)]
        if ran.returncode != 0 or missing:
            fail(f'the app exited {ran.returncode} without {missing}:\n{ran.stdout}{ran.stderr[-2000:]}')
        print(f'url-check: the app built against {len(SDK_PRODUCTS + CLIENT_PRODUCTS + RUNTIME_PRODUCTS)} products and printed:')
        for line in lines:
            print(f'  {line}')

        # The same app following the main branch.
        branch = os.path.join(scratch, 'BranchApp')
        write_app(branch, (url, 'branch: "main"'), SDK_PRODUCTS + CLIENT_PRODUCTS + RUNTIME_PRODUCTS, MAIN)
        swift('package', 'resolve', cwd=branch)
        problems += published.report('url-branch-app', branch, built=False)

        if problems:
            fail(f'fetched what must never reach an app: {sorted(set(problems))}')
        print('url-check: ok')
    finally:
        if args.keep:
            print(f'url-check: scratch kept in {scratch}')
        else:
            published.remove(scratch)


main()
