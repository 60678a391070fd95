// swift-tools-version: 6.2
import PackageDescription

// The gRPC sample (Samples/GRPCService: orders.Orders, its interceptors traced with `GRPCTracing.server`, its
// client's with `GRPCTracing.client`) built over grpc-swift's HTTP/2 transport instead of the in-process one: the
// server listens on 127.0.0.1 and the client calls it over a real connection. A package of its own so that the
// root's `swift test` never builds the transport (swift-nio-ssl and swift-crypto's BoringSSL: about five minutes
// here). The sample's sources are linked, not copied (its `ServerSampleSupport` compiled into the one module: a
// target of that name would clash with the root package's).
//
// Run it, with `chaintrace stats`, `render` and `report` on its logs and the sample's checks:
//     Examples/GRPCOverHTTP2/run.sh
let package = Package(
    name: "ChainTraceGRPCOverHTTP2Example",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ChainTrace", path: "../..", traits: ["GRPC"]),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.4.0"),
    ],
    targets: [
        .executableTarget(
            name: "GRPCServiceOverHTTP2",
            dependencies: [
                .product(name: "ChainTrace", package: "ChainTrace"),
                .product(name: "ChainTraceGRPC", package: "ChainTrace"),
                .product(name: "ChainTraceTraceLog", package: "ChainTrace"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCInProcessTransport", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
            ],
            // The sample's sources are compiled as the root package compiles them with its `GRPC` trait, and its
            // `run` serves over HTTP/2 (`CHAINTRACE_HTTP2`: `HTTP2Transport.swift`).
            swiftSettings: [.define("GRPC"), .define("CHAINTRACE_HTTP2")]
        ),
    ]
)
