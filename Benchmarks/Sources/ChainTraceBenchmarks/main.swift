// Measures what tracing costs per hop on a 10-handler chain, beside the alternatives users reach for today
// (print, swift-log), all in one run so the ratios compare like with like. Release build only.

import CBenchFloor
import ChainTrace
import ChainTraceDistributedTracing
import ChainTraceLogging
import ChainTraceTraceLog
import Dispatch
import InMemoryTracing
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let commandsPerRun = envInt("CHAINTRACE_BENCH_COMMANDS", 1_000_000)
let repeats = envInt("CHAINTRACE_BENCH_REPEATS", 5)

func envInt(_ name: String, _ fallback: Int) -> Int {
    getenv(name).flatMap { Int(String(cString: $0)) } ?? fallback
}

/// The command: a number; handler `i` accepts it when `value % handlerCount == i`, so value 9 visits all 10.
struct Command: Codable, Sendable { var value: Int }

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Nanoseconds per hop of one run of `commands` sends.
func timeRun(commands: Int, _ body: (Int) -> Void) -> Double {
    let start = now()
    body(commands)
    return Double(now() - start) / Double(commands * handlerCount)
}

// MARK: A chain users already have: protocol + `next`, Optional result.

protocol NumberHandling: AnyObject {
    var next: (any NumberHandling)? { get set }
    func handle(_ command: Command) -> Int?
}

final class PlainHandler: NumberHandling {
    var next: (any NumberHandling)?
    let index: Int
    init(_ index: Int) { self.index = index }
    func handle(_ command: Command) -> Int? {
        command.value % handlerCount == index ? index : next?.handle(command)
    }
}

final class InstrumentedHandler: NumberHandling {
    var next: (any NumberHandling)?
    let index: Int
    let name: String
    init(_ index: Int) {
        self.index = index
        self.name = "Handler\(index)"
    }
    func handle(_ command: Command) -> Int? {
        traceHop(name, command: command, chain: "instrumented") {
            command.value % handlerCount == index ? index : next?.handle(command)
        }
    }
}

/// The floor under any instrumented hop that reports self and inclusive time: the hand-written handler, plus a
/// cycle-counter read when it starts and one when it ends, and one record stored through a thread-local pointer
/// (`CBenchFloor`, inline C). No names, decisions, nesting or delivery: what `traceHop` adds over this row is
/// its own bookkeeping.
final class FloorHandler: NumberHandling {
    var next: (any NumberHandling)?
    let index: Int
    init(_ index: Int) { self.index = index }
    func handle(_ command: Command) -> Int? {
        let start = chaintrace_read_cycle_counter()
        let result = command.value % handlerCount == index ? index : next?.handle(command)
        bench_floor_record_hop(UInt64(index), start, chaintrace_read_cycle_counter())
        return result
    }
}

// MARK: An async chain users already have: each handler awaits the next.

protocol AsyncNumberHandling: AnyObject, Sendable {
    var next: (any AsyncNumberHandling)? { get }
    func handle(_ command: Command) async -> Int?
}

final class PlainAsyncHandler: AsyncNumberHandling, @unchecked Sendable {
    var next: (any AsyncNumberHandling)?
    let index: Int
    init(_ index: Int) { self.index = index }
    func handle(_ command: Command) async -> Int? {
        command.value % handlerCount == index ? index : await next?.handle(command)
    }
}

final class InstrumentedAsyncHandler: AsyncNumberHandling, @unchecked Sendable {
    var next: (any AsyncNumberHandling)?
    let index: Int
    let name: String
    init(_ index: Int) {
        self.index = index
        self.name = "Handler\(index)"
    }
    func handle(_ command: Command) async -> Int? {
        await traceHop(name, command: command, chain: "instrumented-async") {
            command.value % handlerCount == index ? index : await next?.handle(command)
        }
    }
}

/// The floor under any async wrapper of a handler's body, `traceHop` or another: the hand-written async handler
/// with its body in a closure handed to a function that checks one flag and calls it. The function takes the
/// caller's isolation (`isolation: isolated (any Actor)? = #isolation`), as `traceHop` does so that a body of plain
/// non-`Sendable` classes compiles and runs where its caller runs; the closure is an async frame of its own, and
/// on its return the wrapper checks it is back on the caller's executor: what "recorder off" costs an async
/// instrumented hop, whoever wrote the wrapper.
final class ClosureWrappedAsyncHandler: AsyncNumberHandling, @unchecked Sendable {
    var next: (any AsyncNumberHandling)?
    let index: Int
    init(_ index: Int) { self.index = index }
    func handle(_ command: Command) async -> Int? {
        await wrappedAsync { command.value % handlerCount == index ? index : await next?.handle(command) }
    }
}

