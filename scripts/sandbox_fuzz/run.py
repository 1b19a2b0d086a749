#!/usr/bin/env python3
"""`make sandbox-fuzz`: Schemathesis, an API fuzzer nobody here wrote,
against the four backends of `make sandbox`, every check it has on.

Builds the sandbox, starts it on a free loopback port (strict: every
answer is also checked against its spec by the sandbox itself), and runs
Schemathesis on each backend (the backends side by side, one per core) with the spec in `specs/`, seeded, all of
its phases (examples, coverage, fuzzing, stateful), signing in as an app
does (auth.py). The settings that differ from Schemathesis's defaults, and
why, are in schemathesis.toml and docs/Sandbox.md.

Schemathesis runs from a virtual environment of its own
(`.build-sandbox-fuzz/venv`), installed from the hash-pinned lock file
requirements.txt when missing.

Prints one `SANDBOX-FUZZ <backend>` line per backend (cases generated,
failures found) and `BENCH sandbox-fuzz <s> s`; fails when any backend has
a failure or a warning, quoting Schemathesis's report of it.

    python3 scripts/sandbox_fuzz/run.py [--examples N] [--seed S] [--backend NAME ...]
"""
import argparse, concurrent.futures, json, os, re, subprocess, sys, threading, time, urllib.request, venv

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import script_support

ROOT = script_support.ROOT
fail = script_support.failing('sandbox-fuzz')
BACKENDS = ['soul', 'safepocket', 'securenode', 'mobiletracker']
# The keys the sandbox accepts by default (its --securenode-api-key and
# --tracker-api-key), which the fuzz runs sign in with.
API_KEYS = {'securenode': 'sk_sandbox', 'mobiletracker': 'tk_sandbox'}
VENV = os.path.join(ROOT, '.build-sandbox-fuzz', 'venv')
SCHEMATHESIS = os.path.join(VENV, 'bin', 'schemathesis')


def ensure_schemathesis():
    """Creates the virtual environment and installs the lock file when Schemathesis is missing."""
    if os.path.exists(SCHEMATHESIS):
        return
    venv.create(VENV, with_pip=True)
    subprocess.run([os.path.join(VENV, 'bin', 'python'), '-m', 'pip', 'install', '-q', '--require-hashes',
                    '-r', os.path.join(HERE, 'requirements.txt')], check=True)


