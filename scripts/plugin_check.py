#!/usr/bin/env python3
"""`make plugin-check`: an app package outside this repository, as a team
with its own spec would write it, depending on this repository by URL and
a version rule (the working tree published as a tagged git repository,
scripts/published_package.py).

- It takes the plugins and the runtime the generated code calls
  (`ClientRuntime`) from that one package, and never fetches Hummingbird or
  SwiftNIO; it prints what it fetched and built (`BENCH plugin-app-*`).
- Its `PetsAPI` target holds `openapi.yaml` (the corpus's petstore) and
  `clientgen-config.json`, and applies `ClientgenBuildPlugin`: `swift build`
  generates the client and compiles it; the app's executable calls it
  against a local petstore and prints what it got.
- A spec warning shows in the build as `openapi.yaml:LINE:COLUMN: warning:`
  and an error fails it with `openapi.yaml:LINE:COLUMN: error: ...` (what a
  compiler diagnostic looks like, so an IDE shows it at the line).
- Its `CommittedAPI` target uses the command plugin:
  `swift package generate-clients --target CommittedAPI` writes the client
  into `Sources/CommittedAPI/Generated`, `--check` passes on it and fails
  once a generated file is edited.

Prints `BENCH plugin-first-build <s> s` and a last line `plugin: ok`; exits 1
on any failure."""
import glob, http.server, json, os, re, shutil, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_support
import published_package as published

root = os.path.abspath('.')


fail = script_support.failing('plugin')


def swift(*args, cwd, expect=0):
    result = subprocess.run(['swift', *args], cwd=cwd, capture_output=True, text=True)
    if expect is not None and (result.returncode == 0) != (expect == 0):
        fail(f'swift {" ".join(args)} exited {result.returncode}:\n{result.stdout[-4000:]}{result.stderr[-3000:]}')
    return result