/// Never set: the branch a wrapper takes when it records nothing.
nonisolated(unsafe) var wrapperRecords = false

/// A wrapper that records nothing: one load, one branch, the body.
@inline(__always)
func wrappedAsync<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
) async rethrows -> Result {
    guard wrapperRecords else { return try await body() }
    blackHole(0)
    return try await body()
}

func linkAsync<Handler: AsyncNumberHandling>(_ handlers: [Handler], _ set: (Handler, Handler) -> Void)
    -> any AsyncNumberHandling
{
    for (handler, following) in zip(handlers, handlers.dropFirst()) { set(handler, following) }
    return handlers[0]
}

/// Runs `count` sends through an async chain from one task, waiting for it: the task's start is in the time, once
/// a run.
func sendAsync(_ chain: any AsyncNumberHandling, _ count: Int, recorder: Recorder? = nil) {
    let done = DispatchSemaphore(value: 0)
    Task {
        if let recorder {
            await ChainTracing.withRecorder(recorder) {
                for _ in 0..<count { blackHole(await chain.handle(Command(value: 9))) }
            }
        } else {
            for _ in 0..<count { blackHole(await chain.handle(Command(value: 9))) }
        }
        done.signal()
    }
    done.wait()
}

struct NullStream: TextOutputStream {
    let file: UnsafeMutablePointer<FILE> = fopen("/dev/null", "w")
    mutating func write(_ string: String) { fputs(string, file) }
}
nonisolated(unsafe) var nullStream = NullStream()

final class PrintingHandler: NumberHandling {
    var next: (any NumberHandling)?
    let index: Int
    init(_ index: Int) { self.index = index }
    func handle(_ command: Command) -> Int? {
        print("handler \(index) got \(command.value)", to: &nullStream)
        return command.value % handlerCount == index ? index : next?.handle(command)
    }
}

final class LoggingHandler: NumberHandling {
    var next: (any NumberHandling)?
    let index: Int
    let logger: Logger
    init(_ index: Int, logger: Logger) {
        self.index = index
        self.logger = logger
    }
    func handle(_ command: Command) -> Int? {
        logger.info("hop", metadata: ["handler": "\(index)", "value": "\(command.value)"])
        return command.value % handlerCount == index ? index : next?.handle(command)
    }
}

func link(_ handlers: [any NumberHandling]) -> any NumberHandling {
    for (handler, following) in zip(handlers, handlers.dropFirst()) { handler.next = following }
    return handlers[0]
}

// MARK: A chain on ChainTrace's own types.

func makeChain(_ recorder: Recorder = .off) -> Chain<Command, Int> {
    let handlers = (0..<handlerCount).map { index in
        Handler<Command, Int>("Handler\(index)") { $0.value % handlerCount == index ? .accept(index) : .pass }
    }
    return try! Chain("benchmark", handlers: handlers, recorder: recorder)
}

func send(_ chain: Chain<Command, Int>, _ count: Int) {
    for _ in 0..<count { blackHole(try? chain.send(Command(value: 9))) }
}

/// A command as apps have them: an id, a customer, a few order lines, a total, an optional note.
struct Order: Codable, Sendable {
    struct Line: Codable, Sendable {
        var sku: String
        var quantity: Int
        var price: Double
    }
    var id: String
    var customer: String
    var lines: [Line]
    var total: Double
    var note: String?
    var value: Int
}

let sampleOrder = Order(
    id: "ord-20261123-000917",
    customer: "cust-4821",
    lines: [
        .init(sku: "SKU-1042", quantity: 2, price: 19.99), .init(sku: "SKU-2210", quantity: 1, price: 4.5),
        .init(sku: "SKU-0007", quantity: 12, price: 0.35),
    ],
    total: 48.68,
    note: "leave at the door",
    value: 9
)

func makeOrderChain(_ recorder: Recorder) -> Chain<Order, Int> {
    let handlers = (0..<handlerCount).map { index in
        Handler<Order, Int>("Handler\(index)") { $0.value % handlerCount == index ? .accept(index) : .pass }
    }
    return try! Chain("orders", handlers: handlers, recorder: recorder)
}

