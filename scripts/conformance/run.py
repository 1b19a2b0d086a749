#!/usr/bin/env python3
"""`make conformance`: every operation of every spec, called by the
generated Swift client over real HTTP and checked by an independent reading
of OpenAPI.

Usage: run.py --clientgen PATH [--specs DIR_OR_FILE ...] [--work DIR]
              [--min-percent N] [--driver COMMAND]

For each spec (default: specs/ and corpus/), clientgen generates the
client module and its conformance driver (an executable target that links
the client; the protocol between driver and harness is in PROTOCOL.md)
into one scratch package, which `swift build` compiles in one invocation
for all the specs. Then, per spec, the harness starts the conformance
server (server.py), asks the driver for its manifest, and feeds it the
calls of each operation (calls.py): the server checks each request and
answers it, and the harness checks that the body the driver decoded and
encoded again equals the body the server sent (compare.py).

Output: for each spec its failures, one a line,
    FAIL <spec> <METHOD path> <location> <rule>
then `CONFORMANCE <spec> <ok>/<operations>` and
`COVERAGE <spec> statuses A/B nulls C/D enums E/F branches G/H media I/J styles K/L`
(what the calls exercised / what the operations document, summed over the
spec's operations), then `EXCEPTION <spec> <METHOD path> <what>: <rule>`
for what an operation documents that no valid value can exercise (not
counted as documented), and last the totals. An operation is ok when
every one of its calls passed both checks and its manifest agrees with the
spec; an operation the manifest lacks fails with `not generated`. A harness
error (a spec it cannot read, a value it cannot synthesize) fails the
operation with `harness:` and the run goes on. Exit 1 when the total is
below --min-percent, or when any spec's client or driver does not generate
or compile.

`--driver 'python3 scripts/conformance/fake_driver.py {spec}'` runs a ready
driver command instead of generating and building (the fake driver is how
the harness itself is tested).
"""
import argparse
import base64
import copy
import importlib.util
import json
import os
import re
import selectors
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REQUIRED_MODULES = ('openapi_core', 'jsonschema', 'yaml', 'referencing', 'hypothesis_jsonschema')
# Seconds a driver may take to answer one call.
CALL_TIMEOUT = 60


def ensure_requirements():
    """Installs the pinned requirements when a module is missing."""
    if all(importlib.util.find_spec(m) for m in REQUIRED_MODULES):
        return
    subprocess.run([sys.executable, '-m', 'pip', 'install', '-q', '--require-hashes', '-r', os.path.join(HERE, 'requirements.txt')], check=True)


ensure_requirements()
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import calls as call_plans  # noqa: E402
import pages  # noqa: E402
import inventory  # noqa: E402
import oas  # noqa: E402
from compare import differences  # noqa: E402
from server import ConformanceServer  # noqa: E402
from synth import Synthesizer  # noqa: E402


def spec_files(paths):
    found = []
    for path in paths:
        if os.path.isdir(path):
            found += sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(('.yaml', '.yml', '.json')))
        elif os.path.exists(path):
            found.append(path)
    return [f for f in found if not f.endswith('clients.json')]


