#!/usr/bin/env bash
# `make test`: builds the test bundle once (every test target of the one
# package, with the executables the tests run), then runs the suites in two
# `swift test` runs of that bundle:
#
# 1. every suite but the experiments below, side by side;
# 2. the experiments that repeat a property many times and keep both cores
#    busy while they do (SIGKILL crash and kill runs, torn reads, the sync
#    fuzz, the tracker's stress test, SOUL's relaunches with dropped
#    connections), one at a time: as samples here, at full size in
#    `make test-heavy` (TEST_SCALE=full), which CI runs too.
#
# Apart, because beside two saturated cores every other test would wait
# for a core. No test waits for
# a time it does not control (CONTRIBUTING.md, "Tests that wait"), so a
# machine loaded from outside slows the run down without failing it.
# Prints at the end how long each part's suites took (scripts/test_times.py).
#
# TEST_FILTER=REGEX runs only the matching tests; TEST_PHASES=experiments
# only the second run (what `make test-heavy` does).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
# The Makefile's debug flags (no debug information; test failures name
# their source lines themselves), the same for every build into .build.
read -r -a BUILD_FLAGS <<<"${DEBUG_BUILD_FLAGS--debug-info-format none}"
EXPERIMENTS='CrashTests|TornReadTests|OutboxTests|SyncFuzzTests|TrackerStressTests|TrackerKillTests|queuedMoodsArriveExactlyOnceAcrossRelaunches'
PHASES=${TEST_PHASES:-suites experiments}
FILTER=${TEST_FILTER:-}

now_ms() { echo $(($(date +%s%N) / 1000000)); }
begin=$(now_ms)
echo "== build (the test bundle and the executables the tests run)"
"$SWIFT" build "${BUILD_FLAGS[@]}" --product OpenAPIMobileClientsPackageTests
built=$(now_ms)

status=0
event_files=()
for phase in $PHASES; do
    events=".build/test-events-$phase.jsonl"
    rm -f "$events"
    event_files+=("$events")
    if [ "$phase" = suites ]; then
        selection=(--parallel --skip "$EXPERIMENTS")
    else
        # One experiment at a time: each uses both cores (two lanes of children,
        # eight reader threads, thirty tracking tasks); side by side they starve
        # each other's children (measured: a 3 s kill run took 123 s).
        selection=(--no-parallel --filter "$EXPERIMENTS")
    fi
    [ -n "$FILTER" ] && selection+=(--filter "$FILTER")
    echo "== $phase${TEST_SCALE:+ (TEST_SCALE=$TEST_SCALE)}${FILTER:+ (--filter $FILTER)}"
    "$SWIFT" test "${BUILD_FLAGS[@]}" --skip-build "${selection[@]}" \
        --experimental-event-stream-output "$events" --experimental-event-stream-version 0 || status=1
done
ended=$(now_ms)
python3 scripts/test_times.py "${event_files[@]}" --build-ms $((built - begin)) --run-ms $((ended - built))
exit "$status"
