#!/usr/bin/env bash
# The framework integrations' checks, each with its package trait enabled (a plain `swift test` builds none of the
# frameworks):
#   1. a user's package (Tests/TraitClient) resolved without the traits resolves none of Hummingbird, Vapor, gRPC
#      or SwiftNIO, and builds; with one trait it resolves that framework and not the others;
#   2. ChainTraceHummingbird's, ChainTraceVapor's, ChainTraceGRPC's and ChainTraceNIO's tests, in process and live
#      on 127.0.0.1 (`swift test --traits Hummingbird,Vapor,GRPC,NIO`);
#   3. each server sample served on 127.0.0.1 under wrk for a few seconds, its log through `chaintrace stats`,
#      `render` and `report` (Samples/HummingbirdServer/run-under-load.sh, Samples/VaporServer/run-under-load.sh);
#      the SwiftNIO sample under wrk the same way (Samples/NIOServer/run-under-load.sh); the gRPC sample's 2 000
#      calls in process, its log through the same (Samples/GRPCService/run.sh).
#
#   Scripts/test-integrations.sh [swift test options…]
#
# Builds into .build with every trait, as the README's test command's `swift test --traits Hummingbird,Vapor,GRPC,NIO` does
# before it (so that here only the integrations' tests run, and the samples link): with no --scratch-path, as that
# command, since naming even its default makes SwiftPM rebuild everything, and with a fixed hash seed, as .ci/run
# sets for that command: SwiftPM 6.3 orders trait flags by its per-process seed, and a new order recompiles the
# package and Hummingbird (~280 s on 2 cores; swiftlang/swift-package-manager#10525). Needs wrk (apt-get install -y wrk).
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_DETERMINISTIC_HASHING=1
scratch=.build

echo "== a user's package without the framework traits, then with each"
client=Tests/TraitClient
# Each trait and the package of its framework, by its identity in Package.resolved. Hummingbird and Vapor are built
# on SwiftNIO, so only gRPC's trait must leave it out.
frameworks="Hummingbird:hummingbird Vapor:vapor GRPC:grpc-swift-2 NIO:swift-nio"
rm -rf "$client/.build" "$client/Package.resolved"
swift package --package-path "$client" resolve >/dev/null
if grep -q -E '"(hummingbird|vapor|grpc-swift-2|swift-nio)"' "$client/Package.resolved"; then
    echo "test-integrations: without the traits the client resolved Hummingbird, Vapor, gRPC or SwiftNIO:" >&2
    grep '"identity"' "$client/Package.resolved" >&2
    exit 1
fi
swift build --package-path "$client" --product TraitClient
if find "$client/.build" -name 'Hummingbird.swiftmodule' -o -name 'Vapor.swiftmodule' -o -name 'GRPCCore.swiftmodule' \
    -o -name 'NIOCore.swiftmodule' | grep -q .; then
    echo "test-integrations: without the traits the client built Hummingbird, Vapor, GRPCCore or NIOCore" >&2
    exit 1
fi
echo "without the traits: resolved $(grep -c '"identity"' "$client/Package.resolved") packages, none of Hummingbird, Vapor, gRPC or SwiftNIO; built"
for entry in $frameworks; do
    trait=${entry%%:*}
    framework=${entry#*:}
    rm -rf "$client/.build" "$client/Package.resolved"
    CHAINTRACE_CLIENT_TRAITS=$trait swift package --package-path "$client" resolve >/dev/null
    grep -q "\"$framework\"" "$client/Package.resolved" || {
        echo "test-integrations: with the $trait trait the client did not resolve $framework" >&2
        exit 1
    }
    others=""
    for other in $frameworks; do
        package=${other#*:}
        [ "$package" = "$framework" ] && continue
        [ "$package" = swift-nio ] && [ "$trait" != GRPC ] && continue
        if grep -q "\"$package\"" "$client/Package.resolved"; then
            echo "test-integrations: with the $trait trait alone the client resolved $package" >&2
            exit 1
        fi
        others="$others${others:+, }$package"
    done
    echo "with the $trait trait: resolved $(grep -c '"identity"' "$client/Package.resolved") packages, $framework among them, not $others"
done
rm -rf "$client/.build" "$client/Package.resolved"

# Every build below uses every trait, so that they share one build of SwiftNIO and of the package.
traits=Hummingbird,Vapor,GRPC,NIO

echo "== the integrations' tests: ChainTraceHummingbird, ChainTraceVapor, ChainTraceGRPC, ChainTraceNIO"
swift test --traits "$traits" \
    --filter 'ChainTraceHummingbirdTests|ChainTraceVaporTests|ChainTraceGRPCTests|ChainTraceNIOTests' "$@"

echo "== the Hummingbird sample under load"
TRAITS="$traits" SCRATCH="$scratch" Samples/HummingbirdServer/run-under-load.sh "$scratch/hummingbird-sample"

echo "== the Vapor sample under load"
TRAITS="$traits" SCRATCH="$scratch" Samples/VaporServer/run-under-load.sh "$scratch/vapor-sample"

echo "== the SwiftNIO sample under load"
TRAITS="$traits" SCRATCH="$scratch" Samples/NIOServer/run-under-load.sh "$scratch/nio-sample"

echo "== the gRPC sample"
TRAITS="$traits" SCRATCH="$scratch" Samples/GRPCService/run.sh "$scratch/grpc-sample"
