// swift-tools-version: 6.1
import PackageDescription

let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ChainTrace",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        // One library product per module a user imports.
        .library(name: "ChainTrace", targets: ["ChainTrace"]),
        .library(name: "ChainTraceTraceLog", targets: ["ChainTraceTraceLog"]),
        .library(name: "ChainTraceDefinitions", targets: ["ChainTraceDefinitions"]),
        .library(name: "ChainTraceAnalysis", targets: ["ChainTraceAnalysis"]),
        .library(name: "ChainTraceReplay", targets: ["ChainTraceReplay"]),
        .library(name: "ChainTraceTesting", targets: ["ChainTraceTesting"]),
        .library(name: "ChainTraceDistributedTracing", targets: ["ChainTraceDistributedTracing"]),
        .library(name: "ChainTraceLogging", targets: ["ChainTraceLogging"]),
        .library(name: "ChainTraceGraphviz", targets: ["ChainTraceGraphviz"]),
        .library(name: "ChainTraceReport", targets: ["ChainTraceReport"]),
        // Framework integrations: each builds its framework only when its trait is enabled.
        .library(name: "ChainTraceHummingbird", targets: ["ChainTraceHummingbird"]),
        .executable(name: "chaintrace", targets: ["chaintrace"]),
        .executable(name: "VendingMachine", targets: ["VendingMachine"]),
        .executable(name: "SignUpFlow", targets: ["SignUpFlow"]),
        .executable(name: "ResponderChain", targets: ["ResponderChain"]),
        .executable(name: "LateResponders", targets: ["LateResponders"]),
        .library(name: "ChainTraceVapor", targets: ["ChainTraceVapor"]),
        .executable(name: "HummingbirdServer", targets: ["HummingbirdServer"]),
        .executable(name: "VaporServer", targets: ["VaporServer"]),
        .library(name: "ChainTraceGRPC", targets: ["ChainTraceGRPC"]),
        .library(name: "ChainTraceNIO", targets: ["ChainTraceNIO"]),
        .executable(name: "GRPCService", targets: ["GRPCService"]),
    ],
    traits: [
        .trait(
            name: "Hummingbird",
            description: "ChainTraceHummingbird: traces Hummingbird 2 routers' middleware and endpoints (builds Hummingbird)"),
        .trait(
            name: "Vapor",
            description: "ChainTraceVapor: traces Vapor 4 applications' middleware, route groups and endpoints (builds Vapor)"),
        .trait(
            name: "GRPC",
            description: "ChainTraceGRPC: traces grpc-swift 2 servers' and clients' interceptors and handlers (builds GRPCCore and Tracing)"),
        .trait(
            name: "NIO",
            description: "ChainTraceNIO: traces every event through a SwiftNIO channel pipeline's handlers (builds NIOCore)"),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Built only for the `Hummingbird` trait.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Built only for the `Vapor` trait.
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        // Built only for the `GRPC` trait.
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        // Built only for the `NIO` trait's tests (LineBasedFrameDecoder).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // `swift package generate-documentation` for the DocC catalogues; a plugin, never built by `swift test`.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "CChainTraceSupport"),
        // The tricks that exist only for speed (unchecked exclusivity, unretained references, per-thread objects),
        // in one internal target behind a `package` interface; no product.
        .target(name: "ChainTraceFastPath", dependencies: ["CChainTraceSupport"], swiftSettings: upcomingFeatures),
        // JSON values, parsing and writing: below the core, whose traces carry JSON payloads. No product: its
        // one public type, `JSONValue`, reaches users through `ChainTrace`.
        .target(name: "ChainTraceJSON", dependencies: ["CChainTraceSupport", "ChainTraceFastPath"], swiftSettings: upcomingFeatures),
        // Files: descriptors, atomic output, line reading, gzip, and the error a file in one of our formats gives.
        .target(
            name: "ChainTraceFiles", dependencies: ["CChainTraceSupport", "ChainTraceFastPath", "ChainTraceJSON", "CZlib"],
            swiftSettings: upcomingFeatures),
        .target(
            name: "ChainTrace", dependencies: ["CChainTraceSupport", "ChainTraceFastPath", "ChainTraceJSON"],
            swiftSettings: upcomingFeatures),
        .target(
            name: "ChainTraceTraceLog",
            dependencies: ["ChainTrace", "ChainTraceFastPath", "ChainTraceJSON", "ChainTraceFiles"],
            swiftSettings: upcomingFeatures),
        .target(
            name: "ChainTraceDefinitions",
            dependencies: ["ChainTrace", "ChainTraceFastPath", "ChainTraceJSON", "ChainTraceFiles"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "ChainTraceAnalysis",
            dependencies: [
                "ChainTrace", "ChainTraceFastPath", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog",
                "ChainTraceDefinitions", .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // Replaying command streams and recorded logs through a chain definition, and the streams themselves.
        .target(
            name: "ChainTraceReplay",
            dependencies: [
                "ChainTrace", "ChainTraceFastPath", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog",
                "ChainTraceDefinitions", "ChainTraceAnalysis",
            ],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "ChainTraceDistributedTracing",
            dependencies: ["ChainTrace", "ChainTraceFastPath", .product(name: "Tracing", package: "swift-distributed-tracing")],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "ChainTraceLogging",
            dependencies: ["ChainTrace", .product(name: "Logging", package: "swift-log")],
            swiftSettings: upcomingFeatures
        ),
        // What the server samples share: their command line.
        .target(
            name: "ServerSampleSupport", dependencies: ["ChainTrace"], path: "Samples/ServerSampleSupport",
            swiftSettings: upcomingFeatures),
        // The sample API; it says how to build it unless the `Hummingbird` trait is enabled.
        .executableTarget(
            name: "HummingbirdServer",
            dependencies: [
                "ChainTrace", "ChainTraceHummingbird", "ChainTraceTraceLog", "ServerSampleSupport",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Hummingbird"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Hummingbird"])),
            ],
            path: "Samples/HummingbirdServer",
            exclude: ["README.md", "run-under-load.sh", "compare-under-load.sh", "orders.lua"],
            swiftSettings: upcomingFeatures),
        // Empty unless the `Hummingbird` trait is enabled.
        .target(
            name: "ChainTraceHummingbird",
            dependencies: [
                "ChainTrace",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HummingbirdRouter", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Hummingbird"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Hummingbird"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Hummingbird"])),
                .target(name: "ChainTraceDistributedTracing", condition: .when(traits: ["Hummingbird"])),
            ],
            swiftSettings: upcomingFeatures),
        // The sample Vapor API; it says how to build it unless the `Vapor` trait is enabled.
        .executableTarget(
            name: "VaporServer",
            dependencies: [
                "ChainTrace", "ChainTraceVapor", "ChainTraceTraceLog", "ServerSampleSupport",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
            ],
            path: "Samples/VaporServer",
            exclude: ["README.md", "run-under-load.sh"],
            swiftSettings: upcomingFeatures),
        // Empty unless the `Vapor` trait is enabled.
        .target(
            name: "ChainTraceVapor",
            dependencies: [
                "ChainTrace",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Vapor"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Vapor"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Vapor"])),
                .target(name: "ChainTraceDistributedTracing", condition: .when(traits: ["Vapor"])),
            ],
            swiftSettings: upcomingFeatures),
        // The sample gRPC service; it says how to build it unless the `GRPC` trait is enabled.
        .executableTarget(
            name: "GRPCService",
            dependencies: [
                "ChainTrace", "ChainTraceGRPC", "ChainTraceTraceLog", "ServerSampleSupport",
                .product(name: "GRPCCore", package: "grpc-swift-2", condition: .when(traits: ["GRPC"])),
                .product(
                    name: "GRPCInProcessTransport", package: "grpc-swift-2", condition: .when(traits: ["GRPC"])),
            ],
            path: "Samples/GRPCService",
            exclude: ["README.md", "run.sh", "check-run.py"],
            swiftSettings: upcomingFeatures),
        // The sample SwiftNIO HTTP server; it says how to build it unless the `NIO` trait is enabled.
        .executableTarget(
            name: "NIOServer",
            dependencies: [
                "ChainTrace", "ChainTraceNIO", "ChainTraceTraceLog", "ServerSampleSupport",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["NIO"])),
            ],
            path: "Samples/NIOServer",
            exclude: ["README.md", "run-under-load.sh", "compare-under-load.sh"],
            swiftSettings: upcomingFeatures),
        // Empty unless the `NIO` trait is enabled.
        .target(
            name: "ChainTraceNIO",
            dependencies: [
                "ChainTrace", "ChainTraceFastPath",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
            ],
            swiftSettings: upcomingFeatures),
        // Empty unless the `GRPC` trait is enabled.
        .target(
            name: "ChainTraceGRPC",
            dependencies: [
                "ChainTrace", "ChainTraceFastPath",
                .product(name: "GRPCCore", package: "grpc-swift-2", condition: .when(traits: ["GRPC"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["GRPC"])),
                .target(name: "ChainTraceDistributedTracing", condition: .when(traits: ["GRPC"])),
            ],
            swiftSettings: upcomingFeatures),
        // zlib, for trace logs compressed with gzip (on every Linux and Apple machine).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]
        ),
        .target(
            name: "ChainTraceGraphviz",
            dependencies: [
                "ChainTrace", "ChainTraceFastPath", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog",
                "ChainTraceDefinitions", "ChainTraceAnalysis", "CGraphviz",
            ],
            swiftSettings: upcomingFeatures
        ),
        // `chaintrace report`: a trace log explored in one self-contained HTML page.
        .target(
            name: "ChainTraceReport",
            dependencies: [
                "ChainTrace", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog", "ChainTraceAnalysis", "ChainTraceGraphviz",
            ],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "ChainTraceTesting",
            dependencies: ["ChainTrace", "ChainTraceJSON", "ChainTraceDefinitions"],
            swiftSettings: upcomingFeatures
        ),
        // Writes Swift Testing files that call ChainTraceTesting (`chaintrace gen-tests`); no product, the CLI's.
        .target(name: "ChainTraceTestGeneration", dependencies: ["ChainTrace", "ChainTraceJSON"], swiftSettings: upcomingFeatures),
        .target(
            name: "ChainTraceCLI",
            dependencies: [
                "CChainTraceSupport", "ChainTrace", "ChainTraceFastPath", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog",
                "ChainTraceDefinitions", "ChainTraceAnalysis", "ChainTraceReplay", "ChainTraceGraphviz", "ChainTraceReport",
                "ChainTraceTestGeneration",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(name: "chaintrace", dependencies: ["ChainTraceCLI"], swiftSettings: upcomingFeatures),
        // A program the tests kill with SIGKILL while it writes a trace log (BackgroundTraceLogSinkTests); no product.
        .executableTarget(
            name: "chaintrace-log-kill-probe",
            dependencies: ["ChainTrace", "ChainTraceTraceLog"],
            path: "Tests/Probes/LogKillProbe",
            swiftSettings: upcomingFeatures
        ),
        // A program that records traces and ends without closing its log (OpenTraceLogSinkTests); no product.
        .executableTarget(
            name: "chaintrace-log-exit-probe",
            dependencies: ["ChainTrace", "ChainTraceTraceLog"],
            path: "Tests/Probes/LogExitProbe",
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "SampleSupport",
            dependencies: [
                "ChainTrace", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog", "ChainTraceDefinitions", "ChainTraceAnalysis",
                "ChainTraceReplay", "ChainTraceGraphviz", "ChainTraceReport",
            ],
            path: "Samples/SampleSupport",
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "VendingMachine",
            dependencies: ["ChainTrace", "ChainTraceJSON", "ChainTraceTraceLog", "ChainTraceDefinitions", "SampleSupport"],
            path: "Samples/VendingMachine",
            exclude: ["README.md", "coins.jsonl", "vending-machine.chain.json"],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "SignUpFlow",
            dependencies: ["ChainTrace", "ChainTraceTraceLog", "ChainTraceDefinitions", "ChainTraceAnalysis", "SampleSupport"],
            path: "Samples/SignUpFlow",
            exclude: ["README.md", "signups.jsonl", "sign-up.chain.json"],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "ResponderChain",
            dependencies: ["ChainTrace", "ChainTraceTraceLog", "ChainTraceDefinitions", "ChainTraceAnalysis", "ChainTraceGraphviz", "SampleSupport"],
            path: "Samples/ResponderChain",
            exclude: ["README.md", "commands.jsonl", "app-a.chain.json", "app-b.chain.json", "app-c.chain.json"],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "LateResponders",
            dependencies: ["ChainTrace", "ChainTraceTraceLog", "ChainTraceDefinitions", "SampleSupport"],
            path: "Samples/LateResponders",
            exclude: ["README.md", "late-responders.chain.json", "late-responders.commands.jsonl"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "ChainTraceTestSupport",
            dependencies: [
                "ChainTrace", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            path: "Tests/ChainTraceTestSupport", swiftSettings: upcomingFeatures),
        // One test target per source target, each depending on its module and those below it.
        .testTarget(
            name: "ChainTraceFastPathTests", dependencies: ["ChainTraceFastPath", "ChainTraceJSON", "ChainTraceTestSupport"],
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "ChainTraceJSONTests", dependencies: ["ChainTraceJSON", "ChainTraceFastPath", "ChainTraceTestSupport"],
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "ChainTraceFilesTests", dependencies: ["ChainTraceFiles", "ChainTraceJSON", "ChainTraceTestSupport"],
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "ChainTraceTests",
            dependencies: [
                "CChainTraceSupport", "ChainTrace", "ChainTraceFastPath", "ChainTraceJSON", "ChainTraceTesting",
                "ChainTraceTestSupport",
            ],
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "ChainTraceTraceLogTests",
            dependencies: [
                "ChainTrace", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceFastPath", "ChainTraceTraceLog", "ChainTraceTesting",
                "ChainTraceTestSupport",
            ],
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "ChainTraceDefinitionsTests",
            dependencies: [
                "ChainTrace", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceDefinitions", "ChainTraceTraceLog", "ChainTraceTesting",
                "ChainTraceTestSupport",
            ],
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "ChainTraceAnalysisTests",
            dependencies: [
                "ChainTrace", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog", "ChainTraceDefinitions", "ChainTraceAnalysis",
                "ChainTraceTestSupport", .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "ChainTraceReplayTests",
            dependencies: [
                "ChainTrace", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceFastPath", "ChainTraceTraceLog", "ChainTraceDefinitions",
                "ChainTraceAnalysis", "ChainTraceReplay", "ChainTraceTestGeneration", "ChainTraceTestSupport",
            ],
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "ChainTraceTestingTests",
            dependencies: [
                "ChainTrace", "ChainTraceJSON", "ChainTraceTraceLog", "ChainTraceDefinitions", "ChainTraceTesting", "ChainTraceTestSupport",
            ],
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "ChainTraceTestGenerationTests",
            dependencies: [
                "ChainTrace", "ChainTraceJSON", "ChainTraceTraceLog", "ChainTraceDefinitions", "ChainTraceReplay",
                "ChainTraceTestGeneration", "ChainTraceTestSupport",
            ],
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "ChainTraceDistributedTracingTests",
            dependencies: [
                "ChainTrace", "ChainTraceDistributedTracing", "ChainTraceTestSupport",
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "ChainTraceHummingbirdTests",
            dependencies: [
                "ChainTraceHummingbird", "ChainTrace", "ChainTraceTesting", "ChainTraceTestSupport", "ChainTraceTraceLog",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HummingbirdRouter", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                "ChainTraceDistributedTracing",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
            // Default Swift 6 settings, no upcoming features: the integration is used as an app writes it.
        ),
        .testTarget(
            name: "ChainTraceVaporTests",
            dependencies: [
                "ChainTraceVapor", "ChainTrace", "ChainTraceTesting", "ChainTraceTestSupport", "ChainTraceTraceLog",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
                .product(name: "VaporTesting", package: "vapor", condition: .when(traits: ["Vapor"])),
                "ChainTraceDistributedTracing",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
            // Default Swift 6 settings, no upcoming features: the integration is used as an app writes it.
        ),
        .testTarget(
            name: "ChainTraceNIOTests",
            dependencies: [
                "ChainTraceNIO", "ChainTrace", "ChainTraceTesting", "ChainTraceTestSupport",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOExtras", package: "swift-nio-extras", condition: .when(traits: ["NIO"])),
            ]
            // Default Swift 6 settings, no upcoming features: the integration is used as an app writes it.
        ),
        .testTarget(
            name: "ChainTraceGRPCTests",
            dependencies: [
                "ChainTraceGRPC", "ChainTrace", "ChainTraceTesting", "ChainTraceTestSupport", "ChainTraceTraceLog",
                "ChainTraceDistributedTracing",
                .product(name: "GRPCCore", package: "grpc-swift-2", condition: .when(traits: ["GRPC"])),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(
                    name: "GRPCInProcessTransport", package: "grpc-swift-2", condition: .when(traits: ["GRPC"])),
            ]
            // Default Swift 6 settings, no upcoming features: the integration is used as an app writes it.
        ),
        .testTarget(
            name: "ChainTraceLoggingTests",
            dependencies: [
                "ChainTrace", "ChainTraceJSON", "ChainTraceLogging", "ChainTraceTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "ChainTraceGraphvizTests",
            dependencies: [
                "ChainTrace", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog", "ChainTraceDefinitions", "ChainTraceAnalysis",
                "ChainTraceReplay", "ChainTraceGraphviz", "ChainTraceTestSupport", "CGraphviz",
            ],
            exclude: ["Golden"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "ChainTraceReportTests",
            dependencies: [
                "ChainTrace", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog", "ChainTraceAnalysis", "ChainTraceGraphviz",
                "ChainTraceReport", "ChainTraceTestSupport",
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "ChainTraceCLITests",
            dependencies: [
                "ChainTrace", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog", "ChainTraceDefinitions", "ChainTraceAnalysis",
                "ChainTraceReplay", "ChainTraceTestSupport",
            ],
            exclude: ["Fixtures"],
            swiftSettings: upcomingFeatures
        ),
        // The samples run as users run them, and every Swift block of the docs compiled and run.
        .testTarget(
            name: "SampleTests",
            dependencies: [
                "ChainTrace", "ChainTraceAnalysis", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog", "ChainTraceDefinitions",
                "ChainTraceReplay", "ChainTraceTesting", "ChainTraceTestSupport", "ChainTraceDistributedTracing", "ChainTraceLogging",
                "ChainTraceGraphviz", "ChainTraceReport", .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // What `chaintrace gen-tests` wrote for the vending machine's recorded log, compiled and run as written.
        .testTarget(
            name: "GeneratedTests",
            dependencies: ["ChainTrace", "ChainTraceJSON", "ChainTraceTraceLog", "ChainTraceDefinitions", "ChainTraceTesting"],
            exclude: ["vending-machine.traces.jsonl"],
            swiftSettings: upcomingFeatures
        ),
        // Users' own chain shapes — plain non-Sendable classes, sync and async — around every public entry point
        // they wrap code in, compiled as users compile them: Swift 6 mode with no upcoming feature (no settings).
        .testTarget(name: "UserShapeTests", dependencies: ["ChainTrace", "ChainTraceTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
