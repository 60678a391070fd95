#!/usr/bin/env bash
# Serves the SwiftNIO sample on 127.0.0.1 under wrk for a few seconds and runs `chaintrace stats`, `render` and
# `report` on its trace log, checking them (Scripts/run-sample-under-load.sh says how).
#
#   Samples/NIOServer/run-under-load.sh [OUTPUT_DIRECTORY]
exec "$(dirname "$0")/../../Scripts/run-sample-under-load.sh" nio "$@"
