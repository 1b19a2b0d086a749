#!/usr/bin/env bash
# `make test`: every package's suites (Generator, Runtime, Sandbox, then the
# SDK package), built into one shared .build so each module compiles once.
#
# Tests that run child processes or load both cores for minutes (SIGKILL
# crash, outbox and tracker tests, 8-thread torn reads, the tracker's
# 100,000-event stress test) run last and one at a time, so they neither
# stretch the timing of the tests beside them nor each other.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
HEAVY='CrashTests|TornReadTests|OutboxTests|TrackerStressTests|TrackerKillTests'

# Each package's tests run right after its build: with a shared build folder,
# `--skip-build` runs the test bundle of the package built last.
for package in Generator Runtime Sandbox .; do
    echo "== tests of package $package"
    "$SWIFT" build --package-path "$package" --scratch-path .build --build-tests
    "$SWIFT" test --package-path "$package" --scratch-path .build --skip-build --skip "$HEAVY"
done
echo "== heavy tests (one at a time)"
"$SWIFT" test --scratch-path .build --skip-build --no-parallel --filter "$HEAVY"