func sendOrders(_ chain: Chain<Order, Int>, _ count: Int) {
    for _ in 0..<count { blackHole(try? chain.send(sampleOrder)) }
}

func sendPlain(_ chain: any NumberHandling, _ count: Int) {
    for _ in 0..<count { blackHole(chain.handle(Command(value: 9))) }
}

/// Commands per second of one run: `threads` threads each sending `commandsPerRun` commands through
/// `chains[thread]`.
func throughputRun(_ threads: Int, _ send: @Sendable @escaping (Int) -> Void) -> Double {
    let start = now()
    DispatchQueue.concurrentPerform(iterations: threads) { thread in send(thread) }
    return Double(threads * commandsPerRun) / (Double(now() - start) / 1e9)
}

// MARK: Run

/// A variant to measure: its name, what share of a run's commands it sends (slow variants send fewer), and
/// its sending loop.
struct Variant {
    var name: String
    var share: Double
    var body: (Int) -> Void
    /// Run after each timed run, untimed: a drop-when-behind log's flush, which is the writer's work, not the
    /// caller's.
    var after: () -> Void = {}
}

let only = getenv("CHAINTRACE_BENCH_ONLY").map { String(cString: $0) }
nonisolated(unsafe) var variants: [Variant] = []
func variant(_ name: String, share: Double = 1, after: @escaping () -> Void = {}, _ body: @escaping (Int) -> Void) {
    // `=name` keeps that variant alone (with the baselines); `text`, every variant whose name contains it.
    if let only, only.hasPrefix("=") ? name != only.dropFirst() : !name.contains(only), variants.count > 1 { return }
    variants.append(Variant(name: name, share: share, body: body, after: after))
}

let plain = link((0..<handlerCount).map(PlainHandler.init))
variant("hand-written chain, no ChainTrace") { sendPlain(plain, $0) }

let untraced = makeChain()
variant("Chain, no recorder (untraced)") { send(untraced, $0) }

let offChain = makeChain(.off)
variant("Chain, recorder off") { send(offChain, $0) }

let traced = makeChain(Recorder(sink: InMemoryTraceSink(limit: 10_000)))
variant("Chain, traced into memory") { send(traced, $0) }

/// Drops every trace: what recording costs before any sink keeps anything.
struct DiscardingSink: TraceSink {
    func record(_ trace: Trace) { blackHole(trace) }
}
let discarded = makeChain(Recorder(sink: DiscardingSink()))
variant("Chain, traced into a discarding sink") { send(discarded, $0) }

let withPayload = makeChain(Recorder(sink: InMemoryTraceSink(limit: 10_000), payloads: .captured))
variant("Chain, traced + payload capture", share: 0.3) { send(withPayload, $0) }

let sampled = makeChain(Recorder(sink: InMemoryTraceSink(limit: 10_000), sampling: .oneIn(100), payloads: .captured))
variant("Chain, sampled 1/100") { send(sampled, $0) }

