#!/usr/bin/env python3
"""`make layout` (and so `make ci`): the public surface of each module an app links.

Counts, per library product of Package.swift (the runtime libraries and
the SDKs) and per module a product re-exports (the SDKs' core; the
generated clients are the generator's output, not hand-kept API), the
declarations marked `public` or `open` and those marked
`package`. A declaration is a line that starts, after any attributes,
with that access keyword, or with other modifiers and then it (`nonisolated
public func`, `final public class`); `public import` lines are not
declarations. An extension's members are counted one by one, so an
extension carries no access level of its own: `public extension` or
`package extension` makes its members public or package without a word on
their lines, and the count would miss them, so the check refuses it (write
the level on each member).

Prints `SURFACE <module> public <n> package <m>` per module. With
`--check` it also reads the "Public surface" list of the CHANGELOG's first
section that has one (the unreleased one while a change is under way) and
fails when a module's public count differs from the list's: a module that
grows has to say so in the release notes, and one that shrinks lowers its
figure there, so the list is always the measured surface. `--self-test`
plants a public function in a copy of a module and checks `--check`
refuses it, naming the module and the figures.

`--examples` type-checks each sample app of `Examples/` (the command-line
tools) against the built modules as code outside this package: `package`
declarations are visible to every target of the package, the samples
included, so only a compile without the package's name shows that a
sample uses nothing an app cannot. It needs the debug build (`make
bench-build` runs it after building every target)."""
import os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_support

root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))

ATTRIBUTES = r'^\s*(?:@[A-Za-z_][A-Za-z0-9_.]*(?:\([^)]*\))?\s+)*'
# Modifiers that may stand before the access level.
MODIFIERS = (r'(?:(?:nonisolated|final|override|static|class|convenience|required|mutating|nonmutating|dynamic|lazy|'
             r'weak|unowned|indirect|prefix|postfix|infix|optional|distributed|isolated)\s+)*')
IMPORT = re.compile(ATTRIBUTES + r'(?:public|open|package)\s+import\b')
EXTENSION_WITH_ACCESS = re.compile(ATTRIBUTES + r'(?:public|open|package)\s+extension\b')
PUBLIC = re.compile(ATTRIBUTES + MODIFIERS + r'(?:public|open)\s')
PACKAGE = re.compile(ATTRIBUTES + MODIFIERS + r'package\s')
# "- `Resilience`: 455 public, 120 package" in the CHANGELOG's list.
LISTED = re.compile(r'^\s*- `([A-Za-z0-9_]+)`: (\d+) public, (\d+) package\s*$')


def products(root):
    """The modules an app links: Package.swift's `sdks` and `runtimeLibraries` lists."""
    text = open(os.path.join(root, 'Package.swift'), encoding='utf-8').read()
    names = []
    for list_name in ('sdks', 'runtimeLibraries'):
        match = re.search(r'^let %s = \[([^\]]*)\]' % list_name, text, re.M)
        if not match:
            sys.exit('surface: Package.swift has no `let %s = [...]` list of products' % list_name)
        names += re.findall(r'"([A-Za-z0-9_]+)"', match.group(1))
    return names


def reexported(root, modules):
    """Modules an app sees through a product without adding them: what a
    product's sources `@_exported import` that has a hand-written folder
    (the SDKs' core; the generated clients are the generator's output)."""
    found = []
    for module in modules:
        folder = module_folder(root, module)
        for directory, _, files in sorted(os.walk(folder)):
            for name in sorted(files):
                if name.endswith('.swift'):
                    text = open(os.path.join(directory, name), encoding='utf-8').read()
                    for imported in re.findall(r'^@_exported import ([A-Za-z0-9_]+)\s*$', text, re.M):
                        if imported not in modules and imported not in found and module_folder(root, imported, required=False):
                            found.append(imported)
    return found


def module_folder(root, module, required=True):
    for folder in (os.path.join(root, 'Sources', module), os.path.join(root, 'Runtime', 'Sources', module)):
        if os.path.isdir(folder):
            return folder
    if required:
        sys.exit('surface: no folder for the product %s under Sources/ or Runtime/Sources/' % module)
    return None


def count(folder, problems=None, base=root):
    """(public, package) declarations under `folder`; each extension that
    carries an access level is added to `problems` as `path:line`."""
    public = package = 0
    for directory, _, files in sorted(os.walk(folder)):
        for name in sorted(files):
            if not name.endswith('.swift'):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding='utf-8') as source:
                for number, line in enumerate(source, 1):
                    if IMPORT.match(line):
                        continue
                    if EXTENSION_WITH_ACCESS.match(line):
                        if problems is not None:
                            problems.append('%s:%d: an extension with an access level (%s) makes its members public or package '
                                            'without a word on their lines, so they go uncounted: drop it and write the level on '
                                            'each member' % (os.path.relpath(path, base), number, line.strip().split('{')[0].strip()))
                        continue
                    if PUBLIC.match(line):
                        public += 1
                    elif PACKAGE.match(line):
                        package += 1
    return public, package


def listed(root):
    """The first CHANGELOG section's "Public surface" list: {module: (public, package)}, and its heading."""
    section = None
    found = {}
    with open(os.path.join(root, 'CHANGELOG.md'), encoding='utf-8') as changelog:
        for line in changelog:
            if line.startswith('## '):
                if found:
                    break
                section = line[3:].strip()
            match = LISTED.match(line)
            if match and section:
                found[match.group(1)] = (int(match.group(2)), int(match.group(3)))
    return found, section


