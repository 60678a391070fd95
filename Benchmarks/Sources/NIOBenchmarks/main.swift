// What tracing costs a SwiftNIO pipeline, per handler per event: a read through 0, 1, 4 or 16 handlers that pass it
// on, on an EmbeddedChannel (`writeInbound` of one small ByteBuffer; the last handler keeps it), for the pipeline as
// built, after `traceEventsNow()` with no recorder in force, and after `traceEventsNow()` tracing every event (or one
// in 100) into a 10 000-trace ring; interleaved, best round of each, ratios in one run. The slope between 0 and 16 handlers is the
// cost of one handler's hop. Release build only.
//
//   swift run -c release --package-path Benchmarks chaintrace-nio-benchmarks
//
// Environment: CHAINTRACE_BENCH_REQUESTS (events a round, default 200000), CHAINTRACE_BENCH_REPEATS (rounds,
// default 5), CHAINTRACE_BENCH_ONLY (the untraced pipeline and the variants whose name contains it; or
// VARIANT:COUNT — untraced, off, traced or untyped (without message types), with COUNT passing handlers — one
// round alone, for counting its instructions: Scripts/check-instruction-budgets.py).
//
// A second table times a connection's set-up: an HTTP/1 server pipeline and four handlers of the app's on a new
// EmbeddedChannel, as built and with `traceEventsNow` — one channel in 100 drawn (the others left as built), no
// recorder in force (the arming handlers), and probes put in. CHAINTRACE_BENCH_CHANNELS: channels a round (default
// 2000).

import ChainTrace
import ChainTraceNIO
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import SlopeBenchmarks

/// Passes every read on.
final class PassingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
}

/// Keeps every read.
final class KeepingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}

let events = environmentInt("CHAINTRACE_BENCH_REQUESTS", 200_000)
/// `CHAINTRACE_BENCH_ONLY=text`: the untraced pipeline and the variants whose name contains `text` (for profiling).
let only = ProcessInfo.processInfo.environment["CHAINTRACE_BENCH_ONLY"]
let repeats = environmentInt("CHAINTRACE_BENCH_REPEATS", 5)

/// How the pipeline is set up in one variant.
enum Variant: String, CaseIterable {
    case untraced = "pipeline as built (untraced)"
    case off = "traceEventsNow(), no recorder in force"
    case traced = "traceEventsNow(), traced into memory"
    case tracedWithoutTypes = "traceEventsNow(messageTypes: false), traced into memory"
    case sampled = "traceEventsNow(), sampled 1 in 100 into memory"

    /// The recorder in force while it runs, if any.
    var recorder: Recorder? {
        switch self {
        case .untraced, .off: nil
        case .traced, .tracedWithoutTypes: Recorder(sink: ring)
        case .sampled: Recorder(sink: ring, sampling: .oneIn(100))
        }
    }
}

/// Nanoseconds a read through `count` passing handlers and a keeping one, `events` of them.
func measure(_ variant: Variant, count: Int, recorder: Recorder?) throws -> Double {
    let channel = EmbeddedChannel()
    for _ in 0..<count { try channel.pipeline.syncOperations.addHandler(PassingHandler()) }
    try channel.pipeline.syncOperations.addHandler(KeepingHandler())
    if variant != .untraced {
        try channel.pipeline.traceEventsNow(chain: "bench", messageTypes: variant != .tracedWithoutTypes)
    }
    let buffer = channel.allocator.buffer(string: "line\n")
    func run() throws -> Double {
        let start = ContinuousClock.now
        for _ in 0..<events { channel.pipeline.fireChannelRead(buffer) }
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    }
    let total: Double
    if let recorder {
        total = try ChainTracing.withRecorder(recorder) { try run() }
    } else {
        total = try run()
    }
    _ = try channel.finish()
    return total / Double(events)
}

