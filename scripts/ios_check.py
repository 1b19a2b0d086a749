#!/usr/bin/env python3
"""`make ios-check`: every line of Apple-only code is compiled for iOS.

Code that only an Apple platform runs (Keychain, NWPathMonitor, CallKit,
BackgroundTasks, UIKit, Contacts, ...) lives in *Apple adapters*: the files
in a folder named `Apple` inside a module's sources
(`Runtime/Sources/Resilience/Apple/`, `Sources/SecureNodeEngine/Apple/`, ...).
Each adapter imports only Foundation, Dispatch and Apple frameworks and is
gated as a whole by `#if canImport(<Apple framework>)`, so Linux builds skip
it and it can be type-checked for iOS on its own.

Two parts:

1. Always (no SDK needed), over every Swift file of the repository:
   - no file outside the adapters imports an Apple-only framework;
   - outside the adapters, a `#if canImport(<Apple framework>)` block holds
     only the adapter choice: at most 4 lines of code in each branch;
   - each adapter is gated as a whole (by an Apple framework, or by Darwin
     for Foundation's Apple-only API such as App Group containers) and
     imports nothing but Foundation, Dispatch and Apple frameworks.
2. With an iPhoneOS SDK: each adapter on its own is type-checked for
   `arm64-apple-ios16.0` in Swift 6 mode (`swiftc -typecheck`).
   - IOS_SDK: the SDK folder (on a Mac, Xcode's iPhoneOS SDK when unset).
   - On Linux the compiler also needs a resource folder in place of its
     own: IOS_RESOURCE_DIR, or one made from the toolchain's `shims` and
     `clang` plus IOS_APINOTES, a folder with the Swift repository's
     `Dispatch.apinotes` and `os.apinotes` (stdlib/public/Platform/).
   Without them the type-check is skipped, and the output says why.

   Also always: the iOS sample app's Info.plist and entitlements against
   what its code uses (`scripts/check_app_plist.py`: background task
   identifiers and modes, the App Group in both targets, the Call Directory
   extension's bundle id, usage strings, the sign-in redirect's scheme).

3. With an iPhoneOS 18.x SDK (its standard library is Swift 6.1, which
   whole packages need): every target of every library product an app
   links, and the iOS sample app with its Call Directory extension
   (`Examples/ios-app`, a package of its own, which depends on all of
   them), compiled with their dependencies for `arm64-apple-ios16.0` in
   Swift 6 mode (`swift build --triple ... --target T`, in the scratch path
   `.build-ios/`, never the Linux `.build`). Code inside `#if
   canImport(UIKit)` or `#if canImport(Darwin)` in any file is compiled
   here, not only the adapters. On Linux this follows the recipe of the
   project's iOS notes (CONTRIBUTING.md, "Apple-only code"): the resource
   folder above, its shims on the search path, a stand-in `libtool`,
   legacy type layouts off, and the dependencies' checkouts read as a
   Swift 6.1 compiler reads them (`compiler(>=6.2)` tests rewritten to
   false in `.build-ios/checkouts`, as an Xcode 16.4 user gets them).
   Prints each target with its result and time, and every error with its
   file and line. `IOS_WHOLE=0` skips this part.

Prints each file checked with its line count and every error; exits 1 on
any error. The first type-check builds a module cache from the SDK's
interfaces (about 40 s, 900 MB, kept in .build/ios-check/); later runs
take about a second a file. The whole-package compile takes about 5
minutes from an empty `.build-ios/` on two cores, and under a minute when
only the project's sources changed."""
import glob, json, os, platform, re, shutil, subprocess, sys, tempfile, time

root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))

