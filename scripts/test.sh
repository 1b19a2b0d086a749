#!/usr/bin/env bash
# `make test`: every package's suites (Generator, the SDK package, Runtime
# and Sandbox), built into one shared .build so each module compiles once.
#
# Tests that run child processes or load the cores for minutes (SIGKILL
# crash, outbox and tracker tests, 8-thread torn reads, the tracker's
# 100,000-event stress test) run last, apart from the others, so they do not
# stretch the timing of the quick tests.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
# The Makefile's debug flags (no debug information; test failures name
# their source lines themselves), the same for every build into .build.
read -r -a BUILD_FLAGS <<<"${DEBUG_BUILD_FLAGS--debug-info-format none}"
HEAVY='CrashTests|TornReadTests|OutboxTests|TrackerStressTests|TrackerKillTests'

# Each package's tests run right after its build, in the order in which no
# build compiles again a module an earlier one compiled: Generator, then
# the SDK package (which builds Runtime's and Sandbox's libraries too), then
# Runtime and Sandbox, which only compile their tests. Measured on a fresh
# clone: the four builds take 132 s in this order, 152 s with the SDK
# package first (Generator's then compiled swift-argument-parser and its
# own libraries again) and 171 s with it last (then with debug information).
for package in Generator . Runtime Sandbox; do
    echo "== tests of package $package"
    "$SWIFT" build --package-path "$package" --scratch-path .build "${BUILD_FLAGS[@]}" --build-tests
    "$SWIFT" test --package-path "$package" --scratch-path .build "${BUILD_FLAGS[@]}" --skip-build --skip "$HEAVY"
done
# Two lanes at once: the tracker's 100,000-event stress test (about one core
# for a minute and a half, mostly HTTP round trips) beside the process and
# concurrency tests, which run one at a time. Each lane is its own `swift
# test` of the bundle built above, both with `--ignore-lock` (whichever
# started second would otherwise wait for the other's lock: they only read
# the build); their logs are printed whole when both are done.
echo "== heavy tests (two lanes: TrackerStressTests | the others one at a time)"
stress_log=$(mktemp)
others_log=$(mktemp)
trap 'rm -f "$stress_log" "$others_log"' EXIT
"$SWIFT" test --scratch-path .build "${BUILD_FLAGS[@]}" --skip-build --ignore-lock --filter 'TrackerStressTests' >"$stress_log" 2>&1 &
stress=$!
"$SWIFT" test --scratch-path .build "${BUILD_FLAGS[@]}" --skip-build --ignore-lock --no-parallel --filter "${HEAVY/|TrackerStressTests/}" >"$others_log" 2>&1 &
others=$!
status=0
wait "$stress" || status=1
wait "$others" || status=1
cat "$stress_log" "$others_log"
exit "$status"
