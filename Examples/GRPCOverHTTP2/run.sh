#!/usr/bin/env bash
# Runs the gRPC sample over HTTP/2 on 127.0.0.1 — orders.Orders served and called over a real connection, the
# server's interceptors traced, then the client's too — and everything Samples/GRPCService/run.sh does with its logs:
# `chaintrace stats`, `render` and `report`, and its checks (every call traced once on each side, each kind of call
# with the decisions it must, the slow audit interceptor and the watch stream alone flagged).
#
#   Examples/GRPCOverHTTP2/run.sh [OUTPUT_DIRECTORY]
#
# Environment: CALLS (default 2000), CONCURRENCY (calls in flight on the one connection, default 16),
# CONFIGURATION (debug or release, default debug). The first build takes about five minutes (BoringSSL, twice).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
configuration=${CONFIGURATION:-debug}
swift build -c "$configuration" --package-path "$here" --product GRPCServiceOverHTTP2
bin="$(swift build -c "$configuration" --package-path "$here" --show-bin-path)"
SAMPLE="$bin/GRPCServiceOverHTTP2" exec "$here/../../Samples/GRPCService/run.sh" "${1:-$here/.build/grpc-over-http2}"
