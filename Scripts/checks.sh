#!/usr/bin/env bash
# The checks beside the test suites: the code's format (Scripts/lint.sh), then the key benchmark rows held to their
# budgets in instructions a hop (Scripts/check-instruction-budgets.py; it builds the benchmarks in release first).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/lint.sh
swift build -c release --package-path Benchmarks --product chaintrace-benchmarks
python3 Scripts/check-instruction-budgets.py
