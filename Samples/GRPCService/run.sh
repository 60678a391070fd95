#!/usr/bin/env bash
# Runs the gRPC sample — orders.Orders served and called in one process over grpc-swift's in-process transport, the
# server's interceptors traced — and runs `chaintrace stats`, `render` and `report` on its log; runs it again with
# the client traced too and profiles, draws and reports each chain apart (--chain); fails unless every call was
# traced on both sides, every kind of call has the decisions it must, and the slow audit interceptor and the watch
# stream alone are flagged (check-run.py).
#
#   Samples/GRPCService/run.sh [OUTPUT_DIRECTORY]
#
# Environment: CALLS (default 2000), CONCURRENCY (calls in flight, default 16), CONFIGURATION (debug or release, default
# debug), SCRATCH (the build directory, default .build/integrations; .build is the one `swift build` uses), TRAITS (the
# package traits to build with, default GRPC; a build directory shared with other traits' builds should get the same
# set), SAMPLE (a GRPCService binary built elsewhere to run instead of this package's: Examples/GRPCOverHTTP2's, over
# HTTP/2), SLOW_RULE (the `--slow` rule for stats, render and report; default p95>1ms).
#
# Slow by time alone: the audit interceptor waits 2 ms on every call and the watch stream 3 ms, so their p95s pass a
# millisecond by construction. The default rule's other clause (p95 over 5 × the median handler's) compares tails
# under 16 calls in flight on a loaded machine: CI saw the Get handler's p95 at 4.1 × the median.
set -euo pipefail
cd "$(dirname "$0")/../.."
output=${1:-.build/grpc-sample}
calls=${CALLS:-2000}
configuration=${CONFIGURATION:-debug}
scratch=${SCRATCH:-.build/integrations}
# SwiftPM's own .build takes no --scratch-path: naming it, SwiftPM rebuilds everything a plain `swift build` built.
scratch_path=(--scratch-path "$scratch")
if [ "$scratch" = .build ]; then scratch_path=(); fi
traits=${TRAITS:-GRPC}
mkdir -p "$output"
log="$output/grpc-service.traces.jsonl"
rm -f "$log"

[ -n "${SAMPLE:-}" ] || swift build -c "$configuration" --traits "$traits" "${scratch_path[@]}" --product GRPCService
swift build -c "$configuration" --traits "$traits" "${scratch_path[@]}" --product chaintrace
bin="$(swift build -c "$configuration" --traits "$traits" "${scratch_path[@]}" --show-bin-path)"
sample=${SAMPLE:-$bin/GRPCService}
slow=(--slow "${SLOW_RULE:-p95>1ms}")

"$sample" --calls "$calls" --concurrency "${CONCURRENCY:-16}" --trace-out "$log" 2> "$output/sample.stderr" |
    tee "$output/sample.txt"
cat "$output/sample.stderr"
"$bin/chaintrace" stats "$log" "${slow[@]}" | tee "$output/stats.txt"
"$bin/chaintrace" render --trace "$log" "${slow[@]}" --output "$output/profile.svg"
"$bin/chaintrace" report "$log" "${slow[@]}" --output "$output/report.html"
"$bin/chaintrace" stats "$log" "${slow[@]}" --format json > "$output/stats.json"

# Again with the client traced too: one log of two chains, the client's `grpc-client`.
both="$output/grpc-service-and-client.traces.jsonl"
rm -f "$both"
"$sample" --calls "$calls" --concurrency "${CONCURRENCY:-16}" --trace-out "$both" --trace-client \
    2>> "$output/sample.stderr" | tee -a "$output/sample.txt"
"$bin/chaintrace" stats "$both" "${slow[@]}" --chain grpc-client | tee -a "$output/stats.txt"
"$bin/chaintrace" stats "$both" "${slow[@]}" --chain grpc --format json > "$output/server-stats.json"
"$bin/chaintrace" render --trace "$both" "${slow[@]}" --chain grpc-client --output "$output/client-profile.svg"
"$bin/chaintrace" report "$both" "${slow[@]}" --chain grpc-client --output "$output/client-report.html"
"$bin/chaintrace" stats "$both" "${slow[@]}" --chain grpc-client --format json > "$output/client-stats.json"
python3 Samples/GRPCService/check-run.py "$output" "$calls"