# Frameworks that exist only on Apple platforms. Foundation and Dispatch are
# on Linux too; Darwin and Glibc are the C libraries, chosen per platform.
APPLE_ONLY = {
    'Accelerate', 'AppKit', 'AppTrackingTransparency', 'AuthenticationServices', 'AVFoundation', 'AVKit',
    'BackgroundTasks', 'CallKit', 'CFNetwork', 'Combine', 'Contacts', 'ContactsUI', 'CoreBluetooth', 'CoreData',
    'CoreGraphics', 'CoreImage', 'CoreLocation', 'CoreML', 'CoreMotion', 'CoreServices', 'CoreTelephony',
    'CoreText', 'CryptoKit', 'DeviceCheck', 'EventKit', 'HealthKit', 'ImageIO', 'Intents', 'LocalAuthentication',
    'MapKit', 'MessageUI', 'MobileCoreServices', 'Network', 'NetworkExtension', 'ObjectiveC', 'os', 'OSLog',
    'Photos', 'PhotosUI', 'PushKit', 'QuartzCore', 'SafariServices', 'Security', 'StoreKit', 'SwiftUI',
    'SystemConfiguration', 'UIKit', 'UniformTypeIdentifiers', 'UserNotifications', 'WatchConnectivity',
    'WatchKit', 'WebKit', 'WidgetKit',
}
# What an adapter may import besides Apple-only frameworks.
ADAPTER_MAY_IMPORT = {'Foundation', 'Dispatch'}
# Lines of code a `#if canImport(<Apple framework>)` branch may hold outside the adapters.
CHOICE_LINES = 4

# An adapter that conforms to a protocol of its module names the file that
# declares it (Foundation only) in a comment: `// ios-check: with ../Contacts/ManagedContact.swift`.
seam_line = re.compile(r'^\s*//\s*ios-check:\s*with\s+(\S+)')
import_line = re.compile(r'^\s*(?:@[\w(). ,:]+\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)')
can_import = re.compile(r'canImport\((\w+)')


def swift_files():
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith('.') and d != 'node_modules')
        for name in sorted(files):
            if name.endswith('.swift'):
                yield os.path.relpath(os.path.join(folder, name), root)


# Folders of the iOS sample app's package: Apple-only as a whole (SwiftUI),
# compiled for iOS by part 3, never by the Linux build.
APPLE_ONLY_FOLDERS = ('Examples/ios-app/SampleApp/', 'Examples/ios-app/CallDirectoryExtension/')


def is_apple_only_package(path):
    return path.replace(os.sep, '/').startswith(APPLE_ONLY_FOLDERS)


def is_adapter(path):
    parts = path.split(os.sep)
    return 'Apple' in parts[:-1] and 'Sources' in parts[:parts.index('Apple')]


def code_lines(text):
    """(line number, stripped line) of each line that is code: no blank
    lines, no `//` comments, nothing inside `/* */`."""
    inside_comment = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if inside_comment:
            if '*/' in stripped:
                inside_comment = False
            continue
        if stripped.startswith('/*'):
            inside_comment = '*/' not in stripped
            continue
        if stripped and not stripped.startswith('//'):
            yield number, stripped


def apple_frameworks_in(condition):
    return sorted(set(can_import.findall(condition)) & APPLE_ONLY)


def apple_gate(condition):
    """Whether `condition` holds on Apple platforms only: it names an Apple
    framework, Darwin, or an Apple OS."""
    return bool(apple_frameworks_in(condition) or 'canImport(Darwin)' in condition
                or re.search(r'\bos\((iOS|macOS|tvOS|watchOS|visionOS)\)', condition))


def check_choice_blocks(path, lines, problems):
    """Outside the adapters, each branch of a `#if` naming an Apple
    framework holds at most CHOICE_LINES lines of code."""
    stack = []  # [condition line, frameworks, code lines in the branch, branch start]
    for number, line in lines:
        directive = line.split()[0] if line.startswith('#') else ''
        if directive == '#if':
            for block in stack:
                block[2] += 1
            stack.append([number, apple_frameworks_in(line), 0, number])
            continue
        if directive in ('#elseif', '#else', '#endif') and stack:
            block = stack[-1]
            if block[1] and block[2] > CHOICE_LINES:
                problems.append(
                    f'{path}:{block[3]}: a `#if canImport({block[1][0]})` branch holds {block[2]} lines of code outside the '
                    f'Apple adapters (at most {CHOICE_LINES}: the adapter choice); move the code into an adapter in an Apple/ folder')
            if directive == '#endif':
                stack.pop()
                if stack:
                    stack[-1][2] += 1
            else:
                block[1] = block[1] or apple_frameworks_in(line)
                block[2], block[3] = 0, number
            continue
        for block in stack:
            block[2] += 1


