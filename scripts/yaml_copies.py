#!/usr/bin/env python3
"""make yaml-copies: the system libyaml and the vendored copy read every
spec to the same tree, node for node, and the vendored copy's symbols are
all its own.

Linux builds the YAML reader against the system libyaml (libyaml-dev);
Apple platforms against the copy vendored in Generator/Sources/CLibYAMLVendored,
which a Mac cannot run here. So `yaml-tree-dump` is built twice on this
machine, once against each copy (`LIBYAML=vendored`, in its own scratch
path), and both dump every node (kind, style, tag, line:column, text or
children) of the same files: the corpus, the four specs, every spec of the
tests, and inputs made here to reach libyaml's corners (errors with their
marks, anchors and merge keys, flow collections, block scalars, tags,
UTF-16, a byte-order mark, invalid UTF-8, tabs, deep nesting). Any line
that differs fails the check, naming the file and the node.

The vendored copy's functions are renamed oamc_yaml_... (a prefix header
that scripts/update_libyaml.py writes), so they never meet another
libyaml's in one binary: `nm` must find no global symbol of its objects
without the prefix.
"""
import glob
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_support

ROOT = script_support.ROOT
fail = script_support.failing('yaml-copies')
FLAGS = open(os.path.join(ROOT, 'scripts', 'debug_build_flags')).read().split()
VENDORED_SCRATCH = os.path.join(ROOT, '.build', 'vendored-yaml')
PREFIX = 'oamc_'

# Inputs that reach libyaml's corners: what the specs in the repository
# may never show, above all its errors and their marks.
CORNERS = {
    'unclosed-quote.yaml': b'a: "open\nb: 1\n',
    'tab-indent.yaml': b'a:\n\tb: 1\n',
    'bad-indent.yaml': b'a:\n  b: 1\n c: 2\n',
    'undefined-alias.yaml': b'a: *nowhere\n',
    'anchors-and-merge.yaml': b'base: &b {x: 1, y: [2, 3]}\nmore:\n  <<: *b\n  z: !!str 4\nlist: [*b, *b]\n',
    'block-scalars.yaml': b'lit: |\n  line one\n  line two\nfold: >-\n  folded\n  text\n\nkeep: |+\n  kept\n\n',
    'flow-and-json.yaml': b'{"a": [1, 2.5, -3e4, true, null, "x\\u00e9y"], b: {c: ~}, \'d\': \'it\'\'s\'}\n',
    'tags-and-directives.yaml': b'%YAML 1.1\n%TAG !e! tag:example.com,2000:\n---\na: !e!thing value\nb: !!binary aGVsbG8=\n...\n',
    'two-documents.yaml': b'a: 1\n---\nb: 2\n',
    'duplicate-keys.yaml': b'a: 1\nb: 2\na: 3\n',
    'utf16le-bom.yaml': '\ufeffname: caf\u00e9\nlist: [\u00fc, \u4e2d]\n'.encode('utf-16-le'),
    'utf8-bom.yaml': b'\xef\xbb\xbfa: b\n',
    'invalid-utf8.yaml': b'a: \xff\xfe\n',
    'control-character.yaml': b'a: "\x07"\n',
    'deep-nesting.yaml': b'a: ' + b'[' * 200 + b']' * 200 + b'\n',
    'too-deep.yaml': b'[' * 1200 + b']' * 1200 + b'\n',
    'empty.yaml': b'',
    'comments-only.yaml': b'# nothing\n# here\n',
    'multiline-plain.yaml': b'a: one\n  two\n  three\nb: "esc\\tapes\\n\\x41\\u263A"\n',
    'complex-key.yaml': b'? [a, b]\n: value\n? |\n  block key\n: 2\n',
}


def build(env, scratch=None):
    command = ['swift', 'build', *FLAGS, '--product', 'yaml-tree-dump'] + (['--scratch-path', scratch] if scratch else [])
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f'{" ".join(command)} failed:\n{(result.stdout + result.stderr)[-3000:]}')
    path = subprocess.run(command + ['--show-bin-path'], cwd=ROOT, env=env, capture_output=True, text=True).stdout.strip()
    return os.path.join(path, 'yaml-tree-dump')


def dump(tool, files):
    result = subprocess.run([tool, *files], cwd=ROOT, capture_output=True)
    if result.returncode != 0:
        fail(f'{tool} exited {result.returncode}:\n{result.stderr.decode(errors="replace")[-2000:]}')
    return result.stdout.decode('utf-8', errors='replace').splitlines()


def main():
    files = sorted(
        glob.glob(os.path.join(ROOT, 'corpus', '*.yaml')) + glob.glob(os.path.join(ROOT, 'corpus', '*.json'))
        + glob.glob(os.path.join(ROOT, 'specs', '*.yaml')) + glob.glob(os.path.join(ROOT, 'Tests', 'Fixtures', '*.yaml'))
        + glob.glob(os.path.join(ROOT, 'Generator', 'Tests', '**', '*.yaml'), recursive=True)
        + glob.glob(os.path.join(ROOT, 'scripts', 'conformance', 'specs', '*.yaml')))
    files = [os.path.relpath(path, ROOT) for path in files]
    with tempfile.TemporaryDirectory() as folder:
        for name, content in CORNERS.items():
            with open(os.path.join(folder, name), 'wb') as handle:
                handle.write(content)
        corners = [os.path.join(folder, name) for name in sorted(CORNERS)]
        system_tool = build(dict(os.environ))
        vendored_tool = build(dict(os.environ, LIBYAML='vendored'), VENDORED_SCRATCH)
        system = dump(system_tool, files + corners)
        vendored = dump(vendored_tool, files + corners)
    if not system or 'system' not in system[0] or not vendored or 'vendored' not in vendored[0]:
        fail(f'the two builds did not link the two copies: {system[:1]} and {vendored[:1]}')
    print(f'yaml-copies: {system[0]} and {vendored[0]}')
    current = '?'
    for line, (left, right) in enumerate(zip(system[1:], vendored[1:]), start=2):
        if left.startswith('== '):
            current = left[3:]
        if left != right:
            fail(f'{current}: the copies differ at dump line {line}:\n  system:   {left}\n  vendored: {right}')
    if len(system) != len(vendored):
        fail(f'the dumps differ in length: {len(system)} and {len(vendored)} lines')
    nodes = sum(int(line.split()[1]) for line in system if line.startswith('nodes '))
    errors = sum(1 for line in system if line.startswith('error '))
    print(f'yaml-copies: {len(files)} spec files and {len(CORNERS)} corner inputs read to equal trees '
          f'({nodes} nodes, {errors} errors with equal marks)')

    objects = glob.glob(os.path.join(VENDORED_SCRATCH, 'debug', 'CLibYAMLVendored.build', '**', '*.o'), recursive=True)
    if not objects:
        fail('the vendored copy\'s objects were not found')
    listed = subprocess.run(['nm', '-g', '--defined-only', *objects], capture_output=True, text=True, check=True).stdout
    symbols = [fields[2] for fields in (line.split() for line in listed.splitlines()) if len(fields) == 3]
    unprefixed = sorted(symbol for symbol in symbols if not symbol.startswith(PREFIX))
    if unprefixed:
        fail(f'the vendored copy defines symbols another libyaml may define too (add them to the prefix header: '
             f'scripts/update_libyaml.py): {", ".join(unprefixed)}')
    print(f'yaml-copies: ok ({len(symbols)} global symbols of the vendored copy, all {PREFIX}...)')


if __name__ == '__main__':
    main()
