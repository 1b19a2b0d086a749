#!/usr/bin/env python3
"""`make layout`: the repository's map stays true.

- Every target of every package is in a folder named as the target (so a
  folder name is a module name, and a module is found by its name).
- Every relative link in README.md, CONTRIBUTING.md, CHANGELOG.md, the
  packages' READMEs and docs/*.md points at a file or folder that exists.

Prints one line per check and exits 1 naming each mismatch."""
import glob, json, os, re, subprocess, sys

root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
packages = ['.', 'Sandbox/Server', 'Benchmarks/PeerComparison', 'Examples/ios-app']
default_folder = {'regular': 'Sources', 'executable': 'Sources', 'system': 'Sources', 'test': 'Tests', 'plugin': 'Plugins'}
problems = []

targets = 0
for package in packages:
    dumped = subprocess.run(['swift', 'package', '--package-path', os.path.join(root, package), 'dump-package'],
                            capture_output=True, text=True)
    if dumped.returncode != 0:
        problems.append(f'{package}/Package.swift does not load: {dumped.stderr.strip()[-500:]}')
        continue
    for target in json.loads(dumped.stdout)['targets']:
        targets += 1
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
    in_code = False
    for number, line in enumerate(open(path, encoding='utf-8'), 1):
        if line.lstrip().startswith('```'):
            in_code = not in_code
            continue
        if in_code:
            continue
        for target in link.findall(line):
            if re.match(r'^[a-z][a-z0-9+.-]*:', target) or target.startswith('#'):
                continue
            links += 1
            file = target.split('#', 1)[0]
            if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(path), file))):
                problems.append(f'{document}:{number}: the link to {target} leads nowhere')
print(f'layout: {links} relative links in {len(documents)} documents checked')

for problem in problems:
    print(f'layout: {problem}', file=sys.stderr)
if problems:
    sys.exit(1)
print('layout: ok')