def check_imports(path, adapter, problems):
    with open(os.path.join(root, path), encoding='utf-8') as handle:
        text = handle.read()
    lines = list(code_lines(text))
    imported = []
    for number, line in lines:
        match = import_line.match(line)
        if match:
            imported.append((number, match.group(1)))
    apple = [(number, module) for number, module in imported if module in APPLE_ONLY]
    if not adapter:
        for number, module in apple:
            problems.append(f'{path}:{number}: imports {module}, an Apple-only framework, outside the Apple adapters; '
                            f'move this code into a file in the module\'s Apple/ folder (see CONTRIBUTING.md)')
        check_choice_blocks(path, lines, problems)
        return len(text.splitlines()), []
    first, last = (lines[0][1], lines[-1][1]) if lines else ('', '')
    if not (first.startswith('#if') and apple_gate(first) and last == '#endif'):
        problems.append(f'{path}:1: an Apple adapter must be gated as a whole: its first line of code '
                        f'`#if canImport(<Apple framework>)` (or `canImport(Darwin)` for Foundation\'s Apple-only API), '
                        f'its last `#endif`, so Linux builds skip it')
    for number, module in imported:
        if module not in APPLE_ONLY and module not in ADAPTER_MAY_IMPORT:
            problems.append(f'{path}:{number}: an Apple adapter imports {module}; it may import only Foundation, Dispatch '
                            f'and Apple frameworks, so that it can be type-checked for iOS on its own')
    return len(text.splitlines()), sorted({module for _, module in apple})


def seams_of(path, problems):
    """The files an adapter names with `// ios-check: with FILE`; each must
    import Foundation at most, so the adapter still needs nothing of the SDK."""
    seams = []
    with open(os.path.join(root, path), encoding='utf-8') as handle:
        for line in handle:
            match = seam_line.match(line)
            if not match:
                continue
            seam = os.path.normpath(os.path.join(root, os.path.dirname(path), match.group(1)))
            if not os.path.isfile(seam):
                problems.append(f'{path}: names {match.group(1)} for the type-check, which does not exist')
                continue
            with open(seam, encoding='utf-8') as source:
                imported = [m.group(1) for _, line in code_lines(source.read()) for m in [import_line.match(line)] if m]
            if any(module != 'Foundation' for module in imported):
                problems.append(f'{path}: its seam {match.group(1)} imports {", ".join(imported)}; a seam may import Foundation only')
            seams.append(seam)
    return seams


def resource_dir(cache):
    """The resource folder for swiftc on Linux, or (None, why)."""
    given = os.environ.get('IOS_RESOURCE_DIR')
    if given:
        return given, None
    apinotes = os.environ.get('IOS_APINOTES')
    if not apinotes:
        return None, ('no resource folder for iOS: set IOS_RESOURCE_DIR, or IOS_APINOTES to a folder with the Swift '
                      'repository\'s Dispatch.apinotes and os.apinotes (stdlib/public/Platform/)')
    missing = [name for name in ('Dispatch.apinotes', 'os.apinotes') if not os.path.isfile(os.path.join(apinotes, name))]
    if missing:
        return None, f'IOS_APINOTES={apinotes} lacks {", ".join(missing)}'
    swiftc = shutil.which('swiftc')
    toolchain = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(swiftc))), 'lib', 'swift')
    folder = os.path.join(cache, 'resource-dir')
    os.makedirs(os.path.join(folder, 'apinotes'), exist_ok=True)
    for name in ('shims', 'clang'):
        link = os.path.join(folder, name)
        if os.path.islink(link) or os.path.exists(link):
            os.remove(link)
        os.symlink(os.path.join(toolchain, name), link)
    for name in ('Dispatch.apinotes', 'os.apinotes'):
        shutil.copyfile(os.path.join(apinotes, name), os.path.join(folder, 'apinotes', name))
    return folder, None


def sdk_folder():
    """The iPhoneOS SDK, or (None, why)."""
    given = os.environ.get('IOS_SDK')
    if given:
        if not os.path.isdir(os.path.join(given, 'usr', 'lib', 'swift')):
            return None, f'IOS_SDK={given} is not an iPhoneOS SDK folder (it has no usr/lib/swift)'
        return given, None
    if shutil.which('xcrun'):
        found = subprocess.run(['xcrun', '--sdk', 'iphoneos', '--show-sdk-path'], capture_output=True, text=True)
        if found.returncode == 0 and found.stdout.strip():
            return found.stdout.strip(), None
    return None, 'no iPhoneOS SDK: set IOS_SDK to its folder (on a Mac, Xcode\'s is found by xcrun)'


