#!/usr/bin/env python3
"""`make ios-size`: what each library product adds to an iOS app, measured.

Compiles every target of the library products for `arm64-apple-ios16.0`
in release with `-Osize` (what an app's release build does for size)
against the iPhoneOS SDK (`IOS_SDK`; on Linux `IOS_APINOTES` or
`IOS_RESOURCE_DIR` too, as `make ios-check`), then sums each module's
object code with `llvm-objdump -h`: every section the linker keeps, that is
all but the debug information, `__bss` (zero-filled, not stored) and
`__compact_unwind` (linker input, folded into a far smaller
`__unwind_info`). No linker is needed; the figure is an upper bound of what
the module adds to a linked app, which also strips what nothing calls.

The peer generator's client of the same spec is measured in the same run:
apple/swift-openapi-generator 1.14.3 generates Safepocket's client (types
and client), compiled the same way against swift-openapi-runtime, and
compared with ours plus `ClientRuntime`, which every generated client
needs (`ios-size-safepocket-client-vs-peer`).

Prints a table, `BENCH ios-size-<module> <KB> KB` per module, the SDKs'
own totals, and the ratio. Without an SDK it says it skipped, and exits 0.
Usage: ios_size.py [--no-peer]"""
import argparse, glob, os, re, shutil, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ios_check
import peer_generator

root = ios_check.root
SCRATCH = os.path.join(root, '.build-ios-size')
# Flags after SwiftPM's `-O`: the last optimization flag wins.
SIZE_FLAGS = ['-c', 'release', '-Xswiftc', '-Osize']
# Sections the linker drops or rewrites: not what the app stores.
DROPPED = {'__bss', '__compact_unwind', '__common'}
# The SDKs an app links (SecureNode has three layers), and the generated clients.
SDK_TARGETS = ['SecureNodeSDK', 'SecureNodeEngine', 'BrandingStore', 'SecureNodeCallDirectory', 'Soul', 'Safepocket', 'MobileTracker']
CLIENT_TARGETS = ['SecureNodeAPI', 'SoulAPI', 'SafepocketAPI', 'MobileTrackerAPI']


# Acronyms that run into each other in module names (`OpenAPIURLSession`).
ACRONYMS = ('GRDB', 'HTTP', 'JSON', 'API', 'NIO', 'SDK', 'URL')


def kebab(name):
    """`SecureNodeSDK` -> `secure-node-sdk`, `OpenAPIURLSession` -> `open-api-url-session`."""
    spaced = name
    for acronym in ACRONYMS:
        spaced = spaced.replace(acronym, f' {acronym.capitalize()} ')
    words = re.findall(r'[A-Z]?[a-z]+|\d+|[A-Z]+(?![a-z])', spaced)
    return '-'.join(word.lower() for word in words)


def object_bytes(folder):
    """The bytes of `folder`'s object files the linker keeps."""
    total = 0
    for path in glob.glob(os.path.join(folder, '**', '*.o'), recursive=True):
        listing = subprocess.run(['llvm-objdump', '-h', path], check=True, capture_output=True, text=True).stdout
        for line in listing.splitlines():
            match = re.match(r'^\s*\d+\s+(\S+)\s+([0-9a-fA-F]+)\s+[0-9a-fA-F]+\s+(.*)$', line)
            if not match:
                continue
            name, size, kind = match.group(1), int(match.group(2), 16), match.group(3)
            if 'DEBUG' in kind or name in DROPPED or name.startswith('__debug') or name.startswith('__apple_'):
                continue
            total += size
    return total


def build_targets(package, targets, flags, env):
    """Compiles each target for iOS; returns the ones that failed, with their errors."""
    failed = {}
    for target in targets:
        started = time.monotonic()
        result = subprocess.run(['swift', 'build', '--package-path', package, *flags, *SIZE_FLAGS, '--target', target],
                                capture_output=True, text=True, env=env)
        if result.returncode != 0:
            errors = [line for line in (result.stdout + result.stderr).splitlines() if ': error: ' in line]
            failed[target] = '\n'.join(errors[:10]) or (result.stdout + result.stderr)[-1500:]
            print(f'ios-size:   FAILED {target}', flush=True)
        else:
            print(f'ios-size:   built {target} ({time.monotonic() - started:.0f} s)', flush=True)
    return failed


