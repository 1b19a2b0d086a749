"""This repository as an app team gets it: a git URL and a version tag.

`publish()` copies the working tree (what `git add -A` would commit:
tracked and new files, minus what .gitignore leaves out) into a bare
repository `openapi-mobile-clients.git` in a scratch folder, as one commit
on `main` tagged with the generator's version, so a scratch package can
depend on it with `.package(url: "file://...", from: VERSION)` exactly as an
app depends on the hosted repository. `REVISION` publishes a commit instead
of the working tree (to show what an older main did).

`report()` says what a resolved and built scratch package fetched and
built: the packages in its `.build/checkouts` with their sizes, and the
modules compiled; and names any package that must never reach an app."""
import os, re, shutil, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_support

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
# The package identity SwiftPM gives this repository: the URL's last component.
IDENTITY = 'openapi-mobile-clients'
# Packages that must never be fetched by an app or a plugin user (the sandbox server's).
FORBIDDEN = ('hummingbird', 'swift-nio')


def version():
    """The version a release tag carries: the generator's (CHANGELOG.md)."""
    text = open(os.path.join(ROOT, 'Generator/Sources/Codegen/GeneratorVersion.swift'), encoding='utf-8').read()
    return re.search(r'current = "([^"]+)"', text).group(1)


git = script_support.git


def publish(scratch, revision=None):
    """Publishes the working tree (or `revision`) under `scratch`; returns (url, version)."""
    tag = version()
    if revision:
        commit = git('rev-parse', revision)
    else:
        # The working tree as a commit, through an index of its own (the real one is left alone).
        index = os.path.join(scratch, 'publish-index')
        env = dict(os.environ, GIT_INDEX_FILE=index)
        git('read-tree', 'HEAD', env=env)
        git('add', '-A', '.', env=env)
        tree = git('write-tree', env=env)
        commit = subprocess.run(
            ['git', 'commit-tree', tree, '-p', 'HEAD', '-m', 'published working tree'], cwd=ROOT, check=True, capture_output=True, text=True,
            env=dict(os.environ, GIT_AUTHOR_NAME='check', GIT_AUTHOR_EMAIL='check@localhost', GIT_COMMITTER_NAME='check',
                     GIT_COMMITTER_EMAIL='check@localhost')).stdout.strip()
        os.remove(index)
    bare = os.path.join(scratch, f'{IDENTITY}.git')
    git('init', '--bare', '-q', bare)
    git('push', '-q', bare, f'{commit}:refs/heads/main')
    git('tag', '-f', tag, commit, cwd=bare)
    git('symbolic-ref', 'HEAD', 'refs/heads/main', cwd=bare)
    return f'file://{bare}', tag


def folder_size(path):
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            full = os.path.join(folder, name)
            if not os.path.islink(full):
                total += os.path.getsize(full)
    return total


def fetched(package):
    """(identity, bytes) of every package the scratch package fetched, sorted."""
    checkouts = os.path.join(package, '.build', 'checkouts')
    if not os.path.isdir(checkouts):
        return []
    return sorted((name.lower(), folder_size(os.path.join(checkouts, name))) for name in os.listdir(checkouts))


def modules_built(package):
    """The modules (Swift and C targets) the scratch package's build
    compiled: those with object files (SwiftPM plans a folder for every
    target of the graph, built or not)."""
    built = os.path.join(package, '.build', 'debug')
    if not os.path.isdir(built):
        return []
    modules = []
    for name in os.listdir(built):
        if not name.endswith('.build'):
            continue
        for _, _, files in os.walk(os.path.join(built, name)):
            if any(file.endswith('.o') for file in files):
                modules.append(name[:-len('.build')])
                break
    return sorted(modules)


def forbidden(packages):
    return [name for name, _ in packages if name.startswith(FORBIDDEN)]


def report(label, package, built=True):
    """Prints what `package` fetched (and built) as `label`; returns the forbidden packages it fetched."""
    packages = fetched(package)
    size = sum(bytes for _, bytes in packages)
    print(f'{label}: fetched {len(packages)} packages, {size / 1e6:.0f} MB: '
          + ', '.join(f'{name} {bytes / 1e6:.1f} MB' for name, bytes in packages))
    print(f'BENCH {label}-packages-fetched {len(packages)} packages')
    print(f'BENCH {label}-fetched-size {size / 1e6:.1f} MB')
    if built:
        modules = modules_built(package)
        print(f'{label}: built {len(modules)} modules: {", ".join(modules)}')
        print(f'BENCH {label}-modules-built {len(modules)} modules')
    return forbidden(packages)


def scratch_folder(prefix):
    import tempfile
    return tempfile.mkdtemp(prefix=prefix)


def remove(path):
    shutil.rmtree(path, ignore_errors=True)
