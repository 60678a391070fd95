#!/usr/bin/env bash
# Runs every test, and the binaries the tests run, under AddressSanitizer with LeakSanitizer on.
#
#   Scripts/test-sanitized.sh [swift test options…]
#
# Builds into .build/sanitized (apart from the plain build). Leak reports of libraries we do not own are
# suppressed by Scripts/lsan-suppressions.txt; any other leak, or any memory error, fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# lld: gold prints a warning for each of AddressSanitizer's local symbols it cannot export (hundreds a link).
flags=(--sanitize=address --scratch-path .build/sanitized -Xswiftc -use-ld=lld)
swift build --build-tests "${flags[@]}"
swift test --skip-build "${flags[@]}" "$@"
