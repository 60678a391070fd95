#!/usr/bin/env bash
# Builds the simdjson reference decoder of the CLI benchmark's stream-shapes table (Debian: libsimdjson-dev) and
# prints its path; run the benchmark with CHAINTRACE_BENCH_SIMDJSON set to it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(cd "$here/.." && pwd)/.build/simdjson-lines"
mkdir -p "$(dirname "$out")"
if [ ! -f /usr/include/simdjson.h ]; then
    echo "build-simdjson-reference.sh: simdjson is not installed (apt-get install libsimdjson-dev)" >&2
    exit 1
fi
g++ -O3 -std=c++17 -Wall -Wextra -o "$out" "$here/simdjson-lines.cpp" -lsimdjson
echo "$out"
