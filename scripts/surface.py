#!/usr/bin/env python3
"""`make layout` (and so `make ci`): the public surface of each module an app links.

Counts, per library product of Package.swift (the runtime libraries and
the SDKs) and per module a product re-exports (the SDKs' core; the
generated clients are the generator's output, not hand-kept API), the
declarations marked `public` or `open` and those marked
`package`. A declaration is a line that starts, after any attributes,
with that access keyword; `public extension` and `public import` lines are
not declarations (an extension's members are counted one by one).

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
NOT_DECLARATION = re.compile(r'^\s*(?:@[A-Za-z_]+\s+)*(?:public|open|package)\s+(?:import|extension)\b')
PUBLIC = re.compile(ATTRIBUTES + r'(?:public|open)\s')
PACKAGE = re.compile(ATTRIBUTES + r'package\s')
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


def count(folder):
    public = package = 0
    for directory, _, files in sorted(os.walk(folder)):
        for name in sorted(files):
            if not name.endswith('.swift'):
                continue
            with open(os.path.join(directory, name), encoding='utf-8') as source:
                for line in source:
                    if NOT_DECLARATION.match(line):
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


def measure(root):
    modules = products(root)
    modules += reexported(root, modules)
    return {module: count(module_folder(root, module)) for module in modules}


def check(root, out=sys.stdout):
    measured = measure(root)
    for module, (public, package) in measured.items():
        print('SURFACE %s public %d package %d' % (module, public, package), file=out)
    expected, section = listed(root)
    problems = []
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
        for module in products(root):
            folder = module_folder(root, module)
            shutil.copytree(folder, os.path.join(copy, os.path.relpath(folder, root)))
        module = products(root)[0]
        planted = os.path.join(copy, os.path.relpath(module_folder(root, module), root), 'Planted.swift')
        with open(planted, 'w', encoding='utf-8') as plant:
            plant.write('/// Planted by the self-test.\n@discardableResult public func planted() -> Int { 1 }\n'
                        'public extension Int {}\npackage func alsoPlanted() {}\n')
        result = subprocess.run([sys.executable, os.path.abspath(__file__), '--check', '--root', copy],
                                capture_output=True, text=True)
        wanted = '%s has ' % module
        if result.returncode == 0 or wanted not in result.stderr or '1 more than CHANGELOG.md' not in result.stderr:
            sys.exit('surface self-test: a planted public function in %s was not refused (exit %d): %s'
                     % (module, result.returncode, result.stderr.strip()))
        print('surface self-test: a planted public function in %s is refused: %s' % (module, result.stderr.strip().splitlines()[0]))


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
    maps = [os.path.join(root, '.build', 'checkouts', 'GRDB.swift', 'Sources', 'GRDBSQLite', 'module.modulemap'),
            os.path.join(root, 'Generator', 'Sources', 'CLibYAML', 'module.modulemap')]
    failed = False
    for name, folder in example_targets(root):
        sources = sorted(os.path.join(root, folder, f) for f in os.listdir(os.path.join(root, folder)) if f.endswith('.swift'))
        command = ['swiftc', '-typecheck', '-parse-as-library', '-module-name', name.replace('-', '_'), '-swift-version', '6', '-I', modules]
        for module_map in maps:
            command += ['-Xcc', '-fmodule-map-file=' + module_map]
        result = subprocess.run(command + sources, cwd=root, capture_output=True, text=True)
        errors = [line for line in result.stderr.splitlines() if re.match(r'^\S+:\d+:\d+: error:', line)]
        if result.returncode != 0:
            failed = True
            print('surface: %s (%s) does not compile as an app\'s code, outside this package: it uses what an app '
                  'cannot (a `package` declaration?); make it public if apps need it, or change the sample:' % (name, folder),
                  file=sys.stderr)
            for line in errors or result.stderr.splitlines()[:20]:
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
