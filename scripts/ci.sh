#!/usr/bin/env bash
# `make ci`: run each CI step (make targets, in the order given) and time it.
# A failing step stops the run with its name; the end prints every step's
# time, and `BENCH ci-<step> <seconds> s` lines, so a slow step shows itself.
# Usage: scripts/ci.sh STEP...
set -uo pipefail

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