class Petstore(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if not self.path.startswith('/v1/pets'):
            self.send_response(404)
            self.end_headers()
            return
        data = json.dumps([{'id': 1, 'name': 'Rex', 'tag': 'dog'}, {'id': 2, 'name': 'Tom'}]).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def main():
    identity = published.IDENTITY
    scratch = tempfile.mkdtemp(prefix='plugin-check-')
    try:
        url, version = published.publish(scratch)
        print(f'plugin: the working tree published as {url}, tagged {version}')
        app = os.path.join(scratch, 'PetsApp')
        for folder in ['Sources/PetsAPI', 'Sources/PetsApp', 'Sources/CommittedAPI']:
            os.makedirs(os.path.join(app, folder))
        spec = os.path.join(root, 'corpus', '01-oai-petstore.yaml')
        # The team's copy names a style a query parameter cannot take: a
        # warning at that line, and the build goes on.
        text = open(spec).read()
        marker = 'in: query\n'
        if marker not in text:
            fail('the petstore spec changed: no query parameter to give a style')
        with open(os.path.join(app, 'Sources/PetsAPI/openapi.yaml'), 'w') as f:
            f.write(text.replace(marker, marker + '          style: matrix\n', 1))
        shutil.copy(spec, os.path.join(app, 'Sources/CommittedAPI/openapi.yaml'))
        # SwiftPM drops a target without a Swift file of its own.
        for module in ['PetsAPI', 'CommittedAPI']:
            with open(os.path.join(app, f'Sources/{module}/{module}.swift'), 'w') as f:
                f.write(f'// {module}: the client generated from openapi.yaml in this folder.\n')
        with open(os.path.join(app, 'Sources/PetsAPI/clientgen-config.json'), 'w') as f:
            json.dump({'access': 'public', 'filter': {'operations': ['listPets'], 'paths': ['/pets/{petId}']}}, f)
        with open(os.path.join(app, 'Sources/CommittedAPI/clientgen-config.json'), 'w') as f:
            json.dump({'module': 'CommittedAPI', 'output': 'Generated', 'typeOverrides': {'formats': {'int64': 'Int'}}}, f)
        client_dependencies = f'''[
                .product(name: "ClientRuntime", package: "{identity}"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]'''
        with open(os.path.join(app, 'Package.swift'), 'w') as f:
            f.write(f'''// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "PetsApp",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "{url}", from: "{version}"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
    ],
    targets: [
        .target(
            name: "PetsAPI",
            dependencies: {client_dependencies},
            plugins: [.plugin(name: "ClientgenBuildPlugin", package: "{identity}")]
        ),
        .target(name: "CommittedAPI", dependencies: {client_dependencies}),
        .executableTarget(
            name: "PetsApp",
            dependencies: ["PetsAPI", "CommittedAPI", .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
''')
        with open(os.path.join(app, 'Sources/PetsApp/main.swift'), 'w') as f:
            f.write('''import Foundation
import OpenAPIURLSession
import PetsAPI

let client = PetsAPI.Client(serverURL: URL(string: CommandLine.arguments[1])!, transport: URLSessionTransport())
let pets = try await client.listPets(limit: 2)
print("pets:", pets.map(\\.name).joined(separator: ", "))
''')

        # The command plugin first: the app's build compiles CommittedAPI too.
        begin = time.monotonic()
        swift('package', '--allow-writing-to-package-directory', 'generate-clients', '--target', 'CommittedAPI', cwd=app)
        generated = sorted(os.listdir(os.path.join(app, 'Sources/CommittedAPI/Generated')))
        if not generated or not all(name.endswith('.swift') for name in generated):
            fail(f'generate-clients wrote {generated}')
        swift('package', '--allow-writing-to-package-directory', 'generate-clients', '--target', 'CommittedAPI', '--check', cwd=app)
        # The config's type override: every int64 an Int.
        committed_models = open(os.path.join(app, 'Sources/CommittedAPI/Generated', 'Models.swift')).read()
        if 'Int64' in committed_models or ': Int\n' not in committed_models:
            fail('the command plugin did not apply the config\'s typeOverrides (int64 as Int)')

        built = swift('build', '--product', 'PetsApp', cwd=app)
        first_build = time.monotonic() - begin
        unwanted = published.report('plugin-app', app)
        if unwanted:
            fail(f'the plugin user fetched {unwanted}: the sandbox server\'s packages must never reach a team')
        warning = next((l for l in (built.stdout + built.stderr).splitlines() if re.search(r'openapi\.yaml:\d+:\d+: warning: .*style: matrix', l)), None)
        if not warning:
            fail(f"the spec's warning did not reach the build output:\n{(built.stdout + built.stderr)[-3000:]}")
        server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Petstore)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        ran = subprocess.run([os.path.join(app, '.build', 'debug', 'PetsApp'), f'http://127.0.0.1:{server.server_address[1]}/v1'],
                             capture_output=True, text=True, timeout=60)
        server.shutdown()
        if ran.returncode != 0 or ran.stdout.strip() != 'pets: Rex, Tom':
            fail(f'the app printed {ran.stdout!r} {ran.stderr[-1000:]!r}')

        # A spec error is a build error at the spec's line and column.
        broken = os.path.join(app, 'Sources/PetsAPI/openapi.yaml')
        text = open(broken).read()
        if '$ref: "#/components/schemas/Pets"' not in text:
            fail('the petstore spec changed; pick another reference to break')
        with open(broken, 'w') as f:
            f.write(text.replace('$ref: "#/components/schemas/Pets"', '$ref: "#/components/schemas/Petz"', 1))
        result = swift('build', '--product', 'PetsApp', cwd=app, expect=1)
        output = result.stdout + result.stderr
        line = next((l for l in output.splitlines() if re.search(r'openapi\.yaml:\d+:\d+: error: ', l)), None)
        if not line:
            fail(f"a broken $ref did not fail the build at the spec's line:\n{output[-3000:]}")
        with open(broken, 'w') as f:
            f.write(text)

        # --check catches a hand edit of committed generated code.
        edited = os.path.join(app, 'Sources/CommittedAPI/Generated', generated[0])
        with open(edited, 'a') as f:
            f.write('// edited by hand\n')
        check = swift('package', '--allow-writing-to-package-directory', 'generate-clients', '--target', 'CommittedAPI', '--check', cwd=app, expect=1)
        if 'drift' not in check.stdout + check.stderr:
            fail(f'--check did not name the drift:\n{check.stdout[-2000:]}{check.stderr[-2000:]}')
        # The fix it names is the command this team runs, and SwiftPM's own
        # `error: ` is not said twice.
        said = check.stdout + check.stderr
        if 'generate-clients --target CommittedAPI' not in said or 'make generate' in said or 'error: error:' in said:
            fail(f'--check named a command this team does not have, or said error twice:\n{said[-2000:]}')

        # Each header names the spec by its path inside the package, not by a
        # path from the build folder.
        built_clients = glob.glob(os.path.join(app, '.build', 'plugins', 'outputs', '**', 'ClientgenBuildPlugin', '**', 'Client.swift'), recursive=True)
        if not built_clients:
            fail('no Client.swift under the build plugin\'s output folder')
        headers = {'build plugin': open(built_clients[0]).readline(), 'command plugin': open(os.path.join(app, 'Sources/CommittedAPI/Generated', 'Client.swift')).readline()}
        for (which, header), spec_path in zip(headers.items(), ['Sources/PetsAPI/openapi.yaml', 'Sources/CommittedAPI/openapi.yaml']):
            if f' from {spec_path}. ' not in header or '..' in header:
                fail(f'the {which}\'s header does not name {spec_path}: {header.strip()}')
        # The config's filter kept listPets and the path's showPetById, and left createPets out.
        operations = open(os.path.join(os.path.dirname(built_clients[0]), 'Operations.swift')).read()
        if 'func listPets(' not in operations or 'func showPetByID(' not in operations or 'createPets' in operations:
            fail('the build plugin did not apply the config\'s filter (listPets and /pets/{petId} kept, createPets left out)')
        # The command plugin refuses a target the build plugin generates, before
        # writing anything (both would produce Client.swift).
        refused = swift('package', '--allow-writing-to-package-directory', 'generate-clients', '--target', 'PetsAPI', cwd=app, expect=1)
        said = refused.stdout + refused.stderr
        if 'applies ClientgenBuildPlugin' not in said or os.path.exists(os.path.join(app, 'Sources/PetsAPI/Generated')):
            fail(f'generate-clients did not refuse a target that applies the build plugin:\n{said[-2000:]}')
        swift('build', '--product', 'PetsApp', cwd=app)

        print(f'plugin: build plugin generated and compiled PetsAPI; the app printed "{ran.stdout.strip()}"')
        print(f'plugin: headers name the spec inside the package: {headers["build plugin"].strip()[:120]}')
        print(f'plugin: generate-clients refused PetsAPI: {next((l for l in said.splitlines() if "applies" in l), "").strip()[:160]}')
        print(f'plugin: a style a query cannot take warned: {warning.strip()[warning.strip().find("openapi.yaml"):][:140]}')
        print(f'plugin: a broken $ref failed the build with: {line.strip()[line.strip().find("openapi.yaml"):][:160]}')
        print(f'plugin: generate-clients wrote {", ".join(generated)}; --check passed, then caught a hand edit')
        print(f'BENCH plugin-first-build {first_build:.1f} s')
        print('plugin: ok')
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


main()