def type_check(adapters, problems):
    sdk, why = sdk_folder()
    if not sdk:
        print(f'ios-check: type-check skipped: {why}')
        return 0
    cache = os.path.join(root, '.build', 'ios-check')
    os.makedirs(cache, exist_ok=True)
    # An adapter and its seams are one module, in one package (SwiftPM passes
    # -package-name too), so a seam may be `package`.
    command_base = ['swiftc', '-typecheck', '-swift-version', '6', '-target', 'arm64-apple-ios16.0', '-sdk', sdk,
                    '-package-name', 'ioscheck', '-module-cache-path', os.path.join(cache, 'module-cache')]
    if platform.system() != 'Darwin':
        resources, why = resource_dir(cache)
        if not resources:
            print(f'ios-check: type-check skipped: {why}')
            return 0
        # An SDK without usr/lib/swift/shims (18.x) finds SwiftShims in the resource folder's.
        shims = os.path.join(resources, 'shims')
        command_base += ['-resource-dir', resources, '-I', shims, '-Xcc', f'-I{shims}']
    checked = 0
    for path in adapters:
        # One module per file: each adapter must stand on its own, with the seams it names.
        module = re.sub(r'\W', '_', os.path.splitext(os.path.basename(path))[0]) + 'Adapter'
        seams = seams_of(path, problems)
        result = subprocess.run(command_base + ['-module-name', module, os.path.join(root, path)] + seams,
                                capture_output=True, text=True, cwd=root)
        output = (result.stdout + result.stderr).strip()
        if result.returncode != 0:
            problems.append(f'{path}: does not type-check for arm64-apple-ios16.0 (Swift 6):\n{output}')
            print(f'ios-check: FAILED {path}')
        else:
            checked += 1
            with_seams = f' (with {", ".join(os.path.relpath(s, root) for s in seams)})' if seams else ''
            print(f'ios-check: type-checked {path}{with_seams} for arm64-apple-ios16.0' + (f'\n{output}' if output else ''))
    return checked


# The packages whose library targets the whole-package compile covers; the
# sample app package depends on the root one, so it is the root of the build.
APP_PACKAGE = 'Examples/ios-app'
# The generator's libraries (what the build plugin and `swift run clientgen`
# compile on a Mac) and the two build-machine libraries: not an app's
# products, compiled here as the check that stands in for macOS. Apple
# platforms build them against the vendored libyaml, so they need no
# package manager's copy.
GENERATOR_TARGETS = ['YAMLReader', 'OpenAPIModel', 'Codegen', 'SpecDiff', 'SandboxCore', 'ContractCheck']


def library_targets(package):
    """The targets of `package`'s library products, in the order the products list them."""
    dumped = subprocess.run(['swift', 'package', '--package-path', os.path.join(root, package), 'dump-package'],
                            capture_output=True, text=True)
    if dumped.returncode != 0:
        raise RuntimeError(f'{package}/Package.swift does not load: {dumped.stderr.strip()[-800:]}')
    manifest = json.loads(dumped.stdout)
    targets = []
    for product in manifest['products']:
        if 'library' not in product['type']:
            continue
        for target in product['targets']:
            if target not in targets:
                targets.append(target)
    return targets


def compiler_version_of(sdk):
    """The Swift version of the SDK's standard library interface (`6.1` for an 18.6 SDK)."""
    for path in [os.path.join(sdk, 'usr/lib/swift/Swift.swiftmodule/arm64e-apple-ios.swiftinterface'),
                 os.path.join(sdk, 'usr/lib/swift/Swift.swiftmodule/arm64-apple-ios.swiftinterface')]:
        if os.path.isfile(path):
            with open(path, encoding='utf-8', errors='replace') as interface:
                for line in interface:
                    match = re.search(r'swift-compiler-version: .*?Swift version ([0-9]+\.[0-9]+)', line)
                    if match:
                        return match.group(1)
    return None


