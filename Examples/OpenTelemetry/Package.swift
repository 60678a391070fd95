// swift-tools-version: 6.2
import PackageDescription

// The vending-machine sample with its traces sent live to an OpenTelemetry collector by swift-otel, over
// OTLP/HTTP. A package of its own so that `swift test` at the top never builds swift-otel (about 7 minutes here).
//
// Run it against a real OTLP/HTTP receiver on loopback, checking every hop arrived as a span:
//     python3 Examples/OpenTelemetry/check-live-export.py
// Or against your own collector (default endpoint http://localhost:4318):
//     swift run --package-path Examples/OpenTelemetry VendingMachineOTel run
let package = Package(
    name: "ChainTraceOpenTelemetryExample",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ChainTrace", path: "../.."),
        // OTLP/HTTP only: the gRPC exporter's dependencies are not built.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "VendingMachineOTel",
            dependencies: [
                .product(name: "ChainTrace", package: "ChainTrace"),
                .product(name: "ChainTraceTraceLog", package: "ChainTrace"),
                .product(name: "ChainTraceDefinitions", package: "ChainTrace"),
                .product(name: "ChainTraceDistributedTracing", package: "ChainTrace"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
