#!/usr/bin/env bash
# Runs the tests, and the binaries the tests run, under AddressSanitizer with LeakSanitizer on; then the suites
# that record from several threads and tasks at once under ThreadSanitizer.
#
#   Scripts/test-sanitized.sh [swift test options…]
#
# Builds into .build/sanitized and .build/thread-sanitized (apart from the plain build). Leak reports of libraries
# we do not own are suppressed by Scripts/lsan-suppressions.txt; any other leak, memory error or data race fails
# the run.
set -euo pipefail
cd "$(dirname "$0")/.."
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# lld: gold prints a warning for each of AddressSanitizer's local symbols it cannot export (hundreds a link).
flags=(--sanitize=address --scratch-path .build/sanitized -Xswiftc -use-ld=lld)
swift build --build-tests "${flags[@]}"
# Left to the plain run: the suites that hand the CLI's output to other programs to read — Chromium, DuckDB and
# Spark, opentelemetry-proto. Their time goes to those programs (about 200 s of a 1 000 s run under AddressSanitizer,
# on 2 cores); the report's and the OTLP export's writers are safe Swift, and the code they share that reads memory
# unsafely (the trace-log readers, ChainTraceFastPath) runs here in its own suites.
external='ReportBrowserTests|AtScaleTests|OTLPExportTests|OTLPRequestSpanExportTests'
swift test --skip-build "${flags[@]}" --skip "$external" "$@"

# ThreadSanitizer over the C helpers too (-fsanitize=thread for clang): built without it, their one-word lock's
# compare-and-swap is no synchronisation TSan can see, and every hop of an async trace looked like a race.
threads=(--scratch-path .build/thread-sanitized -Xswiftc -sanitize=thread -Xcc -fsanitize=thread)
# The suites tagged `.concurrent` in Tests/ (ConcurrentSuiteTagTests keeps every suite that starts threads or tasks
# tagged).
concurrent=$(python3 Scripts/concurrent-suites.py)
swift build --build-tests "${threads[@]}"
TSAN_OPTIONS="${TSAN_OPTIONS:-}" swift test --skip-build "${threads[@]}" --filter "$concurrent" "$@"