def read_as_swift_61(checkouts):
    """Rewrites the dependencies' `compiler(>=6.2)`-style tests so they read
    as a Swift 6.1 compiler reads them; returns how many files changed."""
    changed = 0
    newer = re.compile(r'compiler\(>=6\.[2-9]\)')
    older = re.compile(r'compiler\(<6\.[2-9]\)')
    for folder, _, files in os.walk(checkouts):
        for name in files:
            if not name.endswith('.swift'):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding='utf-8', errors='surrogateescape') as handle:
                text = handle.read()
            rewritten = older.sub('compiler(<99.0)', newer.sub('compiler(>=99.0)', text))
            if rewritten != text:
                with open(path, 'w', encoding='utf-8', errors='surrogateescape') as handle:
                    handle.write(rewritten)
                changed += 1
    return changed


def ios_build_setup(scratch):
    """What `swift build` needs to compile for `arm64-apple-ios16.0` into
    `scratch`: (sdk, flags, environment, None), or (None, None, None, why)
    when it cannot here. On Linux: the resource folder, its shims, a
    stand-in `libtool`, legacy type layouts off (CONTRIBUTING.md,
    "Apple-only code")."""
    sdk, why = sdk_folder()
    if not sdk:
        return None, None, None, why
    version = compiler_version_of(sdk)
    if platform.system() != 'Darwin' and (version is None or tuple(int(p) for p in version.split('.')[:2]) < (6, 1)):
        return None, None, None, (f'the SDK\'s standard library is Swift {version or "unknown"}; '
                                  f'whole packages need an iPhoneOS 18.x SDK (Swift 6.1)')
    flags = ['--scratch-path', scratch, '--triple', 'arm64-apple-ios16.0', '--sdk', sdk]
    env = dict(os.environ)
    if platform.system() != 'Darwin':
        resources, why = resource_dir(os.path.join(root, '.build', 'ios-check'))
        if not resources:
            return None, None, None, why
        flags += ['-Xswiftc', '-resource-dir', '-Xswiftc', resources, '-Xswiftc', '-I', '-Xswiftc', os.path.join(resources, 'shims'),
                  '-Xcc', f'-I{os.path.join(resources, "shims")}', '-Xswiftc', '-module-cache-path', '-Xswiftc',
                  os.path.join(scratch, 'module-cache'), '-Xswiftc', '-Xfrontend', '-Xswiftc', '-disable-legacy-type-info']
        # SwiftPM looks for Apple's libtool before it builds for a Darwin triple; targets are never archived.
        stand_in = os.path.join(scratch, 'stand-in-bin')
        os.makedirs(stand_in, exist_ok=True)
        with open(os.path.join(stand_in, 'libtool'), 'w') as handle:
            handle.write('#!/bin/sh\n# ios-check builds targets only; nothing is archived.\nexit 0\n')
        os.chmod(os.path.join(stand_in, 'libtool'), 0o755)
        env['PATH'] = stand_in + os.pathsep + env['PATH']
    return sdk, flags, env, None


