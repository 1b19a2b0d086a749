#!/usr/bin/env bash
# `make test`: builds the test bundle once (every test target of the one
# package, with the executables the tests run) and runs every suite in one
# `swift test`, in parallel, then prints how long each part of the
# repository's suites took (scripts/test_times.py).
#
# The experiments that repeat a property many times (kill points, 100,000
# events) run as samples here; `make test-heavy` (TEST_SCALE=full) runs them
# at full size, and CI runs both. No test waits for a time it does not
# control (CONTRIBUTING.md, "A test that waits"), so the suites run side by
# side on a loaded machine as on an idle one.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
# The Makefile's debug flags (no debug information; test failures name
# their source lines themselves), the same for every build into .build.
read -r -a BUILD_FLAGS <<<"${DEBUG_BUILD_FLAGS--debug-info-format none}"
# A filter (swift test --filter) and the file the suites' timings come from.
FILTER=${TEST_FILTER:-}
events=.build/test-events.jsonl

begin=$(date +%s%N)
echo "== build (the test bundle and the executables the tests run)"
"$SWIFT" build "${BUILD_FLAGS[@]}" --product OpenAPIMobileClientsPackageTests
built=$(date +%s%N)
echo "== tests${FILTER:+ (--filter $FILTER)}${TEST_SCALE:+ (TEST_SCALE=$TEST_SCALE)}"
rm -f "$events"
status=0
"$SWIFT" test "${BUILD_FLAGS[@]}" --skip-build --parallel ${FILTER:+--filter "$FILTER"} \
    --experimental-event-stream-output "$events" --experimental-event-stream-version 0 || status=$?
ended=$(date +%s%N)
python3 scripts/test_times.py "$events" --build-ms $(((built - begin) / 1000000)) --run-ms $(((ended - built) / 1000000))
exit "$status"
