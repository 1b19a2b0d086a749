#!/usr/bin/env bash
# `make test`: builds the test bundle once (every test target of the one
# package, with the executables the tests run), then runs it:
#
# 1. the docs' Swift samples, type-checked against the modules built
#    (scripts/doc_samples.py); every suite but the experiments below,
#    side by side (`swift test`);
# 2. then the experiments that repeat a property many times (SIGKILL crash
#    and kill runs, torn reads, the sync fuzz, the tracker's stress test,
#    SOUL's relaunches with dropped connections), one at a time in two
#    lanes side by side: the crash test, and the others. As samples here,
#    at full size in `make test-heavy` (TEST_SCALE=full), which CI runs too.
#
# No test waits for a time it does not control (CONTRIBUTING.md, "Tests
# that wait"), so a machine loaded from outside slows the run down without
# failing it.
# Prints at the end how long each part's suites took (scripts/test_times.py).
#
# TEST_FILTER=REGEX runs only the matching tests; TEST_PHASES=experiments
# only the experiments (what `make test-heavy` does), TEST_PHASES=suites
# only the suites.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
# The Makefile's debug flags (no debug information; test failures name
# their source lines themselves), the same for every build into .build.
read -r -a BUILD_FLAGS <<<"${DEBUG_BUILD_FLAGS-$(cat scripts/debug_build_flags)}"
EXPERIMENTS='CrashTests|TornReadTests|OutboxTests|SyncFuzzTests|TrackerStressTests|TrackerKillTests|queuedMoodsArriveExactlyOnceAcrossRelaunches'
# The experiments' two side-by-side runs.
CRASH_EXPERIMENT='CrashTests/aSyncKilledAtAnyPointLeavesOldOrNew'
PHASES=${TEST_PHASES:-suites experiments}
# At most four tests per core run at once (swift-testing's width limit,
# an environment variable the test bundle reads). Without it every test of
# the bundle starts at once, and a timer that fires waits behind the queued
# work of hundreds of tests for one of the pool's threads: measured, a
# request with a 0.5 s deadline reported its timeout after 9.5 s (14.8 s in
# a CI run), so a test whose two bounds raced could see the wrong one end
# it. Four per core: 0.52 s, and the suites took no longer (46-48 s, 50 s
# unlimited). CONTRIBUTING.md, "Tests that wait".
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-$((4 * $(getconf _NPROCESSORS_ONLN)))}
FILTER=${TEST_FILTER:-}

now_ms() { echo $(($(date +%s%N) / 1000000)); }
begin=$(now_ms)
echo "== build (the test bundle and the executables the tests run)"
"$SWIFT" build "${BUILD_FLAGS[@]}" --product OpenAPIMobileClientsPackageTests
built=$(now_ms)

status=0
event_files=()
# Runs `swift test` on the bundle with the arguments after $1, its event
# stream into .build/test-events-$1.jsonl.
run_tests() {
    local name=$1
    shift
    local events=".build/test-events-$name.jsonl"
    rm -f "$events"
    event_files+=("$events")
    "$SWIFT" test "${BUILD_FLAGS[@]}" --skip-build "$@" \
        --experimental-event-stream-output "$events" --experimental-event-stream-version 0
}

# Whether an experiment run's exit status is a failure: 69 (EX_UNAVAILABLE)
# is a run no test matched, which only TEST_FILTER can cause.
counts_as_failure() {
    [ "$1" -ne 0 ] && ! { [ "$1" -eq 69 ] && [ -n "$FILTER" ]; }
}

# A regex matching what both regexes match (several --filter options
# select what any of them matches); the first alone when the second is empty.
matching_both() {
    if [ -n "$2" ]; then echo "^(?=.*(?:$1))(?=.*(?:$2))"; else echo "$1"; fi
}

# The suites first, side by side; then the experiments, one at a time in
# two lanes side by side: the crash test (two lanes of children) in the
# background, and the others (eight reader threads, thirty tracking tasks,
# a sequential delivery loop) in the foreground, so their progress shows.
# Apart from the suites, because beside two saturated cores every other
# test would wait for a core (measured: under an outside build, four
# tests that ran beside the experiments waited out a minute's hang guard
# in one run of five).
case " $PHASES " in *" suites "*)
    # The docs' Swift samples against the modules just built (a few seconds).
    if [ -z "$FILTER" ]; then
        echo "== the docs' Swift samples"
        python3 scripts/doc_samples.py || status=1
    fi
    echo "== suites${FILTER:+ (--filter $FILTER)}"
    selection=(--parallel --skip "$EXPERIMENTS")
    [ -n "$FILTER" ] && selection+=(--filter "$FILTER")
    run_tests suites "${selection[@]}" || status=1
    ;;
esac
case " $PHASES " in *" experiments "*)
    echo "== experiments${TEST_SCALE:+ (TEST_SCALE=$TEST_SCALE)}${FILTER:+ (--filter $FILTER)}: the crash test in the background, the others here"
    # The crash test runs the test bundle itself: `swift test` holds
    # .build's lock for its whole run, so a second one would wait for the
    # first (measured: the two ran one after the other). Its output goes to
    # a file, printed after the others', so the two do not interleave.
    crash_log=$(mktemp)
    crash_events=.build/test-events-crash.jsonl
    rm -f "$crash_events"
    event_files+=("$crash_events")
    "$("$SWIFT" build "${BUILD_FLAGS[@]}" --show-bin-path)/OpenAPIMobileClientsPackageTests.xctest" --testing-library swift-testing \
        --filter "$(matching_both "$CRASH_EXPERIMENT" "$FILTER")" \
        --experimental-event-stream-output "$crash_events" --experimental-event-stream-version 0 >"$crash_log" 2>&1 &
    crash_pid=$!
    # An interrupted run takes the crash test with it.
    trap 'kill "$crash_pid" 2>/dev/null; exit 130' INT TERM
    others_status=0
    run_tests experiments --no-parallel --filter "$(matching_both "$EXPERIMENTS" "$FILTER")" --skip "$CRASH_EXPERIMENT" || others_status=$?
    crash_status=0
    wait "$crash_pid" || crash_status=$?
    trap - INT TERM
    for lane_status in "$others_status" "$crash_status"; do
        if counts_as_failure "$lane_status"; then status=1; fi
    done
    echo "== experiments: the crash test"
    cat "$crash_log"
    rm -f "$crash_log"
    ;;
esac
ended=$(now_ms)
python3 scripts/test_times.py "${event_files[@]}" --build-ms $((built - begin)) --run-ms $((ended - built))
exit "$status"