// Trace log files: the background writer (the default) with each full-queue policy, and the old way, each
// recording thread encoding and writing its own traces. "Block" is the sustained cost: the recording thread waits
// whenever the writer is behind, so it includes all the writer's work the other core cannot hide.
let logPath = "/tmp/chaintrace-benchmark-\(getpid())"
func logSink(_ name: String, _ configure: (inout TraceLogSink.Options) -> Void) -> TraceLogSink {
    var options = TraceLogSink.Options()
    configure(&options)
    return try! TraceLogSink(path: "\(logPath)-\(name).jsonl", options: options)
}
let droppingLog = logSink("drop") { _ in }
let blockingLog = logSink("block") { $0.whenBehind = .block }
let callerLog = logSink("caller") {
    $0.writesInBackground = false
    $0.format = .jsonLines
}
let callerCompactLog = logSink("caller-compact") { $0.writesInBackground = false }
let treePayloadLog = logSink("tree-payloads") { $0.format = .jsonLines }
let logSinks = [droppingLog, blockingLog, callerLog, callerCompactLog, treePayloadLog]
let dropping = makeChain(Recorder(sink: droppingLog))
variant("trace log, background, drop when behind", share: 0.3, after: { try! droppingLog.flush() }) {
    send(dropping, $0)
}
let blocking = makeChain(Recorder(sink: blockingLog))
variant("trace log, background, block when behind", share: 0.3) { count in
    send(blocking, count)
    try! blockingLog.flush()
}
let blockingPayloads = makeChain(Recorder(sink: blockingLog, payloads: .captured))
variant("trace log, background, block, + payloads", share: 0.1) { count in
    send(blockingPayloads, count)
    try! blockingLog.flush()
}
// Payload capture on the recording thread, the writer's work aside (drop when behind): a compact log takes each
// command encoded straight into JSON text, a version 1 log takes it as a JSONValue tree, as memory does. Each on
// the one-field benchmark command and on an order-like command (strings, an array of objects, floats, an
// optional) — what commands in apps look like.
let textPayloads = makeChain(Recorder(sink: droppingLog, payloads: .captured))
variant("trace log, drop, + payloads as text", share: 0.1, after: { try! droppingLog.flush() }) {
    send(textPayloads, $0)
}
let treePayloads = makeChain(Recorder(sink: treePayloadLog, payloads: .captured))
variant("trace log v1, drop, + payloads as tree", share: 0.1, after: { try! treePayloadLog.flush() }) {
    send(treePayloads, $0)
}
let textOrders = makeOrderChain(Recorder(sink: droppingLog, payloads: .captured))
variant("order command, trace log, drop, payloads as text", share: 0.1, after: { try! droppingLog.flush() }) {
    sendOrders(textOrders, $0)
}
let treeOrders = makeOrderChain(Recorder(sink: treePayloadLog, payloads: .captured))
variant("order command, trace log v1, drop, payloads as tree", share: 0.1, after: { try! treePayloadLog.flush() }) {
    sendOrders(treeOrders, $0)
}
let bareOrders = makeOrderChain(Recorder(sink: droppingLog))
variant("order command, trace log, drop, no payloads", share: 0.1, after: { try! droppingLog.flush() }) {
    sendOrders(bareOrders, $0)
}
let onCaller = makeChain(Recorder(sink: callerLog))
variant("trace log v1, written on the caller's thread", share: 0.05) { send(onCaller, $0) }
let onCallerCompact = makeChain(Recorder(sink: callerCompactLog))
variant("compact trace log, written on the caller's thread", share: 0.05) { send(onCallerCompact, $0) }

// Integrations: what each sink costs with nobody listening, and with a listener that keeps everything.
let spansUnheard = makeChain(Recorder(sink: SpanTraceSink()))
variant("Chain, SpanTraceSink, no tracer bootstrapped") { send(spansUnheard, $0) }
let spanTracer = InMemoryTracer()
let spansHeard = makeChain(Recorder(sink: SpanTraceSink(tracer: spanTracer)))
variant("Chain, SpanTraceSink into InMemoryTracer", share: 0.02) { count in
    send(spansHeard, count)
    spanTracer.clearAll()
}
let quietLogger = Logger(label: "bench.quiet") { _ in SwiftLogNoOpLogHandler() }
let logLinesUnheard = makeChain(Recorder(sink: LogTraceSink(logger: quietLogger)))
variant("Chain, LogTraceSink, logger level above") { send(logLinesUnheard, $0) }
var discardingLogger = Logger(label: "bench.lines") { _ in DiscardingLogHandler() }
let logLines = makeChain(Recorder(sink: LogTraceSink(logger: discardingLogger, granularity: .perHop)))
variant("Chain, LogTraceSink per hop, discarding handler", share: 0.05) { send(logLines, $0) }

let instrumented = link((0..<handlerCount).map(InstrumentedHandler.init))
variant("instrumented chain (traceHop), recorder off") { sendPlain(instrumented, $0) }
let floor = link((0..<handlerCount).map(FloorHandler.init))
variant("hand-written chain, two counter reads + one store a hop (floor)", share: 0.3) { sendPlain(floor, $0) }
let instrumentedRecorder = Recorder(sink: InMemoryTraceSink(limit: 10_000))
variant("instrumented chain (traceHop), traced", share: 0.3) { count in
    ChainTracing.withRecorder(instrumentedRecorder) { sendPlain(instrumented, count) }
}

let instrumentedSampledRecorder = Recorder(sink: InMemoryTraceSink(limit: 10_000), sampling: .oneIn(100))
variant("instrumented chain (traceHop), sampled 1/100", share: 0.3) { count in
    ChainTracing.withRecorder(instrumentedSampledRecorder) { sendPlain(instrumented, count) }
}

