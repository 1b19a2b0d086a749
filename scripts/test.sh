#!/usr/bin/env bash
# `make test`: builds the test bundle once (every test target of the one
# package, with the executables the tests run), then runs the suites in two
# `swift test` runs of that bundle:
#
# 1. every suite but the experiments below, side by side;
# 2. the experiments that repeat a property many times and keep the cores
#    busy while they do (SIGKILL crash and kill runs, torn reads, the sync
#    fuzz, the tracker's stress test, SOUL's relaunches with dropped
#    connections), in two runs side by side: the crash test (two lanes of
#    children) beside the others one at a time (the tracker's stress test
#    keeps about one core busy): as samples here, at full size in
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
read -r -a BUILD_FLAGS <<<"${DEBUG_BUILD_FLAGS--debug-info-format none -Xswiftc -driver-batch-count -Xswiftc 1}"
EXPERIMENTS='CrashTests|TornReadTests|OutboxTests|SyncFuzzTests|TrackerStressTests|TrackerKillTests|queuedMoodsArriveExactlyOnceAcrossRelaunches'
# The experiments' two side-by-side runs.
CRASH_EXPERIMENT='CrashTests/aSyncKilledAtAnyPointLeavesOldOrNew'
PHASES=${TEST_PHASES:-suites experiments}
FILTER=${TEST_FILTER:-}

now_ms() { echo $(($(date +%s%N) / 1000000)); }
begin=$(now_ms)
echo "== build (the test bundle and the executables the tests run)"
"$SWIFT" build "${BUILD_FLAGS[@]}" --product OpenAPIMobileClientsPackageTests
built=$(now_ms)

status=0
event_files=()
# Runs the bundle with the arguments after $1, its event stream into .build/test-events-$1.jsonl.
run_tests() {
    local name=$1
    shift
    local events=".build/test-events-$name.jsonl"
    rm -f "$events"
    local selection=("$@")
    [ -n "$FILTER" ] && selection+=(--filter "$FILTER")
    "$SWIFT" test "${BUILD_FLAGS[@]}" --skip-build "${selection[@]}" \
        --experimental-event-stream-output "$events" --experimental-event-stream-version 0
}

for phase in $PHASES; do
    echo "== $phase${TEST_SCALE:+ (TEST_SCALE=$TEST_SCALE)}${FILTER:+ (--filter $FILTER)}"
    if [ "$phase" = suites ]; then
        event_files+=(.build/test-events-suites.jsonl)
        run_tests suites --parallel --skip "$EXPERIMENTS" || status=1
    else
        # Two runs side by side, each one test at a time: the crash test's
        # two lanes of children, and the other experiments (eight reader
        # threads, thirty tracking tasks, a sequential delivery loop).
        # Every wait in them is for the child's or the server's progress
        # (CONTRIBUTING.md, "Tests that wait"), so sharing the cores slows
        # them without failing them. The crash test's output goes to a file
        # and is printed after the other run's, so the two do not interleave.
        # The crash test runs the test bundle itself: `swift test` holds
        # .build's lock for its whole run, so a second one would wait for
        # the first (measured: the two ran one after the other).
        event_files+=(.build/test-events-crash.jsonl .build/test-events-experiments.jsonl)
        crash_log=$(mktemp)
        bundle="$("$SWIFT" build "${BUILD_FLAGS[@]}" --show-bin-path)/OpenAPIMobileClientsPackageTests.xctest"
        crash_selection=(--filter "$CRASH_EXPERIMENT")
        [ -n "$FILTER" ] && crash_selection+=(--filter "$FILTER")
        rm -f .build/test-events-crash.jsonl
        "$bundle" --testing-library swift-testing "${crash_selection[@]}" \
            --experimental-event-stream-output .build/test-events-crash.jsonl --experimental-event-stream-version 0 >"$crash_log" 2>&1 &
        crash_pid=$!
        run_tests experiments --no-parallel --filter "$EXPERIMENTS" --skip "$CRASH_EXPERIMENT" || status=1
        wait "$crash_pid" || status=1
        echo "== experiments: the crash test"
        cat "$crash_log"
        rm -f "$crash_log"
    fi
done
ended=$(now_ms)
python3 scripts/test_times.py "${event_files[@]}" --build-ms $((built - begin)) --run-ms $((ended - built))
exit "$status"
