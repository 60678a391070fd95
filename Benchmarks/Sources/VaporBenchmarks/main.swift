// What tracing costs a Vapor app's middleware, in process: the shape of chaintrace-http-benchmarks' Hummingbird rows
// (an app of 0, 1, 4 or 16 empty middleware and one route, one request sent again and again to its responder on its
// event loop, as Vapor's server calls it), for the app as Vapor builds it, traced with `traceRequests()` and no
// recorder in force, and traced into a 10 000-trace ring — interleaved, best round of each, ratios in one run. The
// slope between 0 and 16 middleware is the cost of one middleware hop. Release build only.
//
//   swift run -c release --package-path Benchmarks chaintrace-vapor-benchmarks
//
// Environment: CHAINTRACE_BENCH_REQUESTS (requests a round, default 100000), CHAINTRACE_BENCH_REPEATS (rounds,
// default 5), CHAINTRACE_BENCH_ONLY=VARIANT:COUNT (one app alone, for counting its instructions under callgrind:
// VARIANT is untraced, off or traced).

import ChainTrace
import ChainTraceVapor
import Foundation
import SlopeBenchmarks
import Vapor

/// Passes every request on: the middleware of Hummingbird's benchmark, in Vapor's words.
struct EmptyMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request)
    }
}

let requests = environmentInt("CHAINTRACE_BENCH_REQUESTS", 100_000)
let repeats = environmentInt("CHAINTRACE_BENCH_REPEATS", 5)

/// How an app is built and run in one variant.
enum Variant: String, CaseIterable {
    case untraced = "Vapor app (untraced)"
    case off = "traceRequests(), no recorder in force"
    case traced = "traceRequests(), traced into memory"
}

/// An app for `variant` with `middlewareCount` empty middleware and nothing else (not Vapor's default
/// `RouteLoggingMiddleware` and `ErrorMiddleware`: the rows compare the middleware's own cost).
func makeApp(_ variant: Variant, middlewareCount: Int) async throws -> Application {
    let app = try await Application.make(Environment(name: "benchmark", arguments: ["benchmark"]))
    app.logger.logLevel = .critical
    app.middleware = Middlewares()
    if variant != .untraced { app.traceRequests() }
    for _ in 0..<middlewareCount { app.middleware.use(EmptyMiddleware()) }
    app.get { _ in "ok" }
    return app
}

/// Nanoseconds a request through `app`'s responder, `requests` of them, made and answered on the app's event loop as
/// Vapor's server does (the empty middleware and the route answer at once, so each request is done before the next
/// starts); the recorder is in force on that thread for the run.
func measure(_ app: Application, recorder: Recorder?) async throws -> Double {
    let responder = app.responder.current
    let loop = app.eventLoopGroup.next()
    let elapsed = try await loop.submit { () -> Duration in
        func run() -> Duration {
            let start = ContinuousClock.now
            // One request sent again and again, as Hummingbird's benchmark does: making Vapor's `Request` costs
            // ~10 µs, whose noise would hide the hops'.
            let request = Request(application: app, method: .GET, url: URI(path: "/"), on: loop)
            for _ in 0..<requests { _ = responder.respond(to: request) }
            return ContinuousClock.now - start
        }
        guard let recorder else { return run() }
        return ChainTracing.withRecorder(recorder) { run() }
    }.get()
    return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
        / Double(requests)
}

/// Builds the app, measures it, shuts it down.
func measure(_ variant: Variant, middlewareCount: Int, ring: InMemoryTraceSink) async throws -> Double {
    let app = try await makeApp(variant, middlewareCount: middlewareCount)
    do {
        let nanoseconds = try await measure(app, recorder: variant == .traced ? Recorder(sink: ring) : nil)
        try await app.asyncShutdown()
        return nanoseconds
    } catch {
        try await app.asyncShutdown()
        throw error
    }
}

if let (variant, count) = singleRun(of: ["untraced": Variant.untraced, "off": .off, "traced": .traced]) {
    _ = try runBlocking { try await measure(variant, middlewareCount: count, ring: InMemoryTraceSink(limit: 10_000)) }
    exit(0)
}

let ring = InMemoryTraceSink(limit: 10_000)
/// Every round, interleaved (run from ``runBlocking(_:)``, so that valgrind can count its instructions).
func runRounds() async throws -> SlopeTable {
    var table = SlopeTable(variants: Variant.allCases.map(\.rawValue))
    for _ in 0..<repeats {
        for count in table.counts {
            for variant in Variant.allCases {
                let nanoseconds = try await measure(variant, middlewareCount: count, ring: ring)
                table.record(variant.rawValue, count: count, nanoseconds: nanoseconds)
            }
        }
    }
    return table
}

let table = try runBlocking { try await runRounds() }
// The ring holds the last 10 000 traced requests: check they are whole, so the rows measure real tracing.
let kept = ring.traces.suffix(1)
guard let last = kept.first, last.path == Array(repeating: "EmptyMiddleware", count: 16) + ["GET /"] else {
    FileHandle.standardError.write(Data("the traced rows recorded no whole request: \(kept)\n".utf8))
    exit(1)
}

table.print(
    title: "Vapor middleware, in process — \(requests) requests a round, best of \(repeats) interleaved rounds, ns",
    firstColumn: "app",
    links: "middleware",
    hop: "a middleware hop"
)
table.printSummary(
    hop: "a middleware hop",
    command: "a request",
    links: "middleware",
    untraced: Variant.untraced.rawValue,
    off: Variant.off.rawValue,
    traced: Variant.traced.rawValue
)
