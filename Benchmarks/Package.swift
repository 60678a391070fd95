// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so `swift test` at the top level never builds them.
// Run: swift run -c release --package-path Benchmarks chaintrace-benchmarks
//      swift run -c release --package-path Benchmarks chaintrace-cli-benchmarks
//      swift run -c release --package-path Benchmarks chaintrace-render-benchmarks
//      swift run -c release --package-path Benchmarks chaintrace-http-benchmarks
//      swift run -c release --package-path Benchmarks chaintrace-vapor-benchmarks
//      swift run -c release --package-path Benchmarks chaintrace-grpc-benchmarks
//      swift run -c release --package-path Benchmarks chaintrace-nio-benchmarks
let package = Package(
    name: "ChainTraceBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // The framework traits for the HTTP, Vapor, gRPC and NIO benchmarks; the others build none of them.
        .package(name: "ChainTrace", path: "../", traits: ["Hummingbird", "Vapor", "GRPC", "NIO"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .executableTarget(
            name: "chaintrace-benchmarks",
            dependencies: [
                .product(name: "ChainTrace", package: "ChainTrace"),
                .product(name: "ChainTraceTraceLog", package: "ChainTrace"),
                .product(name: "ChainTraceDistributedTracing", package: "ChainTrace"),
                .product(name: "ChainTraceLogging", package: "ChainTrace"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                "CBenchFloor",
            ],
            path: "Sources/ChainTraceBenchmarks"
        ),
        // What the framework benchmarks share: their environment and their table of slopes.
        .target(name: "SlopeBenchmarks", path: "Sources/SlopeBenchmarks"),
        // The floor row's hop: two counter reads and one store, in C so that nothing else is in it.
        .target(name: "CBenchFloor", path: "Sources/CBenchFloor"),
        .executableTarget(
            name: "chaintrace-cli-benchmarks",
            dependencies: [
                .product(name: "ChainTrace", package: "ChainTrace"),
                .product(name: "ChainTraceTraceLog", package: "ChainTrace"),
                .product(name: "ChainTraceDefinitions", package: "ChainTrace"),
                .product(name: "ChainTraceAnalysis", package: "ChainTrace"),
                .product(name: "ChainTraceReplay", package: "ChainTrace"),
            ],
            path: "Sources/CLIBenchmarks"
        ),
        .executableTarget(
            name: "chaintrace-render-benchmarks",
            dependencies: [
                .product(name: "ChainTrace", package: "ChainTrace"),
                .product(name: "ChainTraceGraphviz", package: "ChainTrace"),
            ],
            path: "Sources/RenderBenchmarks"
        ),
        .executableTarget(
            name: "chaintrace-http-benchmarks",
            dependencies: [
                "SlopeBenchmarks",
                .product(name: "ChainTrace", package: "ChainTrace"),
                .product(name: "ChainTraceHummingbird", package: "ChainTrace"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdRouter", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/HTTPBenchmarks"
        ),
        .executableTarget(
            name: "chaintrace-vapor-benchmarks",
            dependencies: [
                "SlopeBenchmarks",
                .product(name: "ChainTrace", package: "ChainTrace"),
                .product(name: "ChainTraceVapor", package: "ChainTrace"),
                .product(name: "Vapor", package: "vapor"),
            ],
            path: "Sources/VaporBenchmarks"
        ),
        .executableTarget(
            name: "chaintrace-grpc-benchmarks",
            dependencies: [
                "SlopeBenchmarks",
                .product(name: "ChainTrace", package: "ChainTrace"),
                .product(name: "ChainTraceGRPC", package: "ChainTrace"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
            ],
            path: "Sources/GRPCBenchmarks"
        ),
        .executableTarget(
            name: "chaintrace-nio-benchmarks",
            dependencies: [
                "SlopeBenchmarks",
                .product(name: "ChainTrace", package: "ChainTrace"),
                .product(name: "ChainTraceNIO", package: "ChainTrace"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Sources/NIOBenchmarks"
        ),
    ],
    swiftLanguageModes: [.v6]
)
