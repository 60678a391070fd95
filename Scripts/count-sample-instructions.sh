#!/usr/bin/env bash
# Instructions a request of a server sample, traced beside untraced, counted by callgrind while `hey` sends real
# HTTP requests over loopback: the stable measure of what tracing costs a server, where requests a second under wrk
# move by several per cent from one run to the next on a shared VM. Each mode runs twice, with REQUESTS and with
# 3 × REQUESTS, and the difference over 2 × REQUESTS is the cost a request: the server's start, its connections' and
# the process's exit cancel out. Every thread is counted, the trace log's writer included.
#
#   Scripts/count-sample-instructions.sh nio [SAMPLE]
#
# SAMPLE: trace one connection in SAMPLE, whole; default 100. Only the NIO sample: valgrind 3.19 stops with an
# internal error in the Hummingbird sample (at the signal thread libdispatch starts for its service lifecycle). Environment:
# REQUESTS (default 2000), CONNECTIONS (hey's workers, default 200: each keeps one connection open, so the
# connections' set-up cancels out with the rest of the start), KEEPALIVE (1, the default; 0: a new connection a
# request, `hey -disable-keepalive`, so that a request's count includes setting its connection up — and, traced,
# drawing it for tracing and putting its probes in), SCRATCH (build directory, default .build/SAMPLE-release).
# Needs valgrind and hey (apt-get install -y valgrind hey).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
    nio) trait=NIO product=NIOServer ;;
    *) echo "usage: Scripts/count-sample-instructions.sh nio [SAMPLE]" >&2; exit 2 ;;
esac
sample=${2:-100}
requests=${REQUESTS:-2000}
connections=${CONNECTIONS:-200}
keepalive=()
case "${KEEPALIVE:-1}" in
    1) connection_kind="$connections connections kept open" ;;
    0) keepalive=(-disable-keepalive) connection_kind="a new connection a request ($connections at once)" ;;
    *) echo "count-sample-instructions: KEEPALIVE must be 1 or 0, not '${KEEPALIVE}'" >&2; exit 2 ;;
esac
scratch=${SCRATCH:-.build/$1-release}
for tool in valgrind hey; do
    command -v "$tool" >/dev/null || { echo "count-sample-instructions: $tool is missing" >&2; exit 1; }
done
swift build -c release --traits "$trait" --scratch-path "$scratch" --product "$product" >&2
bin="$(swift build -c release --traits "$trait" --scratch-path "$scratch" --show-bin-path)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind cannot read the DWARF Swift 6.3 writes; it needs no debug information to count.
strip --strip-debug -o "$work/server" "$bin/$product"

count() {  # mode requests → "instructions traces", every thread; traces: how many the log holds
    local port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    local flags=(--port "$port" --trace-out "$work/traces.jsonl")
    if [ "$1" = untraced ]; then flags+=(--untraced); else flags+=(--sample "$sample"); fi
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$work/server" "${flags[@]}" \
        2> "$work/valgrind.txt" &
    local server=$!
    local ready=""
    for _ in $(seq 300); do
        if curl -sf -o /dev/null -H "x-api-key: sample-key" "http://127.0.0.1:$port/health"; then ready=1; break; fi
        sleep 0.2
    done
    [ -n "$ready" ] || { echo "count-sample-instructions: the server did not start" >&2; cat "$work/valgrind.txt" >&2; exit 1; }
    local answered
    answered=$(hey -n "$2" -c "$connections" ${keepalive[@]+"${keepalive[@]}"} -H "x-api-key: sample-key" "http://127.0.0.1:$port/health" |
        awk '/\[200\]/ { print $2 }')
    kill -INT $server
    wait $server
    [ "$answered" = "$2" ] || { echo "count-sample-instructions: $answered of $2 requests answered 200" >&2; exit 1; }
    echo "$(awk '/Collected :/ { print $4 }' "$work/valgrind.txt") $(grep -c '^\[' "$work/traces.jsonl" 2>/dev/null || true)"
    rm -f "$work/traces.jsonl" "$work/callgrind.out"
}

per_request() {  # mode → "instructions-a-request traces-of-the-larger-run"
    local few many few_traces many_traces
    read -r few few_traces < <(count "$1" "$requests")
    read -r many many_traces < <(count "$1" $((3 * requests)))
    echo "$(python3 -c "print(round(($many - $few) / (2 * $requests)))") ${many_traces:-0}"
}

read -r untraced _ < <(per_request untraced)
read -r traced traces < <(per_request traced)
echo "$product, $connection_kind, instructions a request (every thread; callgrind, hey)"
echo "| untraced | traced 1 in $sample | traced ÷ untraced | traces in the log of $((3 * requests)) requests |"
echo "|---:|---:|---:|---:|"
echo "| $untraced | $traced | $(python3 -c "print(f'{$traced / $untraced:.3f}')") | $traces |"
