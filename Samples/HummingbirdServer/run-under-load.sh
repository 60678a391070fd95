#!/usr/bin/env bash
# Serves the Hummingbird sample on 127.0.0.1, drives it with wrk (Debian's `wrk`) for a bounded time, stops it, and
# runs `chaintrace stats`, `render` and `report` on its trace log; fails unless every request wrk counted was
# traced (or counted as dropped), every kind of request has the decisions it must, and the slow audit middleware
# is flagged.
#
#   Samples/HummingbirdServer/run-under-load.sh [OUTPUT_DIRECTORY]
#
# Environment: DURATION (seconds of load, default 5), CONNECTIONS (default 16), CONFIGURATION (debug or release,
# default debug), SCRATCH (the build directory, default .build/integrations). The server runs on core 0 and wrk on
# core 1 when the machine has two.
set -euo pipefail
cd "$(dirname "$0")/../.."
output=${1:-.build/hummingbird-sample}
duration=${DURATION:-5}
connections=${CONNECTIONS:-16}
configuration=${CONFIGURATION:-debug}
scratch=${SCRATCH:-.build/integrations}
command -v wrk >/dev/null || { echo "run-under-load: wrk is missing (apt-get install -y wrk)" >&2; exit 1; }
mkdir -p "$output"
log="$output/hummingbird-server.traces.jsonl"
rm -f "$log"

swift build -c "$configuration" --traits Hummingbird --scratch-path "$scratch" --product HummingbirdServer
swift build -c "$configuration" --traits Hummingbird --scratch-path "$scratch" --product chaintrace
bin="$(swift build -c "$configuration" --traits Hummingbird --scratch-path "$scratch" --show-bin-path)"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pin_server=() pin_load=()
if [ "$(nproc)" -ge 2 ]; then pin_server=(taskset -c 0) pin_load=(taskset -c 1); fi
"${pin_server[@]}" "$bin/HummingbirdServer" --port "$port" --trace-out "$log" 2> "$output/server.stderr" &
server=$!
trap 'kill -KILL $server 2>/dev/null || true' EXIT
python3 - "$port" <<'PY'
import http.client, sys, time
deadline = time.time() + 60
while True:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=1)
        connection.request("GET", "/health")
        if connection.getresponse().status == 200:
            break
    except OSError:
        pass
    if time.time() > deadline:
        sys.exit("run-under-load: the server did not answer within 60 s")
    time.sleep(0.2)
PY
"${pin_load[@]}" wrk --threads 1 --connections "$connections" --duration "${duration}s" --latency \
    --script Samples/HummingbirdServer/orders.lua "http://127.0.0.1:$port" | tee "$output/wrk.txt"
kill -INT $server
wait $server
trap - EXIT
cat "$output/server.stderr"

"$bin/chaintrace" stats "$log" | tee "$output/stats.txt"
"$bin/chaintrace" render --trace "$log" --output "$output/profile.svg"
"$bin/chaintrace" report "$log" --output "$output/report.html"

"$bin/chaintrace" stats "$log" --format json > "$output/stats.json"
python3 Samples/HummingbirdServer/check-load-run.py "$output"
