#!/usr/bin/env bash
# `make ci`: run each CI step (make targets, in the order given) and time it.
# A failing step stops the run with its name; the end prints every step's
# time and how busy the machine's cores were during it (Linux: from
# /proc/stat; a step well below 100% waits on something other than the
# CPU), the run's wall time, and `BENCH ci-<step> <seconds> s` lines, so a
# slow step shows itself.
#
# STEP may name several targets joined by `+` (`ci-conformance+guide`):
# they run side by side, each one's output kept and printed whole when the
# group ends, so that a step which leaves a core idle (waiting on a
# server, a single-file compile, a linker) lends it to the other. Only
# steps that share no build folder go together: two builds into one
# `.build` would wait for each other's lock.
# Usage: scripts/ci.sh STEP...
set -uo pipefail

names=()
seconds=()
busy=()
run_started=$(date +%s)
# "busy total" jiffies of every core so far (nothing where /proc/stat is missing).
cpu_jiffies() {
    [ -r /proc/stat ] || return 0
    awk '/^cpu / { total = 0; for (i = 2; i <= NF; i++) total += $i; print total - $5 - $6, total }' /proc/stat
}
# "busy N%" between two cpu_jiffies readings ("" without them).
busy_share() {
    local busy_before=$1 total_before=$2 busy_after=$3 total_after=$4
    if [ -n "$total_before" ] && [ -n "$total_after" ] && [ "$total_after" -gt "$total_before" ]; then
        echo "busy $(( 100 * (busy_after - busy_before) / (total_after - total_before) ))%"
    fi
}
report() {
    echo "== ci times (busy: the share of the cores' time in use; steps joined by + ran side by side)"
    local i
    for i in "${!names[@]}"; do
        printf '  %-14s %5d s  %s\n' "${names[$i]}" "${seconds[$i]}" "${busy[$i]}"
    done
    local wall=$(( $(date +%s) - run_started ))
    printf '  %-14s %5d s\n' total "$wall"
    for i in "${!names[@]}"; do
        echo "BENCH ci-${names[$i]} ${seconds[$i]} s"
    done
    echo "BENCH ci-total $wall s"
}
fail() {
    report
    echo "ci: '$1' failed (exit $2); the steps after it did not run" >&2
    exit "$2"
}

# One step, its output as it comes.
run_step() {
    local step=$1 start status
    echo "== ci: $step"
    start=$(date +%s)
    read -r busy_before total_before <<<"$(cpu_jiffies)"
    make --no-print-directory "$step"
    status=$?
    read -r busy_after total_after <<<"$(cpu_jiffies)"
    names+=("$step")
    seconds+=($(( $(date +%s) - start )))
    busy+=("$(busy_share "${busy_before:-}" "${total_before:-}" "${busy_after:-}" "${total_after:-}")")
    [ "$status" -eq 0 ] || fail "$step" "$status"
}

# Steps side by side; each one's output printed once the group has ended.
run_group() {
    local group=$1 members member start folder status failed="" failed_status=0
    IFS=+ read -r -a members <<<"$group"
    echo "== ci: ${members[*]} (side by side; each one's output follows once all have ended)"
    folder=$(mktemp -d)
    start=$(date +%s)
    read -r busy_before total_before <<<"$(cpu_jiffies)"
    local pids=()
    for member in "${members[@]}"; do
        ( make --no-print-directory "$member" >"$folder/$member.log" 2>&1; echo $? >"$folder/$member.status"; date +%s >"$folder/$member.end" ) &
        pids+=($!)
    done
    # An interrupted run takes the group with it: the steps' own processes
    # (make and what it runs) are in this run's process group, not only
    # the subshells.
    trap 'trap - INT TERM; kill 0 2>/dev/null; exit 130' INT TERM
    wait "${pids[@]}"
    trap - INT TERM
    read -r busy_after total_after <<<"$(cpu_jiffies)"
    local shared
    shared=$(busy_share "${busy_before:-}" "${total_before:-}" "${busy_after:-}" "${total_after:-}")
    for member in "${members[@]}"; do
        echo "== ci: $member"
        cat "$folder/$member.log"
        status=$(cat "$folder/$member.status" 2>/dev/null || echo 1)
        names+=("$member")
        seconds+=($(( $(cat "$folder/$member.end" 2>/dev/null || date +%s) - start )))
        busy+=("${shared:+$shared, }side by side: $group")
        if [ "$status" -ne 0 ] && [ -z "$failed" ]; then failed=$member; failed_status=$status; fi
    done
    rm -rf "$folder"
    [ -z "$failed" ] || fail "$failed" "$failed_status"
}

for step in "$@"; do
    case "$step" in
        *+*) run_group "$step" ;;
        *) run_step "$step" ;;
    esac
done
report
