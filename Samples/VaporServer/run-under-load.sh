#!/usr/bin/env bash
# Serves the Vapor sample on 127.0.0.1 under wrk for a few seconds and runs `chaintrace stats`, `render` and
# `report` on its trace log, checking them (Scripts/run-sample-under-load.sh says how).
#
#   Samples/VaporServer/run-under-load.sh [OUTPUT_DIRECTORY]
#
# Slow by median self time: a hop inside an AsyncMiddleware (here every hop after ErrorPageMiddleware) closes when
# Vapor's event loop runs its future's callback, so its tail holds the loop's waits, and the default rule (p95 over
# 1 ms) would flag hops that only waited (Docs/Integrations.md, "Time"). On a slow machine even the median of such a
# wait passes a millisecond (CI saw the health endpoint's at 1.1 ms), so the audit middleware waits five and the rule
# is a median over three.
# Two connections: the debug build saturates the one core the server is pinned to sooner than Hummingbird's.
export CONNECTIONS=${CONNECTIONS:-2}
SLOW_RULE=${SLOW_RULE:-p50>3ms} exec "$(dirname "$0")/../../Scripts/run-sample-under-load.sh" vapor "$@"
