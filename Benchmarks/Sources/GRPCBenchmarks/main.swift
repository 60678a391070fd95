// What tracing costs a grpc-swift 2 server's interceptors, in process: a unary RPC through 0, 1, 4 or 16 empty
// interceptors to a handler, run as gRPC's server executor runs them (each interceptor handed the rest as `next`, a
// throw between two of them turned into a refused response) and its one-message response produced into a writer that
// discards it — for the interceptors as given, for `GRPCTracing.server` with no recorder in force, and for
// `GRPCTracing.server` tracing every RPC into a 10 000-trace ring — and the same two for the interceptors given as an
// `interceptorPipeline` (`GRPCTracing.server(pipeline:)`, each applying to every method); interleaved, best round of
// each, ratios in one run. The slope between 0 and 16 interceptors is the cost of one interceptor hop. Release build
// only.
//
//   swift run -c release --package-path Benchmarks chaintrace-grpc-benchmarks
//
// Environment: CHAINTRACE_BENCH_REQUESTS (RPCs a round, default 200000), CHAINTRACE_BENCH_REPEATS (rounds,
// default 5), CHAINTRACE_BENCH_ONLY=VARIANT:COUNT (untraced, off, traced, pipeline-off or pipeline-traced, with COUNT
// interceptors, one round alone, for counting its instructions: Scripts/check-instruction-budgets.py).

import ChainTrace
import ChainTraceGRPC
import Foundation
import GRPCCore
import SlopeBenchmarks

/// Passes every RPC on.
struct EmptyInterceptor: ServerInterceptor {
    func intercept<Input: Sendable, Output: Sendable>(
        request: StreamingServerRequest<Input>,
        context: ServerContext,
        next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
    ) async throws -> StreamingServerResponse<Output> {
        try await next(request, context)
    }
}

/// Writes messages nowhere.
struct DiscardingWriter: RPCWriterProtocol {
    func write(_: String) async throws {}
    func write(contentsOf _: some Sequence<String>) async throws {}
}

/// `request` through `interceptors` to `handler`, as gRPC's `ServerRPCExecutor._intercept` runs them.
func intercept(
    _ request: StreamingServerRequest<String>,
    _ context: ServerContext,
    _ interceptors: ArraySlice<any ServerInterceptor>,
    handler:
        @escaping @Sendable (StreamingServerRequest<String>, ServerContext) async throws ->
        StreamingServerResponse<String>
) async throws -> StreamingServerResponse<String> {
    guard let interceptor = interceptors.first else { return try await handler(request, context) }
    let rest = interceptors.dropFirst()
    do {
        return try await interceptor.intercept(request: request, context: context) {
            try await intercept($0, $1, rest, handler: handler)
        }
    } catch let error as RPCError {
        return StreamingServerResponse(error: error)
    } catch {
        return StreamingServerResponse(error: RPCError(code: .unknown, message: "", cause: error))
    }
}

let requests = environmentInt("CHAINTRACE_BENCH_REQUESTS", 200_000)
let repeats = environmentInt("CHAINTRACE_BENCH_REPEATS", 5)

/// How the interceptors are given in one variant.
enum Variant: String, CaseIterable {
    case untraced = "interceptors as given (untraced)"
    case off = "GRPCTracing.server, no recorder in force"
    case traced = "GRPCTracing.server, traced into memory"
    case pipelineOff = "GRPCTracing.server(pipeline:), no recorder in force"
    case pipelineTraced = "GRPCTracing.server(pipeline:), traced into memory"

    /// Whether it runs with a recorder in force.
    var isTraced: Bool { self == .traced || self == .pipelineTraced }
}

func interceptors(_ variant: Variant, count: Int) -> [any ServerInterceptor] {
    let plain: [any ServerInterceptor] = Array(repeating: EmptyInterceptor(), count: count)
    switch variant {
    case .untraced: return plain
    case .off, .traced: return GRPCTracing.server(plain)
    case .pipelineOff, .pipelineTraced:
        // Every interceptor applies to every method, so the RPC goes through all of them, as gRPC's server picks
        // them for a method from `interceptorPipeline` (`ConditionalInterceptor.applies(to:)` is gRPC's own).
        return GRPCTracing.server(pipeline: plain.map { .apply($0, to: .all) }).map(\.interceptor)
    }
}

/// Nanoseconds an RPC through `chain`, `requests` of them.
func measure(_ chain: [any ServerInterceptor], recorder: Recorder?) async throws -> Double {
    let method = MethodDescriptor(fullyQualifiedService: "bench.Bench", method: "Get")
    let request = StreamingServerRequest(single: ServerRequest(metadata: [:], message: "hi"))
    let context = ServerContext(
        descriptor: method,
        remotePeer: "in-process",
        localPeer: "in-process",
        cancellation: ServerContext.RPCCancellationHandle()
    )
    let writer = RPCWriter(wrapping: DiscardingWriter())
    let handler:
        @Sendable (StreamingServerRequest<String>, ServerContext) async throws -> StreamingServerResponse<
            String
        > = { _, _ in StreamingServerResponse(single: ServerResponse(message: "ok")) }
    let links = chain[...]
    func run() async throws -> Double {
        let start = ContinuousClock.now
        for _ in 0..<requests {
            let response = try await intercept(request, context, links, handler: handler)
            if case .success(let contents) = response.accepted { _ = try await contents.producer(writer) }
        }
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    }
    let total: Double
    if let recorder {
        total = try await ChainTracing.withRecorder(recorder) { try await run() }
    } else {
        total = try await run()
    }
    return total / Double(requests)
}

let ring = InMemoryTraceSink(limit: 10_000)
let singleRunVariants: [String: Variant] = [
    "untraced": .untraced, "off": .off, "traced": .traced, "pipeline-off": .pipelineOff,
    "pipeline-traced": .pipelineTraced,
]
if let (variant, count) = singleRun(of: singleRunVariants) {
    _ = try runBlocking {
        try await measure(interceptors(variant, count: count), recorder: variant.isTraced ? Recorder(sink: ring) : nil)
    }
    exit(0)
}

/// Every round, interleaved (run from ``runBlocking(_:)``, so that valgrind can count its instructions).
func runRounds() async throws -> SlopeTable {
    var table = SlopeTable(variants: Variant.allCases.map(\.rawValue))
    for _ in 0..<repeats {
        for count in table.counts {
            for variant in Variant.allCases {
                let nanoseconds = try await measure(
                    interceptors(variant, count: count),
                    recorder: variant.isTraced ? Recorder(sink: ring) : nil
                )
                table.record(variant.rawValue, count: count, nanoseconds: nanoseconds)
            }
        }
    }
    return table
}
let table = try runBlocking { try await runRounds() }

table.print(
    title: "gRPC server interceptors, in process — \(requests) RPCs a round, best of \(repeats) interleaved rounds, ns",
    firstColumn: "chain",
    links: "interceptors",
    hop: "an interceptor hop"
)
table.printSummary(
    hop: "an interceptor hop",
    command: "an RPC",
    links: "interceptors",
    untraced: Variant.untraced.rawValue,
    off: Variant.off.rawValue,
    traced: Variant.traced.rawValue
)
table.printSummary(
    hop: "a pipeline interceptor hop",
    command: "a pipeline's RPC",
    links: "interceptors",
    untraced: Variant.untraced.rawValue,
    off: Variant.pipelineOff.rawValue,
    traced: Variant.pipelineTraced.rawValue
)
