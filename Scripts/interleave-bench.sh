#!/bin/bash
# Interleaved runs of one row of the per-hop benchmark, for comparing builds (A/B) on a noisy machine.
#
#   Scripts/interleave-bench.sh ROW ROUNDS BINARY…
#
# Each round runs every BINARY (copies of Benchmarks/.build/release/chaintrace-benchmarks from the builds to
# compare) once, on ROW alone (CHAINTRACE_BENCH_ONLY="=ROW", no thread table, best of 3), so that a slow minute
# falls on all of them; then it prints each binary's ns a hop, sorted:
#
#   Scripts/interleave-bench.sh "instrumented chain (traceHop), traced" 10 /tmp/before /tmp/after
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 ROW ROUNDS BINARY..." >&2
    exit 2
fi
row="$1"
rounds="$2"
shift 2
for _ in $(seq "$rounds"); do
    for binary in "$@"; do
        value=$(CHAINTRACE_BENCH_ONLY="=$row" CHAINTRACE_BENCH_THREADS=0 CHAINTRACE_BENCH_REPEATS=3 "$binary" 2>/dev/null \
            | grep -F "$row  " | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+$/) { print $i; exit } }')
        echo "$binary ${value:-?}"
    done
done | sort -k1,1 -k2,2n | awk '{ runs[$1] = runs[$1] " " $2 } END { for (b in runs) print b ":" runs[b] }'
