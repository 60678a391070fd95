#!/usr/bin/env bash
# Requests a second and p99 latency of a server sample under wrk, traced and untraced, in interleaved rounds: the
# server on core 0, wrk on core 1, release build.
#
#   Scripts/compare-sample-under-load.sh hummingbird|nio [ROUNDS] [PATH]
#
# ROUNDS defaults to 3, PATH to /health (the app's handlers and an endpoint, no waiting: bound by the server's
# processor). Environment: DURATION (seconds a run, default 10), CONNECTIONS (default 64), SAMPLE (trace one request
# — for the NIO sample, one event — in SAMPLE; default 1, every one), SCRATCH (build directory, default
# .build/SAMPLE-release).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
    hummingbird) trait=Hummingbird product=HummingbirdServer ;;
    nio) trait=NIO product=NIOServer ;;
    *) echo "usage: Scripts/compare-sample-under-load.sh hummingbird|nio [ROUNDS] [PATH]" >&2; exit 2 ;;
esac
rounds=${2:-3}
path=${3:-/health}
duration=${DURATION:-10}
connections=${CONNECTIONS:-64}
sample=${SAMPLE:-1}
scratch=${SCRATCH:-.build/$1-release}
command -v wrk >/dev/null || { echo "compare-under-load: wrk is missing (apt-get install -y wrk)" >&2; exit 1; }
swift build -c release --traits "$trait" --scratch-path "$scratch" --product "$product" >&2
bin="$(swift build -c release --traits "$trait" --scratch-path "$scratch" --show-bin-path)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {  # mode → "requests/s p99"
    local port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    local flags=(--port "$port" --trace-out "$work/traces.jsonl" --sample "$sample")
    [ "$1" = untraced ] && flags+=(--untraced)
    taskset -c 0 "$bin/$product" "${flags[@]}" 2> "$work/server.stderr" &
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

echo "$product, traced 1 in $sample beside untraced, $connections connections, ${duration} s a run"
echo "| round | untraced requests/s | traced requests/s | traced ÷ untraced | untraced p99 | traced p99 |"
echo "|---|---:|---:|---:|---:|---:|"
ratios=()
for round in $(seq "$rounds"); do
    read -r plain_rate plain_p99 < <(run untraced)
    read -r traced_rate traced_p99 < <(run traced)
    ratio=$(python3 -c "print(f'{$traced_rate / $plain_rate:.3f}')")
    ratios+=("$ratio")
    echo "| $round | $plain_rate | $traced_rate | $ratio | $plain_p99 | $traced_p99 |"
done
python3 -c "import statistics as s; r = [$(IFS=,; echo "${ratios[*]}")]; print(f'traced ÷ untraced over {len(r)} rounds: median {s.median(r):.3f}, mean {s.mean(r):.3f}' + (f', sd {s.stdev(r):.3f}' if len(r) > 1 else ''))"
