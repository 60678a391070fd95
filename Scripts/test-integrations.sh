#!/usr/bin/env bash
# The framework integrations' checks, each with its package trait enabled (a plain `swift test` builds none of the
# frameworks):
#   1. a user's package (Tests/TraitClient) resolved without the traits resolves none of Hummingbird, Vapor or
#      SwiftNIO, and builds; with one trait it resolves that framework and not the other;
#   2. ChainTraceHummingbird's and ChainTraceVapor's tests, in process and live on 127.0.0.1
#      (`swift test --traits Hummingbird,Vapor`);
#   3. each server sample served on 127.0.0.1 under wrk for a few seconds, its log through `chaintrace stats`,
#      `render` and `report` (Samples/HummingbirdServer/run-under-load.sh, Samples/VaporServer/run-under-load.sh).
#
#   Scripts/test-integrations.sh [swift test options…]
#
# Builds into .build with both traits, as the README's test command's `swift test --traits Hummingbird,Vapor` does
# before it (so that here only the integrations' tests run, and the samples link). Needs wrk (apt-get install -y wrk).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build

echo "== a user's package without the framework traits, then with each"
client=Tests/TraitClient
rm -rf "$client/.build" "$client/Package.resolved"
swift package --package-path "$client" resolve >/dev/null
if grep -q -E '"(hummingbird|vapor|swift-nio)"' "$client/Package.resolved"; then
    echo "test-integrations: without the traits the client resolved Hummingbird, Vapor or SwiftNIO:" >&2
    grep '"identity"' "$client/Package.resolved" >&2
    exit 1
fi
swift build --package-path "$client" --product TraitClient
if find "$client/.build" -name 'Hummingbird.swiftmodule' -o -name 'Vapor.swiftmodule' | grep -q .; then
    echo "test-integrations: without the traits the client built Hummingbird or Vapor" >&2
    exit 1
fi
echo "without the traits: resolved $(grep -c '"identity"' "$client/Package.resolved") packages, none of Hummingbird, Vapor or SwiftNIO; built"
for trait in Hummingbird Vapor; do
    rm -rf "$client/.build" "$client/Package.resolved"
    CHAINTRACE_CLIENT_TRAITS=$trait swift package --package-path "$client" resolve >/dev/null
    framework=$(echo "$trait" | tr '[:upper:]' '[:lower:]')
    other=$([ "$trait" = Hummingbird ] && echo vapor || echo hummingbird)
    for package in "$framework" swift-nio; do
        grep -q "\"$package\"" "$client/Package.resolved" || {
            echo "test-integrations: with the $trait trait the client did not resolve $package" >&2
            exit 1
        }
    done
    if grep -q "\"$other\"" "$client/Package.resolved"; then
        echo "test-integrations: with the $trait trait alone the client resolved $other" >&2
        exit 1
    fi
    echo "with the $trait trait: resolved $(grep -c '"identity"' "$client/Package.resolved") packages, $framework and SwiftNIO among them, not $other"
done
rm -rf "$client/.build" "$client/Package.resolved"

# Every build below uses both traits, so that they share one build of SwiftNIO and of the package.
traits=Hummingbird,Vapor

echo "== ChainTraceHummingbird's and ChainTraceVapor's tests"
swift test --traits "$traits" --scratch-path "$scratch" --filter 'ChainTraceHummingbirdTests|ChainTraceVaporTests' "$@"

echo "== the Hummingbird sample under load"
TRAITS="$traits" SCRATCH="$scratch" Samples/HummingbirdServer/run-under-load.sh "$scratch/hummingbird-sample"

echo "== the Vapor sample under load"
TRAITS="$traits" SCRATCH="$scratch" Samples/VaporServer/run-under-load.sh "$scratch/vapor-sample"
