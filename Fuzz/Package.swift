// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for every parser ChainTrace reads user files with. Their own package, so `swift test` at the
// top level never builds them; build and run them with Scripts/fuzz.sh (it passes -sanitize=fuzzer,address).
let fuzzTargetDependencies: [Target.Dependency] = [
    "FuzzSupport",
    .product(name: "ChainTrace", package: "ChainTrace"),
    .product(name: "ChainTraceTraceLog", package: "ChainTrace"),
    .product(name: "ChainTraceDefinitions", package: "ChainTrace"),
    .product(name: "ChainTraceAnalysis", package: "ChainTrace"),
    .product(name: "ChainTraceReplay", package: "ChainTrace"),
]

let package = Package(
    name: "ChainTraceFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ChainTrace", path: "../")
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"]),
        .executableTarget(name: "fuzz-json", dependencies: fuzzTargetDependencies),
        .executableTarget(name: "fuzz-command-stream", dependencies: fuzzTargetDependencies),
        .executableTarget(name: "fuzz-definition", dependencies: fuzzTargetDependencies),
        .executableTarget(name: "fuzz-trace-log", dependencies: fuzzTargetDependencies),
    ]
)