def module_name(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    words = re.split(r'[^A-Za-z0-9]+', stem)
    return 'Conformance' + ''.join(w[:1].upper() + w[1:] for w in words if w)


# -- building the drivers -------------------------------------------------------

def spec_arguments(spec):
    """The clientgen options a harness spec asks its client to be generated
    with (`x-conformance-arguments`, a list of strings at the top level:
    a filter, type overrides), the same for the client and its driver."""
    if not spec.endswith(('.yaml', '.yml')) or 'x-conformance-arguments' not in open(spec, encoding='utf-8').read():
        return []
    import yaml
    arguments = (yaml.safe_load(open(spec, encoding='utf-8')) or {}).get('x-conformance-arguments') or []
    if not isinstance(arguments, list) or not all(isinstance(a, str) for a in arguments):
        raise SystemExit(f'{spec}: x-conformance-arguments must be a list of strings')
    return arguments


def generate(clientgen, spec, package, module):
    """Generates the client and the driver of `spec`; an error message or None."""
    for command, folder in (('generate', module), ('conformance-driver', module + 'Driver')):
        out = os.path.join(package, 'Sources', folder)
        shutil.rmtree(out, ignore_errors=True)
        result = subprocess.run([clientgen, command, spec, '--output', out, '--module', module, *spec_arguments(spec)], capture_output=True, text=True)
        if result.returncode != 0:
            sys.stderr.write(result.stderr[-2000:])
            return f'clientgen {command} failed'
    return None


def build_drivers(clientgen, specs, work):
    """{spec: driver command or error string}."""
    from scratch_package import build_command, write_manifest
    package = os.path.join(work, 'package')
    # A build folder of its own: one that other scratch packages also build
    # into is re-planned at each switch, and once lost a built driver.
    scratch = os.path.join(work, 'build')
    # Nothing here runs under a debugger: without debug information the
    # drivers compile and link faster (the flag of every debug build in
    # .build, scripts/debug_build_flags; not its one-job-per-module flag,
    # which would compile the GitHub client's 25 files on one core).
    def swift_build(*arguments):
        command = build_command(package, '-debug-info-format', 'none', *arguments, folder=scratch)
        return subprocess.run(command, capture_output=True, text=True)

    os.makedirs(os.path.join(package, 'Sources'), exist_ok=True)
    drivers, modules = {}, {}
    for spec in specs:
        module = module_name(spec)
        error = generate(clientgen, spec, package, module)
        if error:
            drivers[spec] = error
        else:
            modules[spec] = module
    for stale in os.listdir(os.path.join(package, 'Sources')):
        if stale.removesuffix('Driver') not in modules.values():
            shutil.rmtree(os.path.join(package, 'Sources', stale), ignore_errors=True)
    if not modules:
        return drivers
    write_manifest(package, ROOT, list(modules.values()), 'ConformanceDrivers', drivers=True)
    selection = ['--product', next(iter(modules.values())) + 'Driver'] if len(modules) == 1 else []
    build = swift_build(*selection)
    failed = set()
    if build.returncode != 0:
        # Find which specs do not compile, one product at a time.
        for spec, module in modules.items():
            one = swift_build('--product', module + 'Driver')
            if one.returncode != 0:
                errors = [line for line in one.stdout.splitlines() if ': error:' in line]
                detail = '\n'.join(errors[:10]) if errors else (one.stdout[-2000:] + one.stderr[-2000:])
                sys.stderr.write(f'{os.path.basename(spec)}: {len(errors)} compile errors, first ones:\n{detail}\n')
                failed.add(spec)
    bin_path = swift_build('--show-bin-path').stdout.strip()
    for spec, module in modules.items():
        drivers[spec] = 'build failed' if spec in failed else [os.path.join(bin_path, module + 'Driver')]
    return drivers


# -- running one spec -----------------------------------------------------------

class DriverProcess:
    """A driver started with --server-url: one request line in, one result line out."""

    def __init__(self, command, url):
        self.command, self.url = command, url
        self.start()

    def start(self):
        # What the driver prints on standard error (a Swift runtime's
        # "Fatal error: ..." when it traps) names the failure of a crash.
        self.errors = tempfile.TemporaryFile(mode='w+')
        self.process = subprocess.Popen(self.command + ['--server-url', self.url], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.errors, bufsize=0)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)
        # What was read of standard output past the last whole line: a
        # progress line and the result line can arrive in one read, and the
        # second must not wait on a pipe that has nothing more to say.
        self.pending = b''

    def restart(self):
        """A new driver process after one died: the calls that follow run."""
        self.close()
        self.start()

    def call(self, line, progress=None):
        """The driver's result for `line`, or None when it died or timed
        out; a progress line before it calls `progress`."""
        if self.process.poll() is not None:
            return None
        try:
            self.process.stdin.write((json.dumps(line) + '\n').encode())
            self.process.stdin.flush()
        except BrokenPipeError:
            return None
        while True:
            text = self.read_line()
            if text is None:
                return None
            try:
                result = json.loads(text)
            except ValueError:
                return None
            if isinstance(result, dict) and 'progress' in result and 'outcome' not in result:
                if progress:
                    progress()
                continue
            return result

    def read_line(self):
        """The driver's next line of output; None when it ended or said
        nothing for CALL_TIMEOUT seconds (it is then killed)."""
        while b'\n' not in self.pending:
            if not self.selector.select(CALL_TIMEOUT):
                self.process.kill()
                return None
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                return None
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b'\n')
        return line.decode('utf-8', 'replace')

    def last_error(self):
        """The last line the driver printed on standard error, if any."""
        self.errors.seek(0)
        lines = [line.strip() for line in self.errors.read().splitlines() if line.strip()]
        fatal = [line for line in lines if 'Fatal error' in line or 'fatal error' in line]
        return (fatal or lines or [''])[-1][:300]

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=30)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            self.process.kill()
        self.errors.close()


