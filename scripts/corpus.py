#!/usr/bin/env python3
"""`make corpus`: generates a client from every spec in a folder and compiles
each one in a scratch package that depends on this package's ClientRuntime.

Usage: corpus.py CLIENTGEN CORPUS_DIR [--skip NAME ...] [--work DIR]

Prints a table (spec, generated lines, generate seconds, compile seconds,
result), one line per spec
    CORPUS <file> <ok|generate-failed|compile-failed> <lines> <generate_s> <compile_s>
and a last line `compiled N/M`. Exits 1 unless every spec compiles."""
import argparse, glob, os, re, shutil, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scratch_package import build_command, write_manifest

parser = argparse.ArgumentParser()
parser.add_argument('clientgen')
parser.add_argument('corpus')
parser.add_argument('--skip', action='append', default=[])
parser.add_argument('--work', default='.build-corpus')
args = parser.parse_args()

root = os.path.abspath('.')
clientgen = os.path.abspath(args.clientgen)
specs = sorted(p for p in glob.glob(os.path.join(args.corpus, '*')) if p.endswith(('.yaml', '.yml', '.json')))
specs = [p for p in specs if os.path.basename(p) not in args.skip]
if not specs:
    print(f'no *.yaml or *.json specs in {args.corpus}', file=sys.stderr)
    sys.exit(1)

work = os.path.abspath(args.work)
package = os.path.join(work, 'package')
os.makedirs(os.path.join(package, 'Sources'), exist_ok=True)

def module_name(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    words = re.split(r'[^A-Za-z0-9]+', stem)
    return 'Corpus' + ''.join(w[:1].upper() + w[1:] for w in words if w)

rows = []
modules = []
for spec in specs:
    module = module_name(spec)
    out = os.path.join(package, 'Sources', module)
    shutil.rmtree(out, ignore_errors=True)
    started = time.monotonic()
    result = subprocess.run([clientgen, 'generate', spec, '--output', out, '--module', module], capture_output=True, text=True)
    generate_s = time.monotonic() - started
    if result.returncode != 0:
        sys.stderr.write(result.stderr[-2000:])
        rows.append([os.path.basename(spec), 'generate-failed', 0, generate_s, 0.0, module])
        continue
    lines = sum(open(f, encoding='utf-8').read().count('\n') for f in glob.glob(os.path.join(out, '*.swift')))
    rows.append([os.path.basename(spec), None, lines, generate_s, 0.0, module])
    modules.append(module)

write_manifest(package, root, modules, 'CorpusClients')
for stale in os.listdir(os.path.join(package, 'Sources')):
    if stale not in modules:
        shutil.rmtree(os.path.join(package, 'Sources', stale), ignore_errors=True)

if modules:
    # Dependencies first, so each spec's compile time is its own code only.
    warm = subprocess.run(build_command(package, '--target', 'ClientRuntime'), capture_output=True, text=True)
    if warm.returncode != 0:
        sys.stderr.write(warm.stdout[-3000:] + warm.stderr[-3000:])
        sys.exit(1)

for row in rows:
    if row[1] is not None:
        continue
    started = time.monotonic()
    build = subprocess.run(build_command(package, '--target', row[5]), capture_output=True, text=True)
    row[4] = time.monotonic() - started
    row[1] = 'ok' if build.returncode == 0 else 'compile-failed'
    if build.returncode != 0:
        errors = [l for l in build.stdout.splitlines() if ': error:' in l]
        sys.stderr.write(f'{row[0]}: {len(errors)} compile errors, first ones:\n' + '\n'.join(errors[:15]) + '\n')

width = max(len(r[0]) for r in rows)
print(f'{"spec":<{width}}  {"lines":>7}  {"generate s":>10}  {"compile s":>9}  result')
for name, result, lines, generate_s, compile_s, _ in rows:
    print(f'{name:<{width}}  {lines:>7}  {generate_s:>10.2f}  {compile_s:>9.2f}  {result}')
for name, result, lines, generate_s, compile_s, _ in rows:
    print(f'CORPUS {name} {result} {lines} {generate_s:.2f} {compile_s:.2f}')
compiled = sum(1 for r in rows if r[1] == 'ok')
print(f'compiled {compiled}/{len(rows)}')
sys.exit(0 if compiled == len(rows) else 1)
