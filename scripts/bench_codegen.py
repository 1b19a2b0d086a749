#!/usr/bin/env python3
"""`make bench`, code generation: clientgen's generate time and output size on
the GitHub REST spec and the swift-openapi-generator reference Petstore, the
debug compile time and peak memory of the generated GitHub client (all of
it, and filtered to three operations), and the
same generate figures for apple/swift-openapi-generator 1.14.3 measured in
the same run (release build, when it builds here).

Usage: bench_codegen.py CLIENTGEN CORPUS_DIR [--runs N] [--no-peer] [--no-compile] [--peer-compile]

With --peer-compile the peer's generated GitHub client is compiled in the
same run and `compile-github-vs-peer` compares the two builds of that run;
without it no compile ratio is printed (a figure recorded on another day
is not a comparison).
Prints `BENCH <name> <value> <unit>` lines; figures are medians."""
import argparse, glob, os, re, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scratch_package import timed_debug_build, write_manifest
from peer_generator import CONFIG as PEER_CONFIG, peer_executable, write_client_package

parser = argparse.ArgumentParser()
parser.add_argument('clientgen')
parser.add_argument('corpus')
parser.add_argument('--runs', type=int, default=5)
parser.add_argument('--no-peer', action='store_true')
parser.add_argument('--no-compile', action='store_true')
parser.add_argument('--peer-compile', action='store_true', help="also compile the peer's generated GitHub client (about 4 minutes, 7 GB)")
args = parser.parse_args()

root = os.path.abspath('.')
clientgen = os.path.abspath(args.clientgen)
github = os.path.join(args.corpus, '22-github-rest-api.yaml')
petstore = os.path.join(args.corpus, '09-sog-31-reference-petstore.yaml')
scratch = tempfile.mkdtemp(prefix='bench-codegen-')

def bench(name, value, unit):
    print(f'BENCH {name} {value} {unit}', flush=True)

def count_lines(folder):
    return sum(open(f, encoding='utf-8').read().count('\n') for f in glob.glob(os.path.join(folder, '**', '*.swift'), recursive=True))

def collapsed_bytes(folder):
    """UTF-8 bytes of the generated Swift with every run of whitespace
    collapsed to one space: the size of what the compiler and a reader get,
    whichever way each generator wraps and indents its lines."""
    total = 0
    for path in glob.glob(os.path.join(folder, '**', '*.swift'), recursive=True):
        total += len(re.sub(r'\s+', ' ', open(path, encoding='utf-8').read()).encode('utf-8'))
    return total

def timed_runs(command, runs):
    times = []
    for _ in range(runs):
        started = time.monotonic()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.monotonic() - started)
    return statistics.median(times)

def ours(spec, runs):
    out = os.path.join(scratch, 'ours-' + os.path.basename(spec))
    subprocess.run([clientgen, 'generate', spec, '--output', out, '--module', 'Bench'], check=True, capture_output=True)  # warm-up
    seconds = timed_runs([clientgen, 'generate', spec, '--output', out, '--module', 'Bench'], runs)
    return seconds, count_lines(out), out

def peer(executable, spec, runs):
    out = os.path.join(scratch, 'peer-' + os.path.basename(spec))
    os.makedirs(out, exist_ok=True)
    config = os.path.join(scratch, 'peer-config.yaml')
    with open(config, 'w') as f:
        f.write(PEER_CONFIG)
    command = [executable, 'generate', spec, '--config', config, '--output-directory', out]
    subprocess.run(command, check=True, capture_output=True)  # warm-up
    return timed_runs(command, runs), count_lines(out), out

def compile_peer(executable):
    """A debug build of the peer's generated GitHub client: seconds, peak MB, CPU seconds."""
    package = os.path.join(root, '.build-bench', 'peer-package')
    sources = os.path.join(package, 'Sources', 'PeerGitHubClient')
    shutil.rmtree(sources, ignore_errors=True)
    os.makedirs(sources)
    config = os.path.join(scratch, 'peer-compile-config.yaml')
    with open(config, 'w') as f:
        f.write(PEER_CONFIG)
    subprocess.run([executable, 'generate', github, '--config', config, '--output-directory', sources], check=True, capture_output=True)
    write_client_package(package, 'PeerGitHubClient', '.macOS(.v14), .iOS(.v17)',
                         "Scratch package of `make bench`: the peer's generated GitHub client, compiled in debug.")
    return timed_debug_build(package, 'PeerGitHubClient', warm_target='OpenAPIRuntime')


