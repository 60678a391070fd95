// swift-tools-version: 6.1
// A user's package that depends on ChainTrace's root package: Scripts/test-integrations.sh resolves it without the
// framework traits (nothing of Hummingbird, Vapor, gRPC or SwiftNIO may be resolved, so none of it can be built) and
// with each (its framework and their dependencies are). CHAINTRACE_CLIENT_TRAITS=Hummingbird (or Vapor, GRPC, NIO,
// or several, comma-separated) selects them.
import Foundation
import PackageDescription

let traits = ProcessInfo.processInfo.environment["CHAINTRACE_CLIENT_TRAITS"].map { Set($0.split(separator: ",").map(String.init)) } ?? []
let package = Package(
    name: "TraitClient",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "ChainTrace", path: "../..", traits: Set(traits.map { PackageDescription.Package.Dependency.Trait(name: $0) }))
    ],
    targets: [
        .executableTarget(
            name: "TraitClient",
            dependencies: [
                .product(name: "ChainTrace", package: "ChainTrace"),
                .product(name: "ChainTraceHummingbird", package: "ChainTrace"),
                .product(name: "ChainTraceVapor", package: "ChainTrace"),
                .product(name: "ChainTraceGRPC", package: "ChainTrace"),
                .product(name: "ChainTraceNIO", package: "ChainTrace"),
            ]
        )
    ]
)