def start_sandbox():
    package = os.path.join(ROOT, 'Sandbox', 'Server')
    build = subprocess.run(['swift', 'build', '--package-path', package, '--product', 'sandbox'], capture_output=True, text=True)
    if build.returncode != 0:
        fail('the sandbox did not build:\n' + build.stdout[-4000:] + build.stderr[-2000:])
    binary = os.path.join(package, '.build', 'debug', 'sandbox')
    # SOUL's limit of code requests per number a minute is lifted: the
    # fuzzer sends hundreds for the spec's example number, and at 3 a minute
    # every later one is a 429, so no stateful flow could go from a code
    # request to a sign-in. (The limit itself is make sandbox-check's and
    # the SOUL tests' to prove.)
    process = subprocess.Popen([binary, '--port', '0', '--specs', 'specs', '--strict', '--soul-code-requests', '1000000'], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if 'listening on http://127.0.0.1:' not in line:
        fail(f'the sandbox did not start: {line!r}')
    port = int(line.split('127.0.0.1:')[1].split()[0])
    # Keep the answers its strict mode found breaking the spec (its own
    # bugs, which Schemathesis sees as 500s); drain the rest so it never
    # blocks on a full pipe.
    process.strict_lines = []
    threading.Thread(target=lambda: [process.strict_lines.append(l.rstrip()) for l in process.stdout if ': strict: ' in l], daemon=True).start()
    return process, f'http://127.0.0.1:{port}'


# The phases in two runs: run together, the stateful phase gets a fraction
# of its scenarios (measured on SOUL: 1 of its 6 links followed, against
# 6 of 6 and 118 scenarios alone).
PHASE_RUNS = ['examples,coverage,fuzzing', 'stateful']


def fuzz(backend, base, examples, seed):
    """Schemathesis's runs on one backend; returns (generated, failures, report text)."""
    env = dict(os.environ, SANDBOX_FUZZ_BACKEND=backend, SANDBOX_FUZZ_BASE=f'{base}/{backend}',
               SANDBOX_FUZZ_API_KEY=API_KEYS.get(backend, ''), NO_COLOR='1')
    generated, failures, reports = 0, 0, []
    for phase_run in PHASE_RUNS:
        command = [SCHEMATHESIS, '--config-file', os.path.join(HERE, 'schemathesis.toml'), 'run', os.path.join('specs', f'{backend}.yaml'),
                   '--url', f'{base}/{backend}', '--phases', phase_run, '--max-examples', str(examples), '--seed', str(seed),
                   '--generation-database', 'none', '--workers', '1', '--no-color']
        run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        report = run.stdout + run.stderr
        reports.append(report)
        counts = re.search(r'(\d+) generated(?:, (\d+) found (\d+) unique failures?)?', report)
        generated += int(counts.group(1)) if counts else 0
        found = int(counts.group(3)) if counts and counts.group(3) else 0
        if run.returncode != 0 and found == 0:
            return generated, -1, '\n'.join(reports)  # a warning, an error or a crash: the report says which
        failures += found
    return generated, failures, '\n'.join(reports)


def phases(report):
    """Each phase of the run and how it ended: `examples ok, coverage ok, fuzzing ok, stateful skipped`."""
    said = []
    blocks = [part.split('\n\n')[0] for part in report.split('Test Phases:')[1:]]
    for name in ('Examples', 'Coverage', 'Fuzzing', 'Stateful'):
        line = next((found for block in blocks if (found := re.search(rf'^\s*(\S+)\s+{name}\b(?! \(disabled\))(.*)$', block, re.M))), None)
        if line:
            mark, rest = line.group(1), line.group(2)
            said.append(f'{name.lower()} ' + ('ok' if mark == '✅' else 'skipped' + (f' {rest.strip()}' if rest.strip() else '') if mark.startswith('⏭') else 'FAILED'))
    links = re.search(r'API Links:\s+(\d+) covered / (\d+) selected', report)
    if links:
        said.append(f'{links.group(1)} of {links.group(2)} links followed')
    return ', '.join(said)


# What the stateful phase must have done on each backend, read from the
# sandbox's record after the runs: proof it followed the specs' links
# (sign in, then use what the answer gave) rather than only calling
# operations one by one.
STATEFUL_PROOF = {
    'soul': ('a refresh with the token verify-otp issued, and a mood recorded',
             lambda state: state.get('refreshCalls', 0) > state.get('refusedRefreshes', 0) and state.get('moodsCreated', 0) > 0),
    'safepocket': ('a code from the authorization page exchanged',
                   lambda state: state.get('codeExchanges', 0) > 0),
    'securenode': ('a billing event replayed with its key (billed once), and a lookup',
                   lambda state: state.get('billingReplays', 0) > 0 and state.get('lookups', 0) > 0),
    'mobiletracker': ('a session created and events sent to it',
                      lambda state: state.get('sessions', 0) > 0 and state.get('events', 0) > 0),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--examples', type=int, default=100, help='test cases per operation and phase (default 100)')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--backend', action='append', choices=BACKENDS, help='only these backends (default: all four)')
    options = parser.parse_args()
    started = time.monotonic()
    ensure_schemathesis()
    process, base = start_sandbox()
    broken = []
    try:
        # The backends side by side, one per core: each has its own spec,
        # state and seed in the one sandbox, so the runs do not meet (and
        # give the same figures as one at a time).
        def timed(backend):
            began = time.monotonic()
            return fuzz(backend, base, options.examples, options.seed), time.monotonic() - began
        backends = options.backend or BACKENDS
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
            results = list(pool.map(timed, backends))
        for backend, ((generated, failures, report), seconds) in zip(backends, results):
            said = f'{failures} failures' if failures >= 0 else 'a warning or an error'
            print(f'SANDBOX-FUZZ {backend}: {generated} cases generated, {said}; {phases(report)} ({seconds:.1f} s)', flush=True)
            if failures != 0:
                broken.append((backend, report))
        with urllib.request.urlopen(f'{base}/_sandbox/requests', timeout=10) as answer:
            record = json.load(answer)
        for backend in options.backend or BACKENDS:
            state = record.get(backend, {}).get('state', {})
            what, proved = STATEFUL_PROOF[backend]
            counts = ', '.join(f'{name} {value}' for name, value in sorted(state.items()) if isinstance(value, int))
            print(f'SANDBOX-FUZZ {backend} state: {counts}')
            if not proved(state):
                broken.append((backend, f'the sandbox holds no trace of {what}: {counts}'))
    finally:
        process.terminate()
        process.wait(timeout=10)
    print(f'BENCH sandbox-fuzz {time.monotonic() - started:.1f} s')
    if broken:
        for backend, report in broken:
            print(f'--- Schemathesis on {backend} ---\n{report[-12000:]}', file=sys.stderr)
        for line in process.strict_lines[:20]:
            print(line, file=sys.stderr)
        fail(f'Schemathesis found failures on {", ".join(b for b, _ in broken)} (reports above; `st replay ID` does not apply: rerun this script with --backend NAME)')
    print('sandbox-fuzz: ok')


if __name__ == '__main__':
    main()
