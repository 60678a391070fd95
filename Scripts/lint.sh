#!/usr/bin/env bash
# Checks every Swift file of the project against .swift-format (swift-format, bundled with the toolchain), and fails
# on any finding. To fix what it reports: Scripts/lint.sh --fix, which formats the same files in place.
#
# Tests/GeneratedTests holds what `chaintrace gen-tests` wrote, checked byte for byte against the tool: it is left as
# the tool writes it. Tests/SampleTests/DocumentationExamples.swift opts out itself (its blocks are the docs').
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Samples Benchmarks/Sources Fuzz/Sources Examples/OpenTelemetry/Sources Examples/GRPCOverHTTP2/Sources/GRPCServiceOverHTTP2/HTTP2Transport.swift Tests/Probes Tests/ChainTraceTestSupport Tests/TraitClient/Sources)
for folder in Tests/*/; do
    case "$folder" in Tests/GeneratedTests/|Tests/Probes/|Tests/ChainTraceTestSupport/|Tests/TraitClient/) ;; *) paths+=("${folder%/}") ;; esac
done
if [ "${1:-}" = "--fix" ]; then
    swift format format --in-place --recursive --parallel "${paths[@]}"
else
    swift format lint --strict --recursive --parallel "${paths[@]}"
    echo "swift-format: no findings"
fi
