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
        .library(name: "ChainTrace", targets: ["ChainTrace", "ChainTraceFormats", "ChainTraceAnalysis"]),
        .library(name: "ChainTraceTesting", targets: ["ChainTraceTesting"]),
        .library(name: "ChainTraceTracing", targets: ["ChainTraceTracing"]),
        .library(name: "ChainTraceLogging", targets: ["ChainTraceLogging"]),
        .library(name: "ChainTraceGraphviz", targets: ["ChainTraceGraphviz"]),
        .executable(name: "chaintrace", targets: ["chaintrace"]),
        .executable(name: "VendingMachine", targets: ["VendingMachine"]),
        .executable(name: "SignUpFlow", targets: ["SignUpFlow"]),
        .executable(name: "ResponderChain", targets: ["ResponderChain"]),
        .executable(name: "LateResponders", targets: ["LateResponders"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation` for the DocC catalogues; a plugin, never built by `swift test`.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "CChainTraceSupport"),
        .target(name: "ChainTrace", dependencies: ["CChainTraceSupport"], swiftSettings: upcomingFeatures),
        .target(name: "ChainTraceFormats", dependencies: ["ChainTrace"], swiftSettings: upcomingFeatures),
        .target(
            name: "ChainTraceAnalysis",
            dependencies: ["ChainTrace", "ChainTraceFormats", .product(name: "Histogram", package: "hdrhistogram-swift")],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "ChainTraceTracing",
            dependencies: ["ChainTrace", .product(name: "Tracing", package: "swift-distributed-tracing")],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "ChainTraceLogging",
            dependencies: ["ChainTrace", .product(name: "Logging", package: "swift-log")],
            swiftSettings: upcomingFeatures
        ),
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]
        ),
        .target(
            name: "ChainTraceGraphviz",
            dependencies: ["ChainTrace", "ChainTraceFormats", "ChainTraceAnalysis", "CGraphviz"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "ChainTraceTesting",
            dependencies: ["ChainTrace", "ChainTraceFormats", "ChainTraceAnalysis"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "ChainTraceCLI",
            dependencies: [
                "ChainTrace", "ChainTraceFormats", "ChainTraceAnalysis", "ChainTraceGraphviz",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(name: "chaintrace", dependencies: ["ChainTraceCLI"], swiftSettings: upcomingFeatures),
        .target(
            name: "SampleSupport",
            dependencies: ["ChainTrace", "ChainTraceFormats", "ChainTraceAnalysis", "ChainTraceGraphviz"],
            path: "Samples/SampleSupport",
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "VendingMachine",
            dependencies: ["ChainTrace", "ChainTraceFormats", "SampleSupport"],
            path: "Samples/VendingMachine",
            exclude: ["README.md", "coins.jsonl", "vending-machine.chain.json"],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "SignUpFlow",
            dependencies: ["ChainTrace", "ChainTraceFormats", "ChainTraceAnalysis", "SampleSupport"],
            path: "Samples/SignUpFlow",
            exclude: ["README.md", "signups.jsonl", "sign-up.chain.json"],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "ResponderChain",
            dependencies: ["ChainTrace", "ChainTraceFormats", "ChainTraceAnalysis", "ChainTraceGraphviz", "SampleSupport"],
            path: "Samples/ResponderChain",
            exclude: ["README.md", "commands.jsonl", "app-a.chain.json", "app-b.chain.json", "app-c.chain.json"],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "LateResponders",
            dependencies: ["ChainTrace", "ChainTraceFormats", "SampleSupport"],
            path: "Samples/LateResponders",
            exclude: ["README.md", "late-responders.chain.json", "late-responders.commands.jsonl"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "ChainTraceTestSupport", dependencies: ["ChainTrace"], path: "Tests/ChainTraceTestSupport",
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "ChainTraceTests", dependencies: ["ChainTrace", "ChainTraceTesting", "ChainTraceTestSupport"],
            swiftSettings: upcomingFeatures),
        .testTarget(
            name: "SampleTests",
            dependencies: [
                "ChainTrace", "ChainTraceFormats", "ChainTraceTesting", "ChainTraceTestSupport", "ChainTraceTracing",
                "ChainTraceLogging", "ChainTraceGraphviz", .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "ChainTraceFormatsTests",
            dependencies: ["ChainTrace", "ChainTraceFormats", "ChainTraceTesting", "ChainTraceTestSupport"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "ChainTraceAnalysisTests",
            dependencies: [
                "ChainTrace", "ChainTraceFormats", "ChainTraceAnalysis", "ChainTraceTestSupport",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "ChainTraceTestingTests",
            dependencies: ["ChainTrace", "ChainTraceFormats", "ChainTraceTesting", "ChainTraceTestSupport"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "ChainTraceIntegrationTests",
            dependencies: [
                "ChainTrace", "ChainTraceFormats", "ChainTraceTracing", "ChainTraceLogging", "ChainTraceTestSupport",
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "GeneratedTests",
            dependencies: ["ChainTrace", "ChainTraceFormats", "ChainTraceTesting"],
            exclude: ["vending-machine.traces.jsonl"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "ChainTraceGraphvizTests",
            dependencies: [
                "ChainTrace", "ChainTraceFormats", "ChainTraceAnalysis", "ChainTraceGraphviz", "ChainTraceTestSupport", "CGraphviz",
            ],
            exclude: ["Golden"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "ChainTraceCLITests",
            dependencies: ["ChainTrace", "ChainTraceFormats", "ChainTraceAnalysis", "ChainTraceTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
