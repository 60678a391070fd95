#!/usr/bin/env bash
# Requests a second and p99 latency of the Hummingbird sample under wrk, traced and untraced, in interleaved rounds
# (Scripts/compare-sample-under-load.sh says how).
#
#   Samples/HummingbirdServer/compare-under-load.sh [ROUNDS] [PATH]
exec "$(dirname "$0")/../../Scripts/compare-sample-under-load.sh" hummingbird "$@"