let ring = InMemoryTraceSink(limit: 10_000)
if only?.contains(":") == true,
    let (variant, count) = singleRun(of: [
        "untraced": Variant.untraced, "off": .off, "traced": .traced, "untyped": .tracedWithoutTypes,
    ])
{
    _ = try measure(variant, count: count, recorder: variant.recorder)
    exit(0)
}

let variants = Variant.allCases.filter { variant in
    only.map { variant == .untraced || variant.rawValue.contains($0) } ?? true
}
var table = SlopeTable(variants: variants.map(\.rawValue))
for _ in 0..<repeats {
    for count in table.counts {
        for variant in variants {
            let nanoseconds = try measure(variant, count: count, recorder: variant.recorder)
            table.record(variant.rawValue, count: count, nanoseconds: nanoseconds)
        }
    }
}

let results = table
/// `variant`'s hop over the untraced pipeline's.
func overUntraced(_ variant: Variant) -> Double { results.slope(variant.rawValue, over: Variant.untraced.rawValue) }

results.print(
    title: "SwiftNIO pipeline, EmbeddedChannel — \(events) reads a round, best of \(repeats) interleaved rounds, ns",
    firstColumn: "pipeline",
    links: "handlers",
    hop: "a handler's hop"
)
print(
    String(
        format:
            "a handler's hop: no recorder %+.1f ns over untraced (target ≤ +3), traced %+.1f ns, without message types %+.1f ns (target ≤ +50), sampled 1 in 100 %+.1f ns",
        overUntraced(.off),
        overUntraced(.traced),
        overUntraced(.tracedWithoutTypes),
        overUntraced(.sampled)
    )
)

// MARK: A connection's set-up

/// How a new channel's pipeline is set up in one row of the set-up table.
enum SetUp: String, CaseIterable {
    case asBuilt = "HTTP/1 server pipeline and 4 handlers, as built"
    case drawn = "+ traceEventsNow(channels: .oneIn(100))"
    case arming = "+ traceEventsNow(), no recorder in force (arming handlers)"
    case probed = "+ traceEventsNow(), recorder in force (probes put in)"
}

let channelsPerRound = environmentInt("CHAINTRACE_BENCH_CHANNELS", 2_000)

/// Nanoseconds to set up one channel's pipeline as `setUp` says, over `channelsPerRound` channels.
func measureSetUp(_ setUp: SetUp) throws -> Double {
    let chain = "set-up-\(setUp)"
    func build() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
        try channel.pipeline.syncOperations.addHandlers((0..<4).map { _ in PassingHandler() })
        switch setUp {
        case .asBuilt: break
        case .drawn: try channel.pipeline.traceEventsNow(chain: chain, channels: .oneIn(100))
        case .arming, .probed: try channel.pipeline.traceEventsNow(chain: chain)
        }
        _ = try channel.finish(acceptAlreadyClosed: true)
    }
    func run() throws -> Double {
        let start = ContinuousClock.now
        for _ in 0..<channelsPerRound { try build() }
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    }
    let total =
        setUp == .probed ? try ChainTracing.withRecorder(Recorder(sink: ring)) { try run() } : try run()
    return total / Double(channelsPerRound)
}

var bestSetUp: [SetUp: Double] = [:]
for _ in 0..<repeats {
    for setUp in SetUp.allCases {
        let nanoseconds = try measureSetUp(setUp)
        bestSetUp[setUp] = min(bestSetUp[setUp] ?? .infinity, nanoseconds)
    }
}
print("")
print(
    "A connection's set-up, EmbeddedChannel — \(channelsPerRound) channels a round, best of \(repeats) interleaved rounds"
)
let asBuilt = bestSetUp[.asBuilt] ?? 0
for setUp in SetUp.allCases {
    let nanoseconds = bestSetUp[setUp] ?? 0
    let over = setUp == .asBuilt ? "" : String(format: "   %+.1f µs over as built", (nanoseconds - asBuilt) / 1000)
    let name = setUp.rawValue.padding(toLength: 62, withPad: " ", startingAt: 0)
    print(name + String(format: "%9.1f µs a channel", nanoseconds / 1000) + over)
}