try:
    github_s, github_lines, github_out = ours(github, args.runs)
    petstore_s, petstore_lines, _ = ours(petstore, max(args.runs, 15))
    bench('generate-github', f'{github_s:.3f}', 's')
    bench('generate-github-lines', github_lines, 'lines')
    github_bytes = collapsed_bytes(github_out)
    bench('generate-github-bytes', github_bytes, 'bytes')
    bench('generate-petstore', f'{petstore_s:.3f}', 's')
    bench('generate-petstore-lines', petstore_lines, 'lines')

    # clientgen diff of the GitHub spec against a copy with the 20 scripted
    # changes of Tests/Fixtures/github-20-changes.json.
    import json
    script = json.load(open(os.path.join(root, 'Tests', 'Fixtures', 'github-20-changes.json')))
    changed = open(github, encoding='utf-8').read()
    for change in script['changes']:
        changed = changed.replace(change['find'], change['replace'], 1)
    changed_path = os.path.join(scratch, 'github-changed.yaml')
    with open(changed_path, 'w', encoding='utf-8') as f:
        f.write(changed)
    diff_command = [clientgen, 'diff', github, changed_path, '--format', 'json']
    report = json.loads(subprocess.run(diff_command, check=True, capture_output=True, text=True).stdout)
    reported = {finding['id'] for finding in report['findings']}
    missing = [change['rule'] for change in script['changes'] if change['rule'] not in reported]
    if missing:
        print(f'diff-github: not reported: {missing}', file=sys.stderr)
        sys.exit(1)
    bench('diff-github', f'{timed_runs(diff_command, args.runs):.3f}', 's')
    bench('diff-github-findings', len(report['findings']), 'findings')

    executable = None if args.no_peer else peer_executable()
    if executable:
        peer_github_s, peer_github_lines, peer_github_out = peer(executable, github, 3)
        peer_petstore_s, peer_petstore_lines, _ = peer(executable, petstore, 5)
        peer_github_bytes = collapsed_bytes(peer_github_out)
        bench('peer-generate-github', f'{peer_github_s:.3f}', 's')
        bench('peer-generate-github-lines', peer_github_lines, 'lines')
        bench('peer-generate-petstore', f'{peer_petstore_s:.3f}', 's')
        bench('peer-generate-petstore-lines', peer_petstore_lines, 'lines')
        bench('generate-github-vs-peer', f'{github_s / peer_github_s:.3f}', 'ratio')
        bench('generate-github-lines-vs-peer', f'{github_lines / peer_github_lines:.3f}', 'ratio')
        bench('peer-generate-github-bytes', peer_github_bytes, 'bytes')
        bench('generate-github-bytes-vs-peer', f'{github_bytes / peer_github_bytes:.3f}', 'ratio')
        bench('generate-petstore-vs-peer', f'{petstore_s / peer_petstore_s:.3f}', 'ratio')

    if not args.no_compile:
        # A debug build of the generated GitHub client in a scratch package
        # whose dependencies are built first, so the figure is the client's own.
        package = os.path.join(root, '.build-bench', 'package')
        module = os.path.join(package, 'Sources', 'GitHubClient')
        shutil.rmtree(module, ignore_errors=True)
        os.makedirs(os.path.dirname(module), exist_ok=True)
        subprocess.run([clientgen, 'generate', github, '--output', module, '--module', 'GitHubClient'], check=True, capture_output=True)
        write_manifest(package, root, ['GitHubClient'], 'BenchClients')
        # Three builds, the median of each figure: SwiftPM sometimes starts
        # the second batch of files only when the first has finished (one
        # core idle for half the build, wall time near the CPU time), which
        # one build alone would report as a doubled compile.
        builds = [timed_debug_build(package, 'GitHubClient', warm_target='ClientRuntime') for _ in range(3)]
        seconds, peak_mb, cpu = (statistics.median(build[index] for build in builds) for index in range(3))
        bench('compile-github', f'{seconds:.1f}', 's')
        bench('compile-github-cpu', f'{cpu:.1f}', 's')
        bench('compile-github-peak-rss', f'{peak_mb:.0f}', 'MB')
        # The same spec filtered to the three operations an app might use
        # (`--operation`, as a plugin config's `filter` passes it): the
        # types they reach, nothing else. Same package, same run.
        three = os.path.join(package, 'Sources', 'GitHubThreeOperations')
        shutil.rmtree(three, ignore_errors=True)
        subprocess.run([clientgen, 'generate', github, '--output', three, '--module', 'GitHubThreeOperations',
                        '--operation', 'repos/list-for-user', '--operation', 'repos/get', '--operation', 'issues/create'], check=True, capture_output=True)
        write_manifest(package, root, ['GitHubClient', 'GitHubThreeOperations'], 'BenchClients')
        filtered = [timed_debug_build(package, 'GitHubThreeOperations', warm_target='ClientRuntime') for _ in range(3)]
        filtered_seconds, filtered_mb, filtered_cpu = (statistics.median(build[index] for build in filtered) for index in range(3))
        bench('compile-github-three-operations', f'{filtered_seconds:.1f}', 's')
        bench('compile-github-three-operations-peak-rss', f'{filtered_mb:.0f}', 'MB')
        bench('compile-github-three-operations-vs-all', f'{filtered_seconds / seconds:.3f}', 'ratio')
        bench('compile-github-three-operations-peak-rss-vs-all', f'{filtered_mb / peak_mb:.3f}', 'ratio')
        if args.peer_compile and executable:
            # One build (four minutes or more): its CPU time is the figure
            # the stall above cannot change.
            peer_seconds, peer_mb, peer_cpu = compile_peer(executable)
            bench('peer-compile-github', f'{peer_seconds:.1f}', 's')
            bench('peer-compile-github-cpu', f'{peer_cpu:.1f}', 's')
            bench('peer-compile-github-peak-rss', f'{peer_mb:.0f}', 'MB')
            bench('compile-github-vs-peer', f'{seconds / peer_seconds:.3f}', 'ratio')
            bench('compile-github-cpu-vs-peer', f'{cpu / peer_cpu:.3f}', 'ratio')
            bench('compile-github-peak-rss-vs-peer', f'{peak_mb / peer_mb:.3f}', 'ratio')
        else:
            print('compile-github-vs-peer: not measured (make bench BENCH_CODEGEN_FLAGS=--peer-compile compiles the peer in the same run)', file=sys.stderr)
finally:
    shutil.rmtree(scratch, ignore_errors=True)
