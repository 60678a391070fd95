#!/usr/bin/env bash
# Serves a server sample (Samples/HummingbirdServer, Samples/VaporServer or Samples/NIOServer) on 127.0.0.1, drives
# it with wrk (Debian's `wrk`; the traffic in Samples/HummingbirdServer/orders.lua, which the samples answer alike)
# for a bounded time, stops it, and runs `chaintrace stats`, `render` and `report` on its trace log; fails unless
# every request wrk counted was traced (or counted as dropped), every kind of request has the decisions it must, and
# the slow audit middleware (or handler) is flagged (Scripts/check-load-run.py). Each sample's run-under-load.sh sets
# the rule it is judged by (SLOW_RULE).
#
#   Scripts/run-sample-under-load.sh hummingbird|vapor|nio [OUTPUT_DIRECTORY]
#
# Environment: DURATION (seconds of load, default 5), CONNECTIONS (default 16), CONFIGURATION (debug or release, default
# debug), SCRATCH (the build directory, default .build/integrations; .build is the one `swift build` uses), TRAITS (the
# package traits to build with, default the sample's own; a build directory shared with other traits' builds should get
# the same set, or every build rebuilds it), SLOW_RULE (the `--slow` rule for stats, render and report; default theirs).
# The server runs on core 0 and wrk on core 1 when the machine has two.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
    hummingbird) sample=hummingbird trait=Hummingbird product=HummingbirdServer ;;
    vapor) sample=vapor trait=Vapor product=VaporServer ;;
    nio) sample=nio trait=NIO product=NIOServer ;;
    *) echo "usage: Scripts/run-sample-under-load.sh hummingbird|vapor|nio [OUTPUT_DIRECTORY]" >&2; exit 2 ;;
esac
output=${2:-.build/$sample-sample}
traits=${TRAITS:-$trait}
duration=${DURATION:-5}
connections=${CONNECTIONS:-16}
configuration=${CONFIGURATION:-debug}
scratch=${SCRATCH:-.build/integrations}
# SwiftPM's own .build takes no --scratch-path: naming it, SwiftPM rebuilds everything a plain `swift build` built.
scratch_path=(--scratch-path "$scratch")
if [ "$scratch" = .build ]; then scratch_path=(); fi
command -v wrk >/dev/null || { echo "run-under-load: wrk is missing (apt-get install -y wrk)" >&2; exit 1; }
mkdir -p "$output"
log="$output/$sample-server.traces.jsonl"
rm -f "$log"

swift build -c "$configuration" --traits "$traits" "${scratch_path[@]}" --product "$product"
swift build -c "$configuration" --traits "$traits" "${scratch_path[@]}" --product chaintrace
bin="$(swift build -c "$configuration" --traits "$traits" "${scratch_path[@]}" --show-bin-path)"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pin_server=() pin_load=()
if [ "$(nproc)" -ge 2 ]; then pin_server=(taskset -c 0) pin_load=(taskset -c 1); fi
"${pin_server[@]}" "$bin/$product" --port "$port" --trace-out "$log" 2> "$output/server.stderr" &
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

slow=()
if [ -n "${SLOW_RULE:-}" ]; then slow=(--slow "$SLOW_RULE"); fi
"$bin/chaintrace" stats "$log" "${slow[@]}" | tee "$output/stats.txt"
"$bin/chaintrace" render --trace "$log" "${slow[@]}" --output "$output/profile.svg"
"$bin/chaintrace" report "$log" "${slow[@]}" --output "$output/report.html"

"$bin/chaintrace" stats "$log" "${slow[@]}" --format json > "$output/stats.json"
python3 Scripts/check-load-run.py "$output" "$sample"
