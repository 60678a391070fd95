#!/usr/bin/env bash
# Builds ChainTrace's libFuzzer targets (Fuzz/, with -sanitize=fuzzer,address) and runs each for a while.
#
#   Scripts/fuzz.sh                      every target, 60 s each
#   Scripts/fuzz.sh 600 trace-log json   these targets, 600 s each
#
# Targets: json (the JSON parser), command-stream (general vs fast stream decoder), definition (definition
# loading, then dry run vs real run), trace-log (the log reader vs the general decoder, and encode -> decode).
# Seeds come from Fuzz/Corpus/TARGET (kept in the repo); what libFuzzer adds goes to Fuzz/.build/corpus/TARGET,
# crashes to Fuzz/.build/artifacts/TARGET/. A crash stops the run with libFuzzer's report and exit status 1;
# rerun one input with: Fuzz/.build/release/fuzz-TARGET Fuzz/.build/artifacts/TARGET/crash-…
# Not run in CI (too slow); it needs only the Swift toolchain (clang's libFuzzer ships with it).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Swift's own crash backtracer reads memory ASan has poisoned; libFuzzer prints the stack itself.
export SWIFT_BACKTRACE=enable=no
seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(json command-stream definition trace-log); fi
case "$seconds" in ''|*[!0-9]*) echo "fuzz.sh: the first argument is seconds per target, a whole number; got '$seconds'" >&2; exit 2;; esac
for target in "${targets[@]}"; do
    if [ ! -d "$root/Fuzz/Corpus/$target" ]; then
        echo "fuzz.sh: no target '$target'; targets: json command-stream definition trace-log" >&2
        exit 2
    fi
done

echo "Building the fuzz targets (release, -sanitize=fuzzer,address)…"
# lld: gold cannot link libFuzzer's runtime against SwiftPM's renamed entry point.
# -enable-testing: the JSON fuzz targets reach the internal ChainTraceJSON module with `@testable import`.
build() {
    swift build -c release --package-path "$root/Fuzz" --scratch-path "$root/Fuzz/.build" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld -Xswiftc -enable-testing
}
if ! build; then
    # SwiftPM can keep a build plan that misses files added to ChainTrace's targets since the last build.
    echo "fuzz.sh: the build failed; retrying once with SwiftPM's build plan for ChainTrace's modules cleared…" >&2
    rm -rf "$root/Fuzz/.build/release.yaml" "$root/Fuzz/.build/build.db" "$root/Fuzz/.build/release/ChainTrace"*.build \
        "$root/Fuzz/.build/release/Modules/ChainTrace"*
    build
fi

summary=()
for target in "${targets[@]}"; do
    work="$root/Fuzz/.build/corpus/$target"
    artifacts="$root/Fuzz/.build/artifacts/$target/"
    mkdir -p "$work" "$artifacts"
    dictionary=()
    if [ -f "$root/Fuzz/Dictionaries/$target.dict" ]; then dictionary=(-dict="$root/Fuzz/Dictionaries/$target.dict"); fi
    asan="${ASAN_OPTIONS:-}"
    log="$root/Fuzz/.build/$target.log"
    echo "Fuzzing $target for ${seconds}s (log: $log)…"
    status=0
    ASAN_OPTIONS="$asan" "$root/Fuzz/.build/release/fuzz-$target" "$work" "$root/Fuzz/Corpus/$target" \
        -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$artifacts" "${dictionary[@]}" >"$log" 2>&1 || status=$?
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
    if [ "$status" -ne 0 ]; then
        tail -40 "$log" >&2
        echo "fuzz.sh: $target failed (exit $status) after ${runs:-?} executions; the input is in $artifacts" >&2
        exit 1
    fi
    summary+=("$(printf '%-16s %12s executions in %ss, no crash' "$target" "${runs:-?}" "$seconds")")
done
printf '%s\n' "${summary[@]}"