def peer_client():
    """The peer generator's Safepocket client compiled for iOS: its bytes, or None (why printed)."""
    executable = peer_generator.peer_executable(purpose='no peer figure')
    if not executable:
        return None
    package = os.path.join(SCRATCH, 'peer-package')
    sources = os.path.join(package, 'Sources', 'PeerSafepocketClient')
    shutil.rmtree(sources, ignore_errors=True)
    os.makedirs(sources)
    config = os.path.join(package, 'openapi-generator-config.yaml')
    with open(config, 'w') as handle:
        handle.write(peer_generator.CONFIG)
    subprocess.run([executable, 'generate', os.path.join(root, 'specs', 'safepocket.yaml'), '--config', config, '--output-directory', sources],
                   check=True, capture_output=True)
    peer_generator.write_client_package(package, 'PeerSafepocketClient', '.iOS(.v16)',
                                        "Scratch package of `make ios-size`: the peer's generated Safepocket client.")
    scratch = os.path.join(SCRATCH, 'peer')
    # A build setup of its own: its scratch folder and module cache.
    _, peer_flags, env, _ = ios_check.ios_build_setup(scratch)
    subprocess.run(['swift', 'package', '--package-path', package, '--scratch-path', scratch, 'resolve'], check=True, capture_output=True)
    if os.uname().sysname != 'Darwin':
        ios_check.read_as_swift_61(os.path.join(scratch, 'checkouts'))
    failed = build_targets(package, ['PeerSafepocketClient'], peer_flags, env)
    if failed:
        print(f'ios-size: the peer\'s client did not compile for iOS:\n{failed["PeerSafepocketClient"]}', file=sys.stderr)
        return None
    return object_bytes(os.path.join(scratch, 'arm64-apple-ios', 'release', 'PeerSafepocketClient.build'))


def main():
    parser = argparse.ArgumentParser(description='Object code per module for iOS (-Osize).')
    parser.add_argument('--no-peer', action='store_true', help='leave out the peer generator\'s client')
    args = parser.parse_args()
    sdk, flags, env, why = ios_check.ios_build_setup(SCRATCH)
    if not sdk:
        print(f'ios-size: skipped: {why}')
        return 0
    if not shutil.which('llvm-objdump'):
        print('ios-size: skipped: llvm-objdump is not on the PATH')
        return 0
    began = time.monotonic()
    resolved = subprocess.run(['swift', 'package', '--package-path', root, '--scratch-path', SCRATCH, 'resolve'], capture_output=True, text=True)
    if resolved.returncode != 0:
        print(f'ios-size: the package does not resolve:\n{resolved.stderr[-2000:]}', file=sys.stderr)
        return 1
    if os.uname().sysname != 'Darwin':
        ios_check.read_as_swift_61(os.path.join(SCRATCH, 'checkouts'))
    for cached in ('arm64-apple-ios/release/description.json', 'release.yaml'):
        if os.path.exists(os.path.join(SCRATCH, cached)):
            os.remove(os.path.join(SCRATCH, cached))
    targets = ios_check.library_targets('.')
    print(f'ios-size: compiling {len(targets)} targets for arm64-apple-ios16.0, release, -Osize, against {os.path.basename(sdk)}')
    failed = build_targets(root, targets, flags, env)
    if failed:
        for target, errors in failed.items():
            print(f'error: {target} does not compile for iOS:\n{errors}', file=sys.stderr)
        return 1
    products = os.path.join(SCRATCH, 'arm64-apple-ios', 'release')
    modules = sorted({os.path.basename(folder)[:-len('.build')] for folder in glob.glob(os.path.join(products, '*.build'))})
    sizes = {module: object_bytes(os.path.join(products, module + '.build')) for module in modules}
    sizes = {module: size for module, size in sizes.items() if size > 0}

    print('\n| module | KB |\n| --- | ---: |')
    for module, size in sorted(sizes.items(), key=lambda item: -item[1]):
        print(f'| {module} | {size / 1024:.1f} |')
    print()
    for module, size in sorted(sizes.items()):
        print(f'BENCH ios-size-{kebab(module)} {size / 1024:.1f} KB')
    own = sum(sizes.get(target, 0) for target in SDK_TARGETS)
    print(f'BENCH ios-size-sdks-own {own / 1024:.1f} KB')
    largest = max(SDK_TARGETS, key=lambda target: sizes.get(target, 0))
    print(f'ios-size: largest SDK target {largest}: {sizes.get(largest, 0) / 1024:.0f} KB (goal: each under 1024 KB)')
    if not args.no_peer:
        peer = peer_client()
        if peer:
            ours = sizes.get('SafepocketAPI', 0) + sizes.get('ClientRuntime', 0)
            print(f'BENCH ios-size-peer-safepocket-client {peer / 1024:.1f} KB')
            print(f'BENCH ios-size-safepocket-client-with-runtime {ours / 1024:.1f} KB')
            print(f'BENCH ios-size-safepocket-client-vs-peer {ours / peer:.3f} ratio')
    print(f'BENCH ios-size-wall {time.monotonic() - began:.0f} s')
    return 0


if __name__ == '__main__':
    sys.exit(main())
