#!/usr/bin/env bash
# `make bench`: every benchmark in release, each printing `BENCH <name>
# <value> <unit>` lines: parsing, the resilience middleware, the generated
# call and typed event streams against the peer's, the branding store, the
# 1M-record sync, the SDKs, the tracker queue, the Call Directory
# extension's loads, and code generation against the peer.
#
# CORPUS (default corpus) holds the specs; BENCH_SPEC (default the GitHub
# spec) is the one parsed; BENCH_CODEGEN_FLAGS=--peer-compile also compiles
# the peer's GitHub client (4+ minutes, 7 GB).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
CORPUS=${CORPUS:-corpus}
BENCH_SPEC=${BENCH_SPEC:-$CORPUS/22-github-rest-api.yaml}
read -r -a codegen_flags <<< "${BENCH_CODEGEN_FLAGS:-}"

# Every benchmark is a product the SDK package can build (clientgen-bench
# through its dependency on the generator), so all release builds share one
# build folder and one build description.
release() { "$SWIFT" build -c release "$@"; }

release --product clientgen-bench
.build/release/clientgen-bench "$BENCH_SPEC" --runs 15 --name github
release --product resilience-bench
.build/release/resilience-bench --requests 2000
"$SWIFT" build -c release --package-path Benchmarks/PeerComparison --product client-call-bench
Benchmarks/PeerComparison/.build/release/client-call-bench
# Typed event streams against the peer's helpers: events per second (1M
# events, interleaved), then each reader's peak memory at 10k and 1M events,
# each in a process of its own.
"$SWIFT" build -c release --package-path Benchmarks/PeerComparison --product event-stream-bench
Benchmarks/PeerComparison/.build/release/event-stream-bench throughput --events 1000000 --runs 5
for reader in ours-sse peer-sse ours-jsonl peer-jsonl; do
    for events in 10000 1000000; do
        Benchmarks/PeerComparison/.build/release/event-stream-bench peak-rss --reader "$reader" --events "$events"
    done
done
for bench in branding-bench sync-http-bench sdk-bench tracker-bench; do
    release --product "$bench"
    ".build/release/$bench"
done
# The Call Directory extension at 10k and 1M entries (1,000 changes): the
# files made once, then each figure in a process of its own.
release --product call-directory-bench
calldir=$(mktemp -d)
for size in 10000 1000000; do
    .build/release/call-directory-bench prepare --folder "$calldir/$size" --entries "$size" --changes 1000
done
for mode in diff-export complete-load incremental-load; do
    .build/release/call-directory-bench "$mode" --folder "$calldir/1000000"
done
for size in 10000 1000000; do
    .build/release/call-directory-bench peak-rss --folder "$calldir/$size"
done
rm -rf "$calldir"
release --product clientgen
python3 scripts/bench_codegen.py .build/release/clientgen "$CORPUS" "${codegen_flags[@]}"
