// What tracing costs a Hummingbird app's middleware, in process: the shape of Hummingbird's own "Router:Middleware"
// benchmark (an app of 0, 1, 4 or 16 empty middleware and one endpoint, its responder called directly, the response
// body written to nowhere), for a plain `Router`, a `TracingRouter` with no recorder in force, and a `TracingRouter`
// tracing every request into a 10 000-trace ring — interleaved, best round of each, ratios in one run. The slope
// between 0 and 16 middleware is the cost of one middleware hop. A second table does the same for an app built with
// HummingbirdRouter's result builder (`RouterBuilder`, and `RouterBuilder.traced()`). Release build only.
//
//   swift run -c release --package-path Benchmarks chaintrace-http-benchmarks
//
// Environment: CHAINTRACE_BENCH_REQUESTS (requests a round, default 200000), CHAINTRACE_BENCH_REPEATS (rounds,
// default 5), CHAINTRACE_BENCH_ONLY=VARIANT:COUNT (one app alone, for counting its instructions under callgrind:
// VARIANT is untraced, off or traced, or builder-untraced, builder-off or builder-traced).

import ChainTrace
import ChainTraceHummingbird
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdRouter
import Logging
import NIOCore
import SlopeBenchmarks

/// A request context that needs no channel, as Hummingbird's benchmarks make it; a `RouterBuilder`'s too.
struct BenchmarkContext: RequestContext, RouterRequestContext {
    typealias Source = BenchmarkContextSource
    var coreContext: CoreRequestContextStorage
    var routerContext = RouterBuilderContext()
    init(source: Source) { coreContext = CoreRequestContextStorage(source: source) }
}

/// The context's source: a logger.
struct BenchmarkContextSource: RequestContextSource {
    let logger = Logger(label: "benchmark")
}

/// Writes a response body nowhere.
struct DiscardingBodyWriter: ResponseBodyWriter {
    func write(_: ByteBuffer) async throws {}
    func finish(_: HTTPFields?) async throws {}
}

/// Passes every request on: the middleware of Hummingbird's benchmark.
struct EmptyMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        try await next(request, context)
    }
}

let requests = environmentInt("CHAINTRACE_BENCH_REQUESTS", 200_000)
let repeats = environmentInt("CHAINTRACE_BENCH_REPEATS", 5)
let body = ByteBufferAllocator().buffer(string: "ok")

/// How an app is built and run in one variant.
enum Variant: String, CaseIterable {
    case untraced = "Router (untraced)"
    case off = "TracingRouter, no recorder in force"
    case traced = "TracingRouter, traced into memory"
    case builderUntraced = "RouterBuilder (untraced)"
    case builderOff = "RouterBuilder.traced(), no recorder in force"
    case builderTraced = "RouterBuilder.traced(), traced into memory"

    /// The variants of one table: `Router`'s, or `RouterBuilder`'s.
    static let tables: [[Variant]] = [[.untraced, .off, .traced], [.builderUntraced, .builderOff, .builderTraced]]

    var isTraced: Bool { self == .traced || self == .builderTraced }
}

/// The app's responder for `variant` with `middlewareCount` empty middleware.
func makeResponder(_ variant: Variant, middlewareCount: Int) -> any HTTPResponder<BenchmarkContext> {
    switch variant {
    case .untraced:
        let router = Router(context: BenchmarkContext.self)
        for _ in 0..<middlewareCount { router.add(middleware: EmptyMiddleware()) }
        router.get { _, _ in body }
        return router.buildResponder()
    case .off, .traced:
        let router = TracingRouter(context: BenchmarkContext.self)
        for _ in 0..<middlewareCount { router.add(middleware: EmptyMiddleware()) }
        router.get { _, _ in body }
        return router.buildResponder()
    case .builderUntraced, .builderOff, .builderTraced:
        let router = RouterBuilder(context: BenchmarkContext.self) {
            for _ in 0..<middlewareCount { EmptyMiddleware() }
            Get { _, _ in body }
        }
        return variant == .builderUntraced ? router : router.traced()
    }
}

/// Nanoseconds a request through `responder`, `requests` of them.
func measure(_ responder: any HTTPResponder<BenchmarkContext>, recorder: Recorder?) async throws -> Double {
    let (requestBody, source) = RequestBody.makeStream()
    source.finish()
    let request = Request(
        head: .init(method: .get, scheme: "http", authority: "localhost", path: "/"),
        body: requestBody
    )
    let context = BenchmarkContext(source: BenchmarkContextSource())
    func run() async throws -> Double {
        let start = ContinuousClock.now
        for _ in 0..<requests {
            let response = try await responder.respond(to: request, context: context)
            try await response.body.write(DiscardingBodyWriter())
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

if let (variant, count) = singleRun(of: [
    "untraced": Variant.untraced, "off": .off, "traced": .traced, "builder-untraced": .builderUntraced,
    "builder-off": .builderOff, "builder-traced": .builderTraced,
]) {
    let ring = InMemoryTraceSink(limit: 10_000)
    _ = try runBlocking {
        try await measure(
            makeResponder(variant, middlewareCount: count),
            recorder: variant.isTraced ? Recorder(sink: ring) : nil
        )
    }
    exit(0)
}

/// Every round of the table of `variants`, interleaved (run from ``runBlocking(_:)``, so that valgrind can count
/// its instructions).
func runRounds(of variants: [Variant]) async throws -> SlopeTable {
    var table = SlopeTable(variants: variants.map(\.rawValue))
    let ring = InMemoryTraceSink(limit: 10_000)
    for _ in 0..<repeats {
        for count in table.counts {
            for variant in variants {
                let responder = makeResponder(variant, middlewareCount: count)
                let nanoseconds = try await measure(
                    responder,
                    recorder: variant.isTraced ? Recorder(sink: ring) : nil
                )
                table.record(variant.rawValue, count: count, nanoseconds: nanoseconds)
            }
        }
    }
    return table
}

for (index, variants) in Variant.tables.enumerated() {
    let table = try runBlocking { try await runRounds(of: variants) }
    if index > 0 { print() }
    table.print(
        title:
            "Hummingbird middleware, in process — \(requests) requests a round, best of \(repeats) interleaved rounds,"
            + " ns",
        firstColumn: "app",
        links: "middleware",
        hop: "a middleware hop"
    )
    table.printSummary(
        hop: "a middleware hop",
        command: "a request",
        links: "middleware",
        untraced: variants[0].rawValue,
        off: variants[1].rawValue,
        traced: variants[2].rawValue
    )
}