def response_failures(result, sent):
    """[(location, rule)] of the driver's report against what the server sent."""
    if result.get('outcome') != 'ok':
        return [(result.get('stage') or 'driver', f'driver {result.get("stage")}: {result.get("error")}')]
    if sent is None:
        return [('request', 'the server got no request')]
    if result.get('status') != sent.status:
        return [('response.status', f'{result.get("status")} != expected {sent.status}')]
    found = []
    reported = {k.lower(): v for k, v in (result.get('headers') or {}).items()}
    if 'headers' in result:
        for name, value in (sent.headers or {}).items():
            if reported.get(name.lower()) != value:
                found.append((f'response.header.{name}', f'{reported.get(name.lower())!r} != expected {value!r}'))
    return found + body_failures(result, sent)


def body_failures(result, sent):
    kind, body = result.get('bodyKind'), result.get('body')
    if sent.kind == 'empty':
        return [] if kind == 'empty' or body in (None, '') else [('response.body', f'{kind} body, expected none')]
    if sent.streaming and sent.events is not None:
        return stream_failures(kind, body, sent)
    if kind == 'json' and sent.kind == 'json':
        return differences(sent.value, body, 'response.body', getattr(sent, 'defaults', None), getattr(sent, 'null_members', None))
    received = _bytes_of(kind, body)
    if received is None:
        return [('response.body', f'{kind} body, expected {sent.kind}')]
    return [] if received == sent.raw else [('response.body', f'{len(received)} bytes differ from the {len(sent.raw)} sent')]


def stream_failures(kind, body, sent):
    if kind == 'json' and isinstance(body, dict) and isinstance(body.get('events'), list):
        return event_failures(body['events'], sent)
    if sent.through_events:
        return [('response.events', f'a {kind} body, not the elements of the events method the call asked for')]
    if kind == 'json' and isinstance(body, list):
        return differences(sent.events, body, 'response.events')
    received = _bytes_of(kind, body)
    if received == sent.raw:
        return []
    return [('response.body', 'stream differs from the one sent')]


def event_failures(reported, sent):
    """What an events method reported against the events sent: each
    payload (a text payload read as the JSON it holds), and for server-sent
    events each `event` name and ID."""
    if len(reported) != len(sent.events):
        return [('response.events', f'{len(reported)} events reported, {len(sent.events)} sent')]
    found = []
    for index, (event, payload) in enumerate(zip(reported, sent.events)):
        data = event.get('data') if isinstance(event, dict) else None
        if isinstance(data, str) and not isinstance(payload, str):
            try:
                data = json.loads(data)
            except ValueError:
                found.append((f'response.events[{index}]', f'the text {data[:80]!r} is not the JSON sent'))
                continue
        # Each event is the planned body: its defaults and the members sent
        # as null that may read back absent are the body's.
        found += [(f'response.events[{index}]' + location[len('response.body'):], rule)
                  for location, rule in differences(payload, data, 'response.body', getattr(sent, 'defaults', None),
                                                    getattr(sent, 'null_members', None))]
        if sent.event_meta is not None:
            expected = sent.event_meta[index]
            for name in ('event', 'id'):
                if event.get(name) != expected[name]:
                    found.append((f'response.events[{index}].{name}', f'{event.get(name)!r} != expected {expected[name]!r}'))
    return found


def _bytes_of(kind, body):
    if kind == 'text' and isinstance(body, str):
        return body.encode()
    if kind == 'data' and isinstance(body, str):
        return base64.b64decode(body)
    if kind == 'json':
        return json.dumps(body).encode()
    return None


class Coverage:
    """What a spec's calls exercised against what its operations document."""
    FIELDS = ('statuses', 'nulls', 'enums', 'branches', 'media', 'styles', 'pages')

    def __init__(self):
        self.counts = {name: [0, 0] for name in self.FIELDS}
        self.exceptions = []  # (operation key, what, rule): documented, not exercisable

    def add(self, name, exercised, documented):
        self.counts[name][0] += exercised
        self.counts[name][1] += documented

    def add_operation(self, found, covered, calls, exposed_styles, media_sent, key=''):
        for what, rule in dict.fromkeys(found.exceptions):
            self.exceptions.append((key, what, rule))
        answered = {call.response.status.key for call in calls if call.response is not None}
        self.add('statuses', len([s for s in found.statuses if s.key in answered]), len(found.statuses))
        self.add('nulls', len(found.nulls & covered.nulls), len(found.nulls))
        self.add('enums', len(found.enums & covered.enums), len(found.enums))
        self.add('branches', len(found.branches & covered.branches), len(found.branches))
        self.add('media', len(media_sent & set(found.media)), len(found.media))
        self.add('styles', len(found.styles & exposed_styles), len(found.styles))

    def merge(self, other):
        for name in self.FIELDS:
            self.add(name, *other.counts[name])

    def line(self, name):
        return f'COVERAGE {name} ' + ' '.join(f'{field} {self.counts[field][0]}/{self.counts[field][1]}' for field in self.FIELDS)


