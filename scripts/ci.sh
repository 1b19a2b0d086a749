#!/usr/bin/env bash
# `make ci`: run each CI step (make targets, in the order given) and time it.
# A failing step stops the run with its name; the end prints every step's
# time, and `BENCH ci-<step> <seconds> s` lines, so a slow step shows itself.
# Usage: scripts/ci.sh STEP...
set -uo pipefail

# The checks that build an app package depending on this repository by URL
# (guide, plugin-check, url-check) share one published tree and one build
# folder, as a CI cache would (scripts/published_package.py): what one
# compiled, the next reuses.
PACKAGE_CHECK_CACHE=$(mktemp -d)
export PACKAGE_CHECK_CACHE
trap 'rm -rf "$PACKAGE_CHECK_CACHE"' EXIT

names=()
seconds=()
report() {
    echo "== ci times"
    local total=0 i
    for i in "${!names[@]}"; do
        printf '  %-14s %5d s\n' "${names[$i]}" "${seconds[$i]}"
        total=$((total + seconds[i]))
    done
    printf '  %-14s %5d s\n' total "$total"
    for i in "${!names[@]}"; do
        echo "BENCH ci-${names[$i]} ${seconds[$i]} s"
    done
    echo "BENCH ci-total $total s"
}

for step in "$@"; do
    echo "== ci: $step"
    start=$(date +%s)
    make --no-print-directory "$step"
    status=$?
    names+=("$step")
    seconds+=($(( $(date +%s) - start )))
    if [ "$status" -ne 0 ]; then
        report
        echo "ci: '$step' failed (exit $status); the steps after it did not run" >&2
        exit "$status"
    fi
done
report
