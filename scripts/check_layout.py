#!/usr/bin/env python3
"""`make layout`: the repository's map stays true.

- Every target of every package is in a folder named as the target (so a
  folder name is a module name, and a module is found by its name).
- Every relative link in README.md, CONTRIBUTING.md, CHANGELOG.md, the
  packages' READMEs and docs/*.md points at a file or folder that exists.
- README.md is a map of at most 180 lines (detail lives in docs/).
- Every test, file and type those documents (the CHANGELOG aside: it is
  history) name in code spans exists (scripts/doc_references.py).

Prints one line per check and exits 1 naming each mismatch."""
import glob, json, os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_references

root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
packages = ['.', 'Sandbox/Server', 'Benchmarks/PeerComparison', 'Examples/ios-app']
default_folder = {'regular': 'Sources', 'executable': 'Sources', 'system': 'Sources', 'test': 'Tests', 'plugin': 'Plugins'}
problems = []

targets = 0
modules = set()
for package in packages:
    dumped = subprocess.run(['swift', 'package', '--package-path', os.path.join(root, package), 'dump-package'],
                            capture_output=True, text=True)
    if dumped.returncode != 0:
        problems.append(f'{package}/Package.swift does not load: {dumped.stderr.strip()[-500:]}')
        continue
    manifest = json.loads(dumped.stdout)
    modules.update(product['name'] for product in manifest['products'])
    for target in manifest['targets']:
        targets += 1
        modules.add(target['name'])
        path = target.get('path') or os.path.join(default_folder.get(target['type'], 'Sources'), target['name'])
        folder = os.path.normpath(os.path.join(package, path))
        if os.path.basename(folder) != target['name']:
            problems.append(f"{package}/Package.swift: target '{target['name']}' lives in {folder}/; "
                            f"rename the folder to {os.path.join(os.path.dirname(folder), target['name'])}/")
        elif not os.path.isdir(os.path.join(root, folder)):
            problems.append(f"{package}/Package.swift: target '{target['name']}' names {folder}/, which does not exist")
print(f'layout: {targets} targets in {len(packages)} packages checked against their folder names')

link = re.compile(r'\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
documents = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'Runtime/README.md', 'Sources/README.md', 'corpus/README.md'] \
    + sorted(glob.glob('docs/*.md', root_dir=root))
links = 0
for document in documents:
    path = os.path.join(root, document)
    if not os.path.exists(path):
        if document in ('README.md', 'CONTRIBUTING.md'):
            problems.append(f'{document} is missing')
        continue
    for number, line in doc_references.prose_lines(path):
        for target in link.findall(line):
            if re.match(r'^[a-z][a-z0-9+.-]*:', target) or target.startswith('#'):
                continue
            links += 1
            file = target.split('#', 1)[0]
            if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(path), file))):
                problems.append(f'{document}:{number}: the link to {target} leads nowhere')
print(f'layout: {links} relative links in {len(documents)} documents checked')

README_LIMIT = 180
readme_lines = sum(1 for _ in open(os.path.join(root, 'README.md'), encoding='utf-8'))
if readme_lines > README_LIMIT:
    problems.append(f'README.md has {readme_lines} lines, over its {README_LIMIT}: move detail into a page of docs/ and link it')
print(f'layout: README.md is {readme_lines} lines (at most {README_LIMIT})')

cited = [d for d in documents if d != 'CHANGELOG.md']
dangling = doc_references.problems(root, cited, modules)
problems += dangling
print(f'layout: tests, files and types named in {len(cited)} documents checked ({len(dangling)} missing)')

# The check must be able to fail: a page citing a renamed test, a moved
# file and a deleted type is refused, and a page citing real ones is not.
import tempfile
with tempfile.NamedTemporaryFile('w', suffix='.md', delete=False) as planted:
    planted.write('`OutboxTests.aTestNoOneWrote`, `Runtime/Sources/Resilience/NoSuchFile.swift`, `NoSuchRuntimeType`\n'
                  '`OutboxTests.eventsSurviveKillsAndDroppedResponses`, `docs/Codegen.md`, `RetryPolicy`\n')
try:
    caught = doc_references.problems(root, [os.path.relpath(planted.name, root)], modules)
finally:
    os.unlink(planted.name)
if [line.split(': ', 1)[0].rsplit(':', 1)[1] for line in caught] != ['1', '1', '1']:
    problems.append('the document check no longer tells a dangling test, file and type from real ones: ' + '; '.join(caught))

for problem in problems:
    print(f'layout: {problem}', file=sys.stderr)
if problems:
    sys.exit(1)
print('layout: ok')
