#!/usr/bin/env bash
# The checks beside the test suites: the code's format (Scripts/lint.sh), then the key benchmark rows held to their
# budgets in instructions a hop (Scripts/check-instruction-budgets.py; it builds the benchmarks in release first:
# the core's and three frameworks').
set -euo pipefail
cd "$(dirname "$0")/.."
# A fixed hash seed, so that the benchmark builds below plan the same compile commands and share one build of the
# package: SwiftPM 6.3 orders trait flags by its per-process hash seed (swiftlang/swift-package-manager#10525; .ci/run).
export SWIFT_DETERMINISTIC_HASHING=1
Scripts/lint.sh
# Vapor's benchmark is left out (`--ci`): its release build alone would add about six minutes to CI.
for product in chaintrace-benchmarks chaintrace-http-benchmarks chaintrace-grpc-benchmarks chaintrace-nio-benchmarks; do
    swift build -c release --package-path Benchmarks --product "$product"
done
python3 Scripts/check-instruction-budgets.py --ci