def measure(root, problems=None):
    modules = products(root)
    modules += reexported(root, modules)
    return {module: count(module_folder(root, module), problems, root) for module in modules}


def check(root, out=sys.stdout):
    problems = []
    measured = measure(root, problems)
    for module, (public, package) in measured.items():
        print('SURFACE %s public %d package %d' % (module, public, package), file=out)
    expected, section = listed(root)
    for module, (public, package) in measured.items():
        if module not in expected:
            problems.append('%s is not in the CHANGELOG\'s "Public surface" list: add the line "- `%s`: %d public, %d package"'
                            % (module, module, public, package))
            continue
        was_public, was_package = expected[module]
        if public > was_public:
            problems.append('%s has %d public declarations, %d more than CHANGELOG.md (%s) lists: say in that section what became '
                            'public and why, and set its line to "- `%s`: %d public, %d package" (or make the new ones `package`)'
                            % (module, public, public - was_public, section, module, public, package))
        elif public < was_public or package != was_package:
            problems.append('%s has %d public and %d package declarations, CHANGELOG.md (%s) lists %d and %d: set its line to '
                            '"- `%s`: %d public, %d package"' % (module, public, package, section, was_public, was_package,
                                                                 module, public, package))
    for module in sorted(set(expected) - set(measured)):
        problems.append('CHANGELOG.md lists %s, which is no library product of Package.swift: remove its line' % module)
    for problem in problems:
        print('surface: ' + problem, file=sys.stderr)
    return not problems


def self_test():
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, 'repo')
        os.makedirs(copy)
        shutil.copy(os.path.join(root, 'Package.swift'), copy)
        shutil.copy(os.path.join(root, 'CHANGELOG.md'), copy)
        for module in products(root) + reexported(root, products(root)):
            folder = module_folder(root, module)
            shutil.copytree(folder, os.path.join(copy, os.path.relpath(folder, root)))
        module = products(root)[0]
        planted = os.path.join(copy, os.path.relpath(module_folder(root, module), root), 'Planted.swift')
        with open(planted, 'w', encoding='utf-8') as plant:
            plant.write('/// Planted by the self-test.\n@discardableResult public func planted() -> Int { 1 }\n'
                        'nonisolated public func plantedAfterAModifier() {}\n'
                        'public import Foundation\npackage func alsoPlanted() {}\n')
        result = subprocess.run([sys.executable, os.path.abspath(__file__), '--check', '--root', copy],
                                capture_output=True, text=True)
        wanted = '%s has ' % module
        if result.returncode == 0 or wanted not in result.stderr or '2 more than CHANGELOG.md' not in result.stderr:
            sys.exit('surface self-test: two planted public functions in %s (one after a modifier) were not refused (exit %d): %s'
                     % (module, result.returncode, result.stderr.strip()))
        print('surface self-test: two planted public functions in %s are refused: %s' % (module, result.stderr.strip().splitlines()[0]))
        with open(planted, 'w', encoding='utf-8') as plant:
            plant.write('public extension Int {\n    func plantedMember() {}\n}\n')
        result = subprocess.run([sys.executable, os.path.abspath(__file__), '--check', '--root', copy],
                                capture_output=True, text=True)
        if result.returncode == 0 or 'Planted.swift:1: an extension with an access level' not in result.stderr:
            sys.exit('surface self-test: a planted `public extension` in %s was not refused (exit %d): %s'
                     % (module, result.returncode, result.stderr.strip()))
        print('surface self-test: a planted `public extension` is refused: %s' % result.stderr.strip().splitlines()[0])


def example_targets(root):
    """Package.swift's targets under Examples/ (the command-line tools, their
    logging, the iOS sample app's screens): (name, folder)."""
    text = open(os.path.join(root, 'Package.swift'), encoding='utf-8').read()
    found = re.findall(r'\.(?:executableTarget|target)\(\s*name: "([^"]+)",(?:[^()]|\([^()]*\))*?path: "(Examples/[^"]+)"', text, re.S)
    if not found:
        sys.exit('surface: no target under Examples/ in Package.swift: nothing to check')
    return found


def check_examples(root):
    work = tempfile.mkdtemp(prefix='surface-examples-')
    try:
        return check_examples_in(root, script_support.current_modules(root, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_examples_in(root, modules):
    failed = False
    for name, folder in example_targets(root):
        sources = sorted(os.path.join(root, folder, f) for f in os.listdir(os.path.join(root, folder)) if f.endswith('.swift'))
        errors = script_support.typecheck_as_app(root, modules, name.replace('-', '_'), sources)
        if errors:
            failed = True
            print('surface: %s (%s) does not compile as an app\'s code, outside this package: it uses what an app '
                  'cannot (a `package` declaration?); make it public if apps need it, or change the sample:' % (name, folder),
                  file=sys.stderr)
            for line in errors:
                print('  ' + line.replace(root + os.sep, ''), file=sys.stderr)
        else:
            print('surface: %s compiles against the public API alone' % name)
    return not failed


def main(argv):
    global root
    if '--root' in argv:
        root = argv[argv.index('--root') + 1]
    if '--self-test' in argv:
        self_test()
        return 0
    if '--check' in argv:
        return 0 if check(root) else 1
    if '--examples' in argv:
        return 0 if check_examples(root) else 1
    for module, (public, package) in measure(root).items():
        print('SURFACE %s public %d package %d' % (module, public, package))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
