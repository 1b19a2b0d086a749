"""The harness's Python packages install from a lock file: every package it
needs pinned to one version with the hashes pip checks (`--require-hashes`),
and every direct requirement in requirements.in locked at its own pin."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def entries(path):
    """(name, version, hashes) of each requirement, continuation lines joined."""
    text = open(path).read().replace('\\\n', ' ')
    found = []
    for line in text.splitlines():
        line = line.split('#', 1)[0].strip()
        if not line:
            continue
        match = re.match(r'([A-Za-z0-9_.\-]+)==([^\s;]+)', line)
        assert match, f'{os.path.basename(path)}: not pinned to one version: {line!r}'
        found.append((match.group(1).lower().replace('_', '-'), match.group(2), re.findall(r'--hash=sha256:[0-9a-f]{64}', line)))
    return found


def test_every_locked_package_has_a_version_and_a_hash():
    locked = entries(os.path.join(HERE, 'requirements.txt'))
    assert len(locked) > 10, 'the lock holds what the direct requirements need, not only them'
    for name, version, hashes in locked:
        assert hashes, f'{name}=={version} has no hash'


def test_every_direct_requirement_is_locked_at_its_pin():
    locked = {name: version for name, version, _ in entries(os.path.join(HERE, 'requirements.txt'))}
    for name, version, _ in entries(os.path.join(HERE, 'requirements.in')):
        assert locked.get(name) == version, f'{name}=={version} of requirements.in is locked as {locked.get(name)}'


def test_every_install_requires_the_hashes():
    root = os.path.dirname(os.path.dirname(HERE))
    for path in [os.path.join(HERE, 'run.py'), os.path.join(root, 'Makefile')]:
        text = open(path).read()
        for command in re.findall(r"pip.{0,40}install[^\n]*requirements\.txt", text):
            assert '--require-hashes' in command, f'{os.path.relpath(path, root)} installs without --require-hashes: {command}'
