"""What the scripts share: the repository's root, one way to fail, git.

Each script that `make` runs imports this module (with its own folder on
`sys.path`), so a failure reads the same whichever check printed it:
`<check>: FAILED: <what, where, why>` on standard error, exit status 1.
"""
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))


def failing(check):
    """A `fail(message)` for the check named `check`: prints and exits 1."""
    def fail(message):
        print(f'{check}: FAILED: {message}', file=sys.stderr)
        sys.exit(1)
    return fail


def git(*arguments, cwd=ROOT, env=None):
    """The output of a git command (stripped); raises when it fails."""
    return subprocess.run(['git', *arguments], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()


def debug_build_flags(root=ROOT):
    """The debug build's flags: `DEBUG_BUILD_FLAGS` when set (the Makefile's
    override), else scripts/debug_build_flags, as scripts/test.sh reads them."""
    text = os.environ.get('DEBUG_BUILD_FLAGS')
    if text is None:
        text = open(os.path.join(root, 'scripts', 'debug_build_flags'), encoding='utf-8').read()
    return text.split()


def current_modules(root, work):
    """A folder in `work` holding links to the built modules an app could
    import: this package's library and executable targets (never a test
    target's) and its dependencies' targets, as the debug build left them.
    A module a renamed or removed target left in the build folder is not
    linked, so `import OldName` fails as on a clean build. Returns the
    folder; exits 1 when nothing was built yet."""
    import glob, re
    bin_path = subprocess.run(['swift', 'build', *debug_build_flags(root), '--show-bin-path'], cwd=root, capture_output=True,
                              text=True, check=True).stdout.strip()
    modules = os.path.join(bin_path, 'Modules')
    if not os.path.isdir(modules):
        print('no built modules in %s: build first' % modules, file=sys.stderr)
        sys.exit(1)
    manifests = glob.glob(os.path.join(root, '.build', 'checkouts', '*', 'Package*.swift'))
    declared, tests = set(), set()
    for manifest in [os.path.join(root, 'Package.swift')] + manifests:
        text = open(manifest, encoding='utf-8', errors='replace').read()
        # Any name a manifest spells (targets come from helpers and lists
        # too, `generatedClients`); a root test target's module is left out.
        declared.update(name.replace('-', '_') for name in re.findall(r'"([A-Za-z_][A-Za-z0-9_-]*)"', text))
        if manifest == os.path.join(root, 'Package.swift'):
            tests.update(name.replace('-', '_') for name in re.findall(r'\.testTarget\(\s*name:\s*"([^"]+)"', text))
    # The toolchain's own modules (Foundation, Testing, ...) are not in this folder.
    folder = os.path.join(work, 'Modules')
    os.makedirs(folder, exist_ok=True)
    for entry in os.listdir(modules):
        name = entry.split('.')[0]
        if name in declared and name not in tests:
            os.symlink(os.path.join(modules, entry), os.path.join(folder, entry))
    return folder


def typecheck_as_app(root, modules, module_name, sources):
    """Type-checks `sources` as one module named `module_name` of an app's,
    outside this package: against the built modules linked in `modules`
    (``current_modules``), so `package` declarations are out of reach.
    Returns the compiler's error lines (`file:line:column: error: ...`), or
    its first lines of output when it failed without one; empty when the
    sources compile."""
    import re
    # The C modules the built Swift modules import, found as the build finds them.
    maps = [os.path.join(root, '.build', 'checkouts', 'GRDB.swift', 'Sources', 'GRDBSQLite', 'module.modulemap'),
            os.path.join(root, 'Generator', 'Sources', 'CLibYAML', 'module.modulemap')]
    command = ['swiftc', '-typecheck', '-parse-as-library', '-module-name', module_name, '-swift-version', '6', '-I', modules]
    for module_map in maps:
        command += ['-Xcc', '-fmodule-map-file=' + module_map]
    result = subprocess.run(command + list(sources), cwd=root, capture_output=True, text=True)
    if result.returncode == 0:
        return []
    errors = [line for line in result.stderr.splitlines() if re.match(r'^\S+:\d+:\d+: error:', line)]
    return errors or result.stderr.splitlines()[:20] or ['swiftc exited %d' % result.returncode]