def run_spec(spec, command):
    """(ok operations, operations, [(key, location, rule)], Coverage)."""
    coverage = Coverage()
    try:
        doc = oas.load(spec)
        operations = oas.operations(doc)
    except Exception as error:  # a spec the harness cannot read is its own failure, named
        return 0, 1, [('(spec)', 'harness', f'harness: cannot read the spec: {type(error).__name__}: {error}')], coverage
    failures = []
    if isinstance(command, str):  # generation or build failed
        return 0, len(operations), [(op.key, 'client', command) for op in operations], coverage
    listing = subprocess.run(command + ['--manifest'], capture_output=True, text=True)
    try:
        entries = {e['key']: e for e in json.loads(listing.stdout)['operations']}
    except (ValueError, KeyError):
        return 0, len(operations), [(op.key, 'driver', 'no manifest') for op in operations], coverage
    synth = Synthesizer(doc)
    server = ConformanceServer(doc, synth).start()
    driver = DriverProcess(command, server.url)
    ok = 0
    try:
        for op in operations:
            entry = entries.get(op.key)
            if entry is None:
                failures.append((op.key, 'operation', 'not generated'))
                continue
            try:
                op_failures = run_operation(synth, server, driver, op, entry, coverage)
            except Exception as error:  # a harness defect fails this operation, named, and the run goes on
                op_failures = [('harness', f'harness: {type(error).__name__}: {error}')]
            failures += [(op.key, loc, rule) for loc, rule in dict.fromkeys(op_failures)]
            ok += not op_failures
    finally:
        driver.close()
        server.stop()
    return ok, len(operations), failures, coverage


def spec_first_page(doc, op, pagination):
    """The first page's number of a list numbered by page, as the spec's
    parameter says it (its `default`, else its `minimum`, when 0 or 1; none
    when they disagree): read here, not taken from the generator's
    manifest. None when the spec does not say."""
    if pagination.get('style') != 'pageNumber':
        return None
    for parameter in op.parameters:
        if parameter.name == pagination['parameter'] and parameter.location == 'query' and parameter.schema_pointer:
            schema, _ = oas.resolve(doc, parameter.node.get('schema') or {}, parameter.schema_pointer)
            said = {key: int(schema[key]) for key in ('default', 'minimum')
                    if schema.get(key) in (0, 1) and not isinstance(schema.get(key), bool)}
            if len(set(said.values())) == 1:
                return next(iter(said.values()))
    return None


def run_operation(synth, server, driver, op, entry, coverage):
    """The failures of one operation's calls; adds to `coverage`."""
    failures = list(call_plans.manifest_failures(synth.doc, op, entry))
    calls, found, covered, problems = call_plans.plan(synth, op, entry)
    failures += problems
    exposed = {(p['name'], p['in']) for p in entry.get('parameters', [])}
    styles = {(p.location, p.style, bool(p.explode), inventory.parameter_kind(synth, p)) for p in op.parameters
              if (p.name, p.location) in exposed and any(p.name in c.arguments.get(p.location, {}) for c in calls)}
    media_sent = {entry['requestBody']['contentType']} if entry.get('requestBody') else set()
    coverage.add_operation(found, covered, calls, styles, media_sent, key=op.key)
    # A paged list (the manifest's `pagination`) is also read through its
    # pages method, over several pages (pages.py).
    if entry.get('pagination'):
        base = pages.base_page(calls)
        built, why = pages.plans(entry['pagination'], base, first_page=spec_first_page(synth.doc, op, entry['pagination'])) \
            if base else (None, 'no success page was synthesized')
        coverage.add('pages', 1 if built else 0, 1)
        if built is None:
            failures.append(('pages', f'harness: cannot page: {why}'))
        for mode, plan in built or []:
            paged = call_plans.Call(op.key, len(calls), mode, 0, 0, copy.deepcopy(calls[0].arguments), response=base, pages=plan)
            for name in plan.parameters:
                paged.arguments.get('query', {}).pop(name, None)
            calls.append(paged)
    for call in calls:
        failures += run_call(server, driver, op, call, entry)
        if driver.process.poll() is not None:
            said = driver.last_error()
            failures.append(('driver', f'the driver exited (status {driver.process.returncode})' + (f': {said}' if said else '')))
            driver.restart()
            break
    return failures