let plainAsync = linkAsync((0..<handlerCount).map(PlainAsyncHandler.init)) { $0.next = $1 }
variant("async hand-written chain, no ChainTrace", share: 0.3) { sendAsync(plainAsync, $0) }
let closureWrappedAsync = linkAsync((0..<handlerCount).map(ClosureWrappedAsyncHandler.init)) { $0.next = $1 }
variant("async hand-written chain, body in a closure (wrapper floor)", share: 0.3) {
    sendAsync(closureWrappedAsync, $0)
}
let instrumentedAsync = linkAsync((0..<handlerCount).map(InstrumentedAsyncHandler.init)) { $0.next = $1 }
variant("async instrumented chain (traceHop), recorder off", share: 0.3) { sendAsync(instrumentedAsync, $0) }
let instrumentedAsyncRecorder = Recorder(sink: InMemoryTraceSink(limit: 10_000))
variant("async instrumented chain (traceHop), traced", share: 0.1) { count in
    sendAsync(instrumentedAsync, count, recorder: instrumentedAsyncRecorder)
}

let instrumentedAsyncSampledRecorder = Recorder(sink: InMemoryTraceSink(limit: 10_000), sampling: .oneIn(100))
variant("async instrumented chain (traceHop), sampled 1/100", share: 0.3) { count in
    sendAsync(instrumentedAsync, count, recorder: instrumentedAsyncSampledRecorder)
}

let printing = link((0..<handlerCount).map(PrintingHandler.init))
variant("hand-written chain, print per hop", share: 0.1) { sendPlain(printing, $0) }

/// A handler that builds each log event and drops it: what formatting the line and its metadata costs.
struct DiscardingLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { blackHole(event.message.description) }
}

let logger = Logger(label: "bench") { StreamLogHandler.standardError(label: $0) }
let logging = link((0..<handlerCount).map { LoggingHandler($0, logger: logger) })
variant("hand-written chain, swift-log per hop", share: 0.02) { count in
    // swift-log's stream handler writes to standard error: point that at /dev/null while it runs.
    let savedStandardError = dup(2)
    let devNull = open("/dev/null", O_WRONLY)
    dup2(devNull, 2)
    sendPlain(logging, count)
    dup2(savedStandardError, 2)
    close(devNull)
    close(savedStandardError)
}

// Instruction counts, for callgrind (`Scripts/check-instruction-budgets.py`): `CHAINTRACE_BENCH_INSTRUCTIONS=N`
// runs the row `CHAINTRACE_BENCH_ONLY="=row"` names once, N commands, untimed, and exits. Two runs of different N
// give the row's instructions a command, whatever the process's start and the setup of the other rows cost.
if let commands = getenv("CHAINTRACE_BENCH_INSTRUCTIONS").flatMap({ Int(String(cString: $0)) }) {
    guard let only, only.hasPrefix("="), let row = variants.first(where: { $0.name == only.dropFirst() }) else {
        print("CHAINTRACE_BENCH_INSTRUCTIONS needs CHAINTRACE_BENCH_ONLY=\"=row name\"")
        exit(2)
    }
    row.body(commands)
    row.after()
    exit(0)
}

// Interleave: every round runs every variant once, so drift and noisy neighbours hit all of them alike.
var best = [Double](repeating: .infinity, count: variants.count)
for variant in variants { variant.body(1_000) }  // warm up (and calibrate the clock)
for _ in 0..<repeats {
    for (index, variant) in variants.enumerated() {
        let commands = max(1_000, Int(Double(commandsPerRun) * variant.share))
        best[index] = min(best[index], timeRun(commands: commands, variant.body))
        variant.after()
    }
}
for sink in logSinks {
    try? sink.close()
    for file in sink.files { unlink(file) }
}

let baseline = best[1]
let plainBaseline = best[0]
func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
func lpad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
func fixed(_ value: Double, _ digits: Int = 1) -> String {
    let scale = Double([1, 10, 100, 1000][digits])
    var text = String((value * scale).rounded() / scale)
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    }
    return text
}

