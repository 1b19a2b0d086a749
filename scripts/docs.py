#!/usr/bin/env python3
"""`make docs`: the DocC reference of the runtime products and the SDKs.

For each product with a catalog (`<Target>.docc` in its source folder) it
dumps the package's public symbol graphs (`swift package
dump-symbol-graph`), then runs the toolchain's `docc convert` on the
catalog with the target's symbol graphs and `--warnings-as-errors`, so a
broken symbol link or an undocumented topic fails the build. Writes
`.build/docs/<Target>.doccarchive` and prints one line per product and a
last line `docs: ok`. (swift-docc-plugin does the same two steps; calling
docc directly keeps it out of the runtime package's dependencies, which
every app resolves.)"""
import glob, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_support

root = os.path.abspath('.')
# The Makefile's flags for debug builds into .build (the same for every one, so each reuses the last).
debug_flags = (os.environ.get('DEBUG_BUILD_FLAGS') or open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'debug_build_flags')).read()).split()
products = [('Runtime/Sources', 'ClientRuntime'), ('Runtime/Sources', 'Resilience'), ('Sources', 'SecureNodeEngine'), ('Sources', 'SecureNodeSDK'),
            ('Sources', 'Soul'), ('Sources', 'Safepocket'), ('Sources', 'MobileTracker'), ('Sources', 'SDKCore')]


fail = script_support.failing('docs')


def check_package_index_targets():
    """`.spi.yml` names the targets built here: the Swift Package Index
    builds the same reference."""
    import re
    with open(os.path.join(root, '.spi.yml')) as handle:
        listed = re.search(r'documentation_targets:\s*\[([^\]]*)\]', handle.read())
    named = [name.strip() for name in listed.group(1).split(',')] if listed else []
    if sorted(named) != sorted(name for _, name in products):
        fail(f'.spi.yml names {named or "no documentation_targets"} for the Swift Package Index, '
             f'make docs builds {[name for _, name in products]}: make them agree')


def main():
    check_package_index_targets()
    docc = shutil.which('docc') or os.path.join(os.path.dirname(os.path.realpath(shutil.which('swift'))), 'docc')
    if not os.path.exists(docc):
        fail('docc is not in the toolchain (it ships with Swift 5.6 and later)')
    output_root = os.path.join(root, '.build', 'docs')
    os.makedirs(output_root, exist_ok=True)
    # dump-symbol-graph emits a graph for every module of the package, test
    # modules included, so the tests are built first; in the shared .build,
    # where `make test` has built them already.
    scratch = ['--scratch-path', os.path.join(root, '.build')]
    built = subprocess.run(['swift', 'build', *scratch, *debug_flags, '--build-tests'], capture_output=True, text=True)
    if built.returncode != 0:
        fail(f'build:\n{built.stdout[-3000:]}{built.stderr[-3000:]}')
    result = subprocess.run(['swift', 'package', *scratch, *debug_flags, 'dump-symbol-graph', '--minimum-access-level', 'public'],
                            capture_output=True, text=True)
    if result.returncode != 0:
        fail(f'dump-symbol-graph:\n{result.stdout[-3000:]}{result.stderr[-3000:]}')
    graphs = glob.glob(os.path.join(root, '.build', '*', 'symbolgraph'))
    if not graphs:
        fail('no symbol graphs under .build')
    dumped = graphs[0]
    for source, target in products:
        catalog = os.path.join(root, source, target, f'{target}.docc')
        if not os.path.isdir(catalog):
            fail(f'{target} has no catalog at {catalog}')
        with tempfile.TemporaryDirectory() as graphs:
            for path in glob.glob(os.path.join(dumped, f'{target}.symbols.json')) + glob.glob(os.path.join(dumped, f'{target}@*.symbols.json')):
                shutil.copy(path, graphs)
            if not os.listdir(graphs):
                fail(f'no symbol graph for {target}')
            archive = os.path.join(output_root, f'{target}.doccarchive')
            result = subprocess.run([docc, 'convert', catalog, '--additional-symbol-graph-dir', graphs, '--output-path', archive,
                                     '--fallback-display-name', target, '--fallback-bundle-identifier', f'openapi-mobile-clients.{target}',
                                     '--warnings-as-errors'], capture_output=True, text=True)
            lines = (result.stdout + result.stderr).splitlines()
            problems = [line + (' ' + lines[i + 1].strip() if i + 1 < len(lines) and lines[i + 1].strip().startswith('-->') else '')
                        for i, line in enumerate(lines) if line.startswith(('warning:', 'error:'))]
            if result.returncode != 0 or problems:
                fail(f'{target}: docc found {len(problems)} problems:\n' + '\n'.join(problems[:40]) + ('' if problems else result.stderr[-3000:]))
        articles = len(glob.glob(os.path.join(catalog, '*.md')))
        print(f'docs: {target}: {articles} pages, 0 warnings -> .build/docs/{target}.doccarchive')
    print('docs: ok')


main()