def run_call(server, driver, op, call, entry):
    if call.error:
        return [('arguments', f'harness: cannot synthesize: {call.error}')]
    server.expect(op, call, entry)
    result = driver.call(call.request_line(), progress=server.element_arrived)
    outcome = server.result()
    if result is None:
        return [('driver', 'no result line (crashed or timed out)')]
    if call.pages is not None:
        return [(f'{call.mode}.{location}', rule) for location, rule in list(outcome.failures) + pages.result_failures(result, call.pages)]
    found = list(outcome.failures)
    if not outcome.arrived and result.get('outcome') == 'ok':
        found.append(('request', 'the server got no request'))
    found += response_failures(result, outcome.sent if outcome.arrived else None)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--clientgen', help='the clientgen executable (not needed with --driver)')
    parser.add_argument('--specs', nargs='+', action='extend', help='spec files or folders (default: specs corpus)')
    parser.add_argument('--require-all', nargs='+', action='extend', default=[],
                        help='spec files or folders called too, whose every operation must pass (whatever --min-percent says)')
    parser.add_argument('--work', default='.build-conformance', help='folder of the scratch package')
    parser.add_argument('--min-percent', type=float, default=99.0)
    parser.add_argument('--driver', help="a driver command to use as it is; {spec} stands for the spec's path")
    parser.add_argument('--jobs', type=int, default=0, help='specs run side by side (default: one per core)')
    args = parser.parse_args()
    required = spec_files(args.require_all)
    specs = spec_files(args.specs or ['specs', 'corpus'])
    specs += [spec for spec in required if spec not in specs]
    if not specs:
        sys.exit('no specs found')
    started = time.monotonic()
    if args.driver:
        drivers = {s: [w.replace('{spec}', s) for w in shlex.split(args.driver)] for s in specs}
    else:
        if not args.clientgen:
            sys.exit('--clientgen is needed (or --driver)')
        drivers = build_drivers(os.path.abspath(args.clientgen), specs, os.path.abspath(args.work))
    built = time.monotonic()
    total_ok = total = 0
    total_coverage = Coverage()
    incomplete = []  # specs of --require-all with a failed operation
    # Specs run side by side, one a core: a spec's calls keep its Python
    # harness busy and its driver mostly waiting. Results print in order.
    from concurrent.futures import ProcessPoolExecutor
    workers = max(1, min(args.jobs or os.cpu_count() or 1, len(specs)))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        # The largest first, so that the last to finish is a small one.
        futures = {spec: pool.submit(run_spec, spec, drivers[spec]) for spec in sorted(specs, key=os.path.getsize, reverse=True)}
        results = [futures[spec].result() for spec in specs]
    for spec, (ok, count, failures, coverage) in zip(specs, results):
        name = os.path.basename(spec)
        for key, location, rule in failures:
            print(f'FAIL {name} {key} {location} {rule}')
        print(f'CONFORMANCE {name} {ok}/{count}', flush=True)
        print(coverage.line(name), flush=True)
        for key, what, rule in coverage.exceptions:
            print(f'EXCEPTION {name} {key} {what}: {rule}')
        total_coverage.merge(coverage)
        if spec in required and ok < count:
            incomplete.append(name)
        total_ok, total = total_ok + ok, total + count
    percent = 100.0 * total_ok / total if total else 100.0
    print(f'CONFORMANCE total {total_ok}/{total} {percent:.1f}%')
    print(total_coverage.line('total'))
    print(f'(build {built - started:.0f} s, calls {time.monotonic() - built:.0f} s)', file=sys.stderr)
    # A spec whose client does not generate or compile fails the run whatever
    # the share: every spec of the folder must at least build (what `make
    # corpus` checks, for a folder that this run covers).
    unbuilt = sorted(os.path.basename(spec) for spec, command in drivers.items() if isinstance(command, str))
    if unbuilt:
        print(f'conformance: no client built for {", ".join(unbuilt)}', file=sys.stderr)
        sys.exit(1)
    if incomplete:
        print(f'conformance: every operation of {", ".join(incomplete)} must pass', file=sys.stderr)
        sys.exit(1)
    sys.exit(0 if percent >= args.min_percent else 1)


if __name__ == '__main__':
    main()
