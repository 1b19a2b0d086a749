#!/usr/bin/env python3
"""Prints how long each part of the repository's suites took in one
`make test`, from the Swift Testing event streams of its runs
(`--experimental-event-stream-output`): for the tests under Generator/,
Runtime/, Sandbox/ and Tests/, the number of tests, the time from the
first start to the last end (they run side by side), and the slowest
tests; then the build and run times. Also one `BENCH` line per figure.

Usage: test_times.py EVENTS.jsonl... [--build-ms MS] [--run-ms MS]

Each part's time is the sum over the runs of its first start to last end."""
import argparse, json, os, sys

parser = argparse.ArgumentParser()
parser.add_argument('events', nargs='+')
parser.add_argument('--build-ms', type=int)
parser.add_argument('--run-ms', type=int)
arguments = parser.parse_args()

PARTS = [('Generator/Tests/', 'Generator'), ('Runtime/Tests/', 'Runtime'), ('Sandbox/Tests/', 'Sandbox'), ('Tests/', 'SDKs and clients')]


def part_of(path):
    path = path.replace('\\', '/')
    for prefix, name in PARTS:
        if f'/{prefix}' in path or path.startswith(prefix):
            return name
    return 'other'


tests = {}      # test id -> part, for tests (not suites)
spans = {}      # part -> seconds, summed over the runs (first start to last end in each)
durations = {}  # part -> [(seconds, test id)]
failed = set()
for events in arguments.events:
    if not os.path.exists(events):
        print(f'test times: no event stream at {events} (the run ended before writing it)')
        continue
    started = {}
    run_spans = {}
    for line in open(events):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        payload = record.get('payload', {})
        if record.get('kind') == 'test' and payload.get('kind') == 'function':
            tests[payload['id']] = part_of(payload.get('sourceLocation', {}).get('_filePath', ''))
            continue
        if record.get('kind') != 'event':
            continue
        kind, test, instant = payload.get('kind'), payload.get('testID'), payload.get('instant', {}).get('absolute')
        if test not in tests or instant is None:
            continue
        part = tests[test]
        span = run_spans.setdefault(part, [instant, instant])
        if kind == 'testStarted':
            started[test] = instant
            span[0] = min(span[0], instant)
        elif kind == 'testEnded' and test in started:
            span[1] = max(span[1], instant)
            durations.setdefault(part, []).append((instant - started[test], test))
        elif kind == 'issueRecorded' and not payload.get('issue', {}).get('isKnown', False):
            # A known issue (withKnownIssue: a double refusing what iOS would) is the test passing.
            failed.add(test)
    for part, (first, last) in run_spans.items():
        spans[part] = spans.get(part, 0) + last - first

print('== test times')
for _, part in PARTS + [('', 'other')]:
    if part not in durations:
        continue
    runs = sorted(durations[part], reverse=True)
    slowest = ', '.join(f'{test.split("/")[0].split(".")[-1]}.{test.split("/")[1].split("(")[0]} {seconds:.1f} s' for seconds, test in runs[:3])
    broken = len([test for _, test in runs if test in failed])
    print(f'  {part:17s} {len(runs):4d} tests{f", {broken} with issues" if broken else ""}, {spans[part]:6.1f} s from first start to last end; slowest: {slowest}')
    print(f'BENCH test-suites-{part.split()[0].lower()} {spans[part]:.1f} s')
if arguments.build_ms is not None:
    build, run = arguments.build_ms / 1000, arguments.run_ms / 1000
    print(f'  build {build:.0f} s, tests {run:.0f} s')
    print(f'BENCH test-build {build:.1f} s')
    print(f'BENCH test-run {run:.1f} s')
