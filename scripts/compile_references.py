#!/usr/bin/env python3
"""`make references`: compiles the expected output of every reference test
(`Generator/Tests/CodegenTests/References/NAME.swift`, the generated files one after
another) as a module of its own in a scratch package that depends on this
package's ClientRuntime, so a reference that reads right but does not build
fails CI. ReferenceTests checks that the generator produces exactly these
files; this checks that they compile.

Usage: compile_references.py [--references DIR] [--work DIR]

Prints `REFERENCE <name> <files> <lines>` per reference, then
`references compiled N/N` or the compiler's errors; exits 1 on failure."""
import argparse, glob, os, re, shutil, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scratch_package import build_command, write_manifest

parser = argparse.ArgumentParser()
parser.add_argument('--references', default='Generator/Tests/CodegenTests/References')
parser.add_argument('--work', default='.build-references')
args = parser.parse_args()

root = os.path.abspath('.')
package = os.path.join(os.path.abspath(args.work), 'package')
sources = os.path.join(package, 'Sources')
shutil.rmtree(sources, ignore_errors=True)
os.makedirs(sources)

marker = re.compile(r'^// ==== (.+\.swift) ====$', re.M)
modules = []
for path in sorted(glob.glob(os.path.join(args.references, '*.swift'))):
    name = os.path.splitext(os.path.basename(path))[0]
    module = 'Reference' + ''.join(w[:1].upper() + w[1:] for w in re.split(r'[^A-Za-z0-9]+', name) if w)
    text = open(path, encoding='utf-8').read()
    parts = marker.split(text)
    # parts: [before the first marker, name1, body1, name2, body2, ...]
    if len(parts) < 3 or parts[0].strip():
        print(f'{path}: expected "// ==== FILE.swift ====" sections', file=sys.stderr)
        sys.exit(1)
    os.makedirs(os.path.join(sources, module))
    for file_name, body in zip(parts[1::2], parts[2::2]):
        with open(os.path.join(sources, module, file_name), 'w', encoding='utf-8') as f:
            f.write(body.lstrip('\n'))
    print(f'REFERENCE {name} {len(parts) // 2} {text.count(chr(10))}')
    modules.append(module)

if not modules:
    print(f'no references in {args.references}', file=sys.stderr)
    sys.exit(1)
write_manifest(package, root, modules, 'References')
build = subprocess.run(build_command(package, '--product', 'References'), capture_output=True, text=True)
if build.returncode != 0:
    errors = [l for l in build.stdout.splitlines() if ': error:' in l]
    sys.stderr.write(f'{len(errors)} compile errors, first ones:\n' + '\n'.join(errors[:20]) + '\n' + build.stderr[-2000:])
    print(f'references compiled 0/{len(modules)}')
    sys.exit(1)
print(f'references compiled {len(modules)}/{len(modules)}')
