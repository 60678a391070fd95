#!/usr/bin/env bash
# The framework integrations' checks, each with its package trait enabled (a plain `swift test` builds none of the
# frameworks):
#   1. a user's package (Tests/TraitClient) resolved without the Hummingbird trait resolves none of Hummingbird or
#      SwiftNIO, and builds; with the trait it resolves them;
#   2. ChainTraceHummingbird's tests, in process and live on 127.0.0.1 (`swift test --traits Hummingbird`);
#   3. the Hummingbird sample served on 127.0.0.1 under wrk for a few seconds, its log through `chaintrace stats`,
#      `render` and `report` (Samples/HummingbirdServer/run-under-load.sh).
#
#   Scripts/test-integrations.sh [swift test options…]
#
# Builds into .build/integrations, beside the plain build. Needs wrk (apt-get install -y wrk).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/integrations

echo "== a user's package without the Hummingbird trait, then with it"
client=Tests/TraitClient
rm -rf "$client/.build" "$client/Package.resolved"
swift package --package-path "$client" resolve >/dev/null
if grep -q -E '"(hummingbird|swift-nio)"' "$client/Package.resolved"; then
    echo "test-integrations: without the trait the client resolved Hummingbird or SwiftNIO:" >&2
    grep '"identity"' "$client/Package.resolved" >&2
    exit 1
fi
swift build --package-path "$client" --product TraitClient
if find "$client/.build" -name 'Hummingbird.swiftmodule' | grep -q .; then
    echo "test-integrations: without the trait the client built Hummingbird" >&2
    exit 1
fi
echo "without the trait: resolved $(grep -c '"identity"' "$client/Package.resolved") packages, none of Hummingbird or SwiftNIO; built"
rm -rf "$client/.build" "$client/Package.resolved"
CHAINTRACE_CLIENT_TRAITS=Hummingbird swift package --package-path "$client" resolve >/dev/null
for package in hummingbird swift-nio; do
    grep -q "\"$package\"" "$client/Package.resolved" || {
        echo "test-integrations: with the trait the client did not resolve $package" >&2
        exit 1
    }
done
echo "with the trait: resolved $(grep -c '"identity"' "$client/Package.resolved") packages, Hummingbird and SwiftNIO among them"
rm -rf "$client/.build" "$client/Package.resolved"

echo "== ChainTraceHummingbird's tests"
swift test --traits Hummingbird --scratch-path "$scratch" --filter ChainTraceHummingbirdTests "$@"

echo "== the Hummingbird sample under load"
SCRATCH="$scratch" Samples/HummingbirdServer/run-under-load.sh "$scratch/hummingbird-sample"
