#!/usr/bin/env bash
# `make spec-diff`: fails when a spec change breaks shipped clients (ERR
# findings of `clientgen diff` against a base commit).
#
# The base is BASE when set; otherwise the merge base with origin/main, or
# the previous commit when that is HEAD itself (CI on main) or there is no
# origin/main. Accepted breaking changes are listed, each with its reason, in
# DIFF_IGNORE (default specs/diff-ignore.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
CLIENTGEN=${CLIENTGEN:-.build/debug/clientgen}
CLIENTS=${CLIENTS:-specs/clients.json}
DIFF_IGNORE=${DIFF_IGNORE:-specs/diff-ignore.txt}

base=${BASE:-}
if [ -z "$base" ]; then
    merge_base=$(git merge-base HEAD origin/main 2>/dev/null || true)
    if [ -n "$merge_base" ] && [ "$merge_base" != "$(git rev-parse HEAD 2>/dev/null)" ]; then
        base=$merge_base
    else
        base=$(git rev-parse --verify -q HEAD~1 2>/dev/null || true)
    fi
fi
if [ -z "$base" ]; then
    echo "spec-diff: no base commit (no origin/main and no previous commit); skipped"
    exit 0
fi

ignore=()
[ -f "$DIFF_IGNORE" ] && ignore=(--ignore "$DIFF_IGNORE")
status=0
for spec in specs/*.yaml; do
    if ! git cat-file -e "$base:$spec" 2>/dev/null; then
        echo "spec-diff: $spec is new since $base; nothing to compare"
        continue
    fi
    "$CLIENTGEN" diff "$base:$spec" "$spec" --config "$CLIENTS" --fail-on ERR "${ignore[@]}" || {
        code=$?
        [ $code -gt $status ] && status=$code
    }
done
exit $status