print(
    "ChainTrace per-hop cost — \(handlerCount)-handler chain, up to \(commandsPerRun) commands a run, best of \(repeats) interleaved rounds"
)
print("")
print(
    pad("variant", 46) + lpad("ns/hop", 9) + lpad("+ns vs untraced", 17) + lpad("× untraced", 12)
        + lpad("× hand-written", 16)
)
print(String(repeating: "-", count: 100))
for (variant, nanoseconds) in zip(variants, best) {
    print(
        pad(variant.name, 46) + lpad(fixed(nanoseconds), 9) + lpad(fixed(nanoseconds - baseline), 17)
            + lpad(fixed(nanoseconds / baseline, 2), 12) + lpad(fixed(nanoseconds / plainBaseline, 2), 16)
    )
}
print("")
print(
    "trace log, background, drop when behind: \(droppingLog.droppedCount) traces dropped in all its runs (counted, and recorded in its log)"
)
if let index = variants.firstIndex(where: { $0.name == "instrumented chain (traceHop), recorder off" }) {
    let instrumentedOff = best[index] - plainBaseline
    print("")
    print("instrumented chain, recorder off, over the same hand-written chain: +\(fixed(instrumentedOff)) ns/hop")
}
if let off = variants.firstIndex(where: { $0.name == "async instrumented chain (traceHop), recorder off" }),
    let floor = variants.firstIndex(where: { $0.name == "async hand-written chain, body in a closure (wrapper floor)" })
{
    let overFloor = best[off] - best[floor]
    print(
        "async instrumented chain, recorder off, over the wrapper floor: \(overFloor < 0 ? "" : "+")\(fixed(overFloor)) ns/hop"
    )
}

// Thread scaling, interleaved the same way: each round runs every configuration once, best of the rounds.
// `CHAINTRACE_BENCH_THREADS=0` leaves it out (to profile one variant alone).
if envInt("CHAINTRACE_BENCH_THREADS", 1) == 0 { exit(0) }
let tracedRecorder = Recorder(sink: InMemoryTraceSink(limit: 10_000))
let ownChains = [makeChain(tracedRecorder), makeChain(tracedRecorder)]
let sharedChain = makeChain(tracedRecorder)
nonisolated(unsafe) let sharedPlain = link((0..<handlerCount).map(PlainHandler.init))
nonisolated(unsafe) let ownPlain = [
    link((0..<handlerCount).map(PlainHandler.init)), link((0..<handlerCount).map(PlainHandler.init)),
]
let discardingRecorder = Recorder(sink: DiscardingSink())
let discardingChains = [makeChain(discardingRecorder), makeChain(discardingRecorder)]
let scalingRuns: [(name: String, threads: Int, send: @Sendable (Int) -> Void)] = [
    ("1 thread", 1, { _ in send(ownChains[0], commandsPerRun) }),
    ("2 threads, a chain each", 2, { send(ownChains[$0], commandsPerRun) }),
    ("2 threads, one shared chain", 2, { _ in send(sharedChain, commandsPerRun) }),
    ("discarding sink, 1 thread", 1, { _ in send(discardingChains[0], commandsPerRun) }),
    ("discarding sink, 2 threads, a chain each", 2, { send(discardingChains[$0], commandsPerRun) }),
    ("baseline: hand-written chain, 1 thread", 1, { _ in sendPlain(sharedPlain, commandsPerRun) }),
    ("baseline: hand-written chain shared, 2 threads", 2, { _ in sendPlain(sharedPlain, commandsPerRun) }),
    ("baseline: hand-written chains, 2 threads, one each", 2, { sendPlain(ownPlain[$0], commandsPerRun) }),
]
var bestThroughput = [Double](repeating: 0, count: scalingRuns.count)
for _ in 0..<repeats {
    for (index, run) in scalingRuns.enumerated() {
        bestThroughput[index] = max(bestThroughput[index], throughputRun(run.threads, run.send))
    }
}
print("")
print(
    "Recording from two threads at once (traced into one shared in-memory sink), best of \(repeats) interleaved rounds"
)
print(String(repeating: "-", count: 100))
for (index, run) in scalingRuns.enumerated() {
    let reference = index < 3 ? bestThroughput[0] : index < 5 ? bestThroughput[3] : bestThroughput[5]
    let ratio = run.threads == 1 ? "" : "   " + fixed(bestThroughput[index] / reference, 2) + "× one thread"
    print(pad(run.name, 46) + lpad(fixed(bestThroughput[index] / 1e6, 2), 9) + " M commands/s" + ratio)
}
print("")
print("Targets: traced ≤ 30 ns/hop over untraced; recorder off ≤ 2 ns/hop over untraced; 2 threads ≥ 1.8× one.")
