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
        .library(name: "ChainTrace", targets: ["ChainTrace", "ChainTraceFormats"]),
        .executable(name: "VendingMachine", targets: ["VendingMachine"]),
    ],
    targets: [
        .target(name: "CChainTraceSupport"),
        .target(name: "ChainTrace", dependencies: ["CChainTraceSupport"], swiftSettings: upcomingFeatures),
        .target(name: "ChainTraceFormats", dependencies: ["ChainTrace"], swiftSettings: upcomingFeatures),
        .executableTarget(
            name: "VendingMachine",
            dependencies: ["ChainTrace", "ChainTraceFormats"],
            path: "Samples/VendingMachine",
            exclude: ["README.md", "coins.jsonl"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(name: "ChainTraceTests", dependencies: ["ChainTrace"], swiftSettings: upcomingFeatures),
        .testTarget(
            name: "SampleTests",
            dependencies: ["ChainTrace", "ChainTraceFormats"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "ChainTraceFormatsTests",
            dependencies: ["ChainTrace", "ChainTraceFormats"],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
