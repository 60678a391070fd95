#!/usr/bin/env bash
# Requests a second and p99 latency of the SwiftNIO sample under wrk, one connection in 32 traced (SAMPLE: of wrk's
# 64, two, and the readiness check's) and untraced, in interleaved rounds (Scripts/compare-sample-under-load.sh says
# how).
#
#   Samples/NIOServer/compare-under-load.sh [ROUNDS] [PATH]
SAMPLE=${SAMPLE:-32} exec "$(dirname "$0")/../../Scripts/compare-sample-under-load.sh" nio "$@"
