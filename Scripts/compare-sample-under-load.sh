#!/usr/bin/env bash
# Requests a second and p99 latency of the Hummingbird sample under wrk, traced (every request into a trace log)
# and untraced, in interleaved rounds: the server on core 0, wrk on core 1, release build.
#
#   Samples/HummingbirdServer/compare-under-load.sh [ROUNDS] [PATH]
#
# ROUNDS defaults to 3, PATH to /health (four middleware and an endpoint, no waiting: bound by the server's
# processor). Environment: DURATION (seconds a run, default 10), CONNECTIONS (default 64), SCRATCH (build
# directory, default .build/integrations-release).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
path=${2:-/health}
duration=${DURATION:-10}
connections=${CONNECTIONS:-64}
scratch=${SCRATCH:-.build/integrations-release}
command -v wrk >/dev/null || { echo "compare-under-load: wrk is missing (apt-get install -y wrk)" >&2; exit 1; }
swift build -c release --traits Hummingbird --scratch-path "$scratch" --product HummingbirdServer >&2
bin="$(swift build -c release --traits Hummingbird --scratch-path "$scratch" --show-bin-path)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {  # mode → "requests/s p99"
    local port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    local flags=(--port "$port" --trace-out "$work/traces.jsonl")
    [ "$1" = untraced ] && flags+=(--untraced)
    taskset -c 0 "$bin/HummingbirdServer" "${flags[@]}" 2> "$work/server.stderr" &
    local server=$!
    for _ in $(seq 100); do
        python3 -c "import http.client,sys; c=http.client.HTTPConnection('127.0.0.1',$port,timeout=1); c.request('GET','/health'); sys.exit(c.getresponse().status!=200)" 2>/dev/null && break
        sleep 0.2
    done
    taskset -c 1 wrk --threads 1 --connections "$connections" --duration "${duration}s" --latency \
        -H "x-api-key: sample-key" "http://127.0.0.1:$port$path" > "$work/wrk.txt"
    kill -INT $server
    wait $server
    rm -f "$work/traces.jsonl"
    local rate p99
    rate=$(awk '/^Requests\/sec:/ { print $2 }' "$work/wrk.txt")
    p99=$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")
    echo "$rate $p99"
}

echo "| round | untraced requests/s | traced requests/s | traced ÷ untraced | untraced p99 | traced p99 |"
echo "|---|---:|---:|---:|---:|---:|"
for round in $(seq "$rounds"); do
    read -r plain_rate plain_p99 < <(run untraced)
    read -r traced_rate traced_p99 < <(run traced)
    ratio=$(python3 -c "print(f'{$traced_rate / $plain_rate:.3f}')")
    echo "| $round | $plain_rate | $traced_rate | $ratio | $plain_p99 | $traced_p99 |"
done
