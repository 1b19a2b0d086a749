#!/usr/bin/env bash
# `make test`: builds the test bundle once (every test target of the one
# package, with the executables the tests run), then runs it three times
# side by side:
#
# 1. every suite but the experiments below, side by side (`swift test`);
# 2. the experiments that repeat a property many times (SIGKILL crash and
#    kill runs, torn reads, the sync fuzz, the tracker's stress test,
#    SOUL's relaunches with dropped connections), one at a time in two
#    runs of the bundle: the crash test, and the others. As samples here,
#    at full size in `make test-heavy` (TEST_SCALE=full), which CI runs too.
#
# No test waits for a time it does not control (CONTRIBUTING.md, "Tests
# that wait"), so runs that share the cores, or a machine loaded from
# outside, slow the run down without failing it.
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

# A regex matching what both regexes match (several --filter options
# select what any of them matches); the first alone when the second is empty.
matching_both() {
    if [ -n "$2" ]; then echo "^(?=.*(?:$1))(?=.*(?:$2))"; else echo "$1"; fi
}

bundle="$("$SWIFT" build "${BUILD_FLAGS[@]}" --show-bin-path)/OpenAPIMobileClientsPackageTests.xctest"
background_pids=()
background_logs=()
# Runs the test bundle itself in the background (`swift test` holds .build's
# lock for its whole run, so a second `swift test` would wait for the first),
# its event stream into .build/test-events-$1.jsonl and its output into a
# file printed at the end, so that it does not interleave with the others.
start_bundle() {
    local name=$1
    shift
    local events=".build/test-events-$name.jsonl"
    local log
    log=$(mktemp)
    rm -f "$events"
    "$bundle" --testing-library swift-testing "$@" \
        --experimental-event-stream-output "$events" --experimental-event-stream-version 0 >"$log" 2>&1 &
    background_pids+=($!)
    background_logs+=("$name:$log")
    event_files+=("$events")
}

# The experiments run one at a time in two lanes, the crash test (two lanes
# of children) and the others (eight reader threads, thirty tracking tasks,
# a sequential delivery loop), and both lanes run beside the suites when
# `make test` runs both: every wait in them is for the child's or the
# server's progress (CONTRIBUTING.md, "Tests that wait"), so sharing the
# cores slows them without failing them, and what one run leaves idle the
# others use (measured: suites 54 s, then experiments 30 s, one after the
# other).
case " $PHASES " in *" experiments "*)
    echo "== experiments${TEST_SCALE:+ (TEST_SCALE=$TEST_SCALE)}${FILTER:+ (--filter $FILTER)}, in the background"
    start_bundle crash --no-parallel --filter "$(matching_both "$CRASH_EXPERIMENT" "$FILTER")"
    start_bundle experiments --no-parallel --filter "$(matching_both "$EXPERIMENTS" "$FILTER")" --skip "$CRASH_EXPERIMENT"
    ;;
esac
case " $PHASES " in *" suites "*)
    echo "== suites${FILTER:+ (--filter $FILTER)}"
    event_files+=(.build/test-events-suites.jsonl)
    run_tests suites --parallel --skip "$EXPERIMENTS" || status=1
    ;;
esac
for index in "${!background_pids[@]}"; do
    # 69 (EX_UNAVAILABLE): no test matched, which only TEST_FILTER can cause.
    lane_status=0
    wait "${background_pids[$index]}" || lane_status=$?
    if [ "$lane_status" -ne 0 ] && ! { [ "$lane_status" -eq 69 ] && [ -n "$FILTER" ]; }; then status=1; fi
    entry=${background_logs[$index]}
    echo "== experiments: ${entry%%:*}"
    cat "${entry#*:}"
    rm -f "${entry#*:}"
done
ended=$(now_ms)
python3 scripts/test_times.py "${event_files[@]}" --build-ms $((built - begin)) --run-ms $((ended - built))
exit "$status"