def compile_packages(problems):
    """Part 3: every library target and the sample app, compiled for iOS."""
    if os.environ.get('IOS_WHOLE') == '0':
        print('ios-check: whole-package compile skipped (IOS_WHOLE=0)')
        return 0
    scratch = os.path.join(root, '.build-ios')
    sdk, flags, env, why = ios_build_setup(scratch)
    if not sdk:
        print(f'ios-check: whole-package compile skipped: {why}')
        return 0
    package = os.path.join(root, APP_PACKAGE)
    began = time.monotonic()
    resolved = subprocess.run(['swift', 'package', '--package-path', package, '--scratch-path', scratch, 'resolve'], capture_output=True, text=True)
    if resolved.returncode != 0:
        problems.append(f'{APP_PACKAGE}: does not resolve:\n{resolved.stderr[-2000:]}')
        return 0
    if platform.system() != 'Darwin':
        changed = read_as_swift_61(os.path.join(scratch, 'checkouts'))
        if changed:
            print(f'ios-check: {changed} dependency files read as a Swift 6.1 compiler reads them')
    try:
        targets = library_targets('.') + [t for t in library_targets(APP_PACKAGE) if t not in library_targets('.')]
        targets += [t for t in GENERATOR_TARGETS if t not in targets]
    except RuntimeError as error:
        problems.append(str(error))
        return 0
    print(f'ios-check: compiling {len(targets)} targets for arm64-apple-ios16.0 (Swift 6) against {os.path.basename(sdk)}, '
          f'with their dependencies: the library products\' targets, {APP_PACKAGE}\'s, and the generator\'s libraries '
          f'(against the vendored libyaml)')
    # SwiftPM reuses its cached build plan when the manifests did not change,
    # and then misses a file added to a target of this package (a path
    # dependency of the app's package): a new file read as "cannot find type".
    # The plan is cheap to make again.
    for cached in ('arm64-apple-ios/debug/description.json', 'debug.yaml'):
        if os.path.exists(os.path.join(scratch, cached)):
            os.remove(os.path.join(scratch, cached))
    compiled = 0
    for target in targets:
        started = time.monotonic()
        result = subprocess.run(['swift', 'build', '--package-path', package, *flags, '--target', target], capture_output=True, text=True, env=env)
        seconds = time.monotonic() - started
        output = result.stdout + result.stderr
        errors = sorted({line.strip() for line in output.splitlines() if re.match(r'^/.*:\d+:\d+: error: ', line.strip())})
        if result.returncode != 0:
            shown = '\n'.join(os.path.relpath(line, root) if line.startswith(root) else line for line in errors) or output[-3000:]
            problems.append(f'{target}: does not compile for arm64-apple-ios16.0:\n{shown}')
            print(f'ios-check:   FAILED {target} ({seconds:.0f} s, {len(errors)} errors)')
        else:
            compiled += 1
            print(f'ios-check:   ok {target} ({seconds:.0f} s)')
    total = time.monotonic() - began
    print(f'ios-check: {compiled} of {len(targets)} targets compiled for iOS in {total:.0f} s')
    # Each privacy manifest went into its target's resource bundle, as an app's build copies it.
    products = os.path.join(scratch, 'arm64-apple-ios', 'debug')
    manifests = [os.path.relpath(os.path.join(d, 'PrivacyInfo.xcprivacy'), root)
                 for base in ('Sources', 'Runtime/Sources') for d in sorted(glob.glob(os.path.join(root, base, '*')))
                 if os.path.exists(os.path.join(d, 'PrivacyInfo.xcprivacy'))]
    for manifest in manifests:
        target = os.path.basename(os.path.dirname(manifest))
        bundle = os.path.join(products, f'OpenAPIMobileClients_{target}.bundle', 'PrivacyInfo.xcprivacy')
        if compiled == len(targets) and not os.path.exists(bundle):
            problems.append(f'{manifest}: not in the iOS build\'s resource bundle of {target} ({os.path.relpath(bundle, root)})')
    print(f'ios-check: {len(manifests)} privacy manifests in their targets\' resource bundles')
    print(f'BENCH ios-check-whole-compile {total:.1f} s')
    return compiled


def main():
    problems = []
    files = list(swift_files())
    adapters = [path for path in files if is_adapter(path)]
    lines_scanned = 0
    print(f'ios-check: Apple adapters (each imports only Foundation, Dispatch and Apple frameworks):')
    apple_only = [path for path in files if is_apple_only_package(path)]
    files = [path for path in files if not is_apple_only_package(path)]
    for path in files:
        lines, frameworks = check_imports(path, is_adapter(path), problems)
        lines_scanned += lines
        if is_adapter(path):
            print(f'  {path}  {lines} lines  imports {", ".join(frameworks) or "Foundation only (its Apple-only API)"}')
    print(f'ios-check: {len(files)} Swift files ({lines_scanned} lines) scanned for Apple-only imports; '
          f'{len(adapters)} adapters, {sum(1 for p in adapters for _ in open(os.path.join(root, p)))} lines; '
          f'{len(apple_only)} files of the iOS sample app, Apple-only as a whole, compiled below')
    # The sample app's Info.plist and entitlements against what its code uses (scripts/check_app_plist.py).
    plist = subprocess.run([sys.executable, os.path.join(root, 'scripts/check_app_plist.py')], capture_output=True, text=True)
    print(plist.stdout, end='')
    if plist.returncode != 0:
        problems.extend(line[len('error: '):] for line in plist.stderr.splitlines() if line.startswith('error: '))
    checked = type_check(adapters, problems)
    compiled = compile_packages(problems)
    for problem in problems:
        print(f'error: {problem}', file=sys.stderr)
    if problems:
        print(f'ios-check: {len(problems)} problem(s)', file=sys.stderr)
        return 1
    print(f'ios-check: ok ({checked} of {len(adapters)} adapters type-checked, {compiled} targets compiled for iOS)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
