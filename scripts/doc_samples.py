#!/usr/bin/env python3
"""`make test` (after the build): the Swift samples of the docs compile.

Reads every ```swift block of README.md, docs/*.md and the DocC catalogs
(`Sources/*/*.docc`, `Runtime/Sources/*/*.docc`) and type-checks them, as
code outside this package, against the modules the build left (the public
API alone, Swift 6), so a sample that names a type, member or label that is
not there fails the tests and names the doc's file and line.

A block is one file of a scratch module: its `import` lines stay at the top,
the rest becomes the body of an `async throws` function, so statements,
`try await` and local types read as in an app. What a block uses but does
not declare (a session, a client, a URL) comes from a comment on the line
before its fence, which gives the function's parameters, and the modules a
block without `import` lines needs:

    <!-- sample(session: TokenSession, url: URL) imports Resilience SoulAPI -->

Other comments on that line:

- `<!-- sample: top-level -->`: the block is the file as it stands
  (extensions, `@main`, protocols: what a function body cannot hold).
- `<!-- sample: not compiled: <why> -->`: a fragment (`...` for what the
  reader fills in, a spec or shell line), listed with its reason.

`--self-test` plants a wrong member in a copy of one sample and checks the
run fails naming the doc's line.
"""
import glob, os, re, shutil, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_support

ROOT = script_support.ROOT
fail = script_support.failing('doc-samples')
DIRECTIVE = re.compile(r'^<!--\s*sample(?P<params>\((?:[^()]|\([^()]*\))*\))?(?:\s+imports\s+(?P<imports>[A-Za-z0-9_ ]+?))?'
                       r'(?::\s*(?P<mode>top-level|not compiled:\s*(?P<why>.+?)))?\s*-->\s*$')
# Every sample file starts with these (URLSession is FoundationNetworking's on Linux).
PRELUDE = ['import Foundation', '#if canImport(FoundationNetworking)', 'import FoundationNetworking', '#endif']


def documents(root):
    paths = [os.path.join(root, 'README.md')]
    paths += sorted(glob.glob(os.path.join(root, 'docs', '*.md')))
    paths += sorted(glob.glob(os.path.join(root, 'Sources', '*', '*.docc', '*.md')))
    paths += sorted(glob.glob(os.path.join(root, 'Runtime', 'Sources', '*', '*.docc', '*.md')))
    return paths


def blocks(path):
    """(first line number of the code, code lines, directive match or None) per ```swift block."""
    lines = open(path, encoding='utf-8').read().split('\n')
    found = []
    index = 0
    while index < len(lines):
        if lines[index].strip().startswith('```swift '):
            # A titled block (```swift PATH): a file of docs/OwnSpec.md's package.
            end = index + 1
            while end < len(lines) and lines[end].strip() != '```':
                end += 1
            found.append((index + 2, None, None))
            index = end
        elif lines[index].strip() == '```swift':
            directive = None
            before = index - 1
            while before >= 0 and not lines[before].strip():
                before -= 1
            if before >= 0:
                directive = DIRECTIVE.match(lines[before].strip())
                if lines[before].strip().startswith('<!-- sample') and not directive:
                    fail('%s:%d: a sample comment this check does not read: %r (see scripts/doc_samples.py)'
                         % (os.path.relpath(path, ROOT), before + 1, lines[before].strip()))
            end = index + 1
            while end < len(lines) and lines[end].strip() != '```':
                end += 1
            found.append((index + 2, lines[index + 1:end], directive))
            index = end
        index += 1
    return found


def source_for(number, relative, first_line, code, directive):
    """The scratch file of one block, its lines mapped back to the doc."""
    location = lambda line: '#sourceLocation(file: "%s", line: %d)' % (relative, line)
    given = ['import ' + name for name in (directive.group('imports') or '').split()] if directive else []
    if directive and directive.group('mode') == 'top-level':
        return '\n'.join(PRELUDE + given + [location(first_line)] + code + ['#sourceLocation()', ''])
    is_import = lambda line: re.match(r'^\s*(@testable\s+)?import\s', line)
    # Each import keeps its doc line too (a module that is not there names it).
    imports = [part for offset, line in enumerate(code) if is_import(line) for part in (location(first_line + offset), line)]
    params = directive.group('params')[1:-1] if directive and directive.group('params') else ''
    out = PRELUDE + given + imports + ['@MainActor func sample%d(%s) async throws {' % (number, params)]
    # The body keeps the block's lines (its imports left blank), so an error names the doc's line.
    out.append(location(first_line))
    out += ['' if is_import(line) else line for line in code]
    out.append('#sourceLocation()')
    out.append('}')
    return '\n'.join(out) + '\n'


def check(root, plant=None):
    """Type-checks every compiled sample; returns (compiled, skipped, errors)."""
    work = tempfile.mkdtemp(prefix='doc-samples-')
    try:
        modules = script_support.current_modules(root, work)
        compiled, skipped, files = 0, [], []
        for path in documents(root):
            relative = os.path.relpath(path, root)
            for first_line, code, directive in blocks(path):
                if code is None:
                    skipped.append('%s:%d (a file of the guide\'s package: make guide builds and runs it)' % (relative, first_line))
                    continue
                if any(re.match(r'^\s*@testable\s+import\s', line) for line in code):
                    fail('%s:%d: `@testable import` in a sample: an app cannot write it' % (relative, first_line))
                if directive and directive.group('why'):
                    skipped.append('%s:%d (%s)' % (relative, first_line, directive.group('why')))
                    continue
                if plant and plant == (relative, first_line):
                    code = code + ['let _: Int = DocSamplesPlantedMistake.nothing']
                compiled += 1
                name = os.path.join(work, 'Sample%d.swift' % compiled)
                with open(name, 'w', encoding='utf-8') as out:
                    out.write(source_for(compiled, relative, first_line, code, directive))
                files.append(name)
        errors = script_support.typecheck_as_app(root, modules, 'DocSamples', files)
        return compiled, skipped, errors
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv):
    if '--self-test' in argv:
        relative, first_line = 'docs/UsingClients.md', blocks(os.path.join(ROOT, 'docs', 'UsingClients.md'))[0][0]
        _, _, errors = check(ROOT, plant=(relative, first_line))
        if not any(line.startswith(relative + ':') and 'DocSamplesPlantedMistake' in line for line in errors):
            fail('self-test: a planted mistake in %s:%d was not reported at its doc: %s' % (relative, first_line, errors[:3]))
        print('doc-samples self-test: a planted mistake is reported as %s' % [e for e in errors if 'DocSamplesPlantedMistake' in e][0])
        return 0
    compiled, skipped, errors = check(ROOT)
    if errors:
        print('doc-samples: FAILED: a Swift sample of the docs does not compile against the public API '
              '(fix the sample, or give what it uses with <!-- sample(name: Type) --> before its fence):', file=sys.stderr)
        for line in errors:
            print('  ' + line.replace(ROOT + os.sep, ''), file=sys.stderr)
        return 1
    print('doc-samples: %d Swift samples of the docs compile against the public API; %d fragments not compiled:'
          % (compiled, len(skipped)))
    for line in skipped:
        print('  ' + line)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
