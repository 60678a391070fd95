// Measures what tracing costs per hop on a 10-handler chain, beside the alternatives users reach for today
// (print, swift-log), all in one run so the ratios compare like with like. Release build only.

import ChainTrace
import ChainTraceFormats
import Dispatch
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let handlerCount = 10
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

/// Best of `repeats` runs of `commands` sends; returns nanoseconds per hop.
func measure(commands: Int = commandsPerRun, _ body: (Int) -> Void) -> Double {
    body(min(commands, 10_000))  // warm up
    var best = Double.infinity
    for _ in 0..<repeats {
        let start = now()
        body(commands)
        best = min(best, Double(now() - start) / Double(commands * handlerCount))
    }
    return best
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

func sendPlain(_ chain: any NumberHandling, _ count: Int) {
    for _ in 0..<count { blackHole(chain.handle(Command(value: 9))) }
}

/// Commands per second with `threads` threads sending through their own chains (or one shared chain).
func throughput(threads: Int, shared: Bool, recorder: Recorder) -> Double {
    let sharedChain = makeChain(recorder)
    let chains = (0..<threads).map { _ in shared ? sharedChain : makeChain(recorder) }
    let perThread = commandsPerRun
    var best = 0.0
    for _ in 0..<repeats {
        let start = now()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in send(chains[thread], perThread) }
        best = max(best, Double(threads * perThread) / (Double(now() - start) / 1e9))
    }
    return best
}

// MARK: Run

struct Row {
    var name: String
    var nanosecondsPerHop: Double
    var note: String = ""
}

var rows: [Row] = []
let only = getenv("CHAINTRACE_BENCH_ONLY").map { String(cString: $0) }
@MainActor func row(_ name: String, note: String = "", _ body: (Int) -> Void) {
    if let only, !name.contains(only), !rows.isEmpty, rows.count > 1 { return }
    rows.append(Row(name: name, nanosecondsPerHop: measure(body), note: note))
}

let plain = link((0..<handlerCount).map(PlainHandler.init))
row("hand-written chain, no ChainTrace") { sendPlain(plain, $0) }

let untraced = makeChain()
row("Chain, no recorder (untraced)") { send(untraced, $0) }

let offChain = makeChain(.off)
row("Chain, recorder off") { send(offChain, $0) }

let memory = InMemoryTraceSink(limit: 10_000)
let traced = makeChain(Recorder(sink: memory, capturesPayloads: false))
row("Chain, traced into memory") { send(traced, $0) }

let withPayload = makeChain(Recorder(sink: InMemoryTraceSink(limit: 10_000)))
row("Chain, traced + payload capture") { send(withPayload, $0) }

let sampled = makeChain(Recorder(sink: InMemoryTraceSink(limit: 10_000), sampling: .oneIn(100)))
row("Chain, sampled 1/100") { send(sampled, $0) }

let logPath = "/tmp/chaintrace-benchmark-\(getpid()).jsonl"
let logSink = try! TraceLogSink(path: logPath)
let logged = makeChain(Recorder(sink: logSink))
row("Chain, traced into a trace log file") { send(logged, min($0, 200_000)) }
try? logSink.close()
unlink(logPath)

let instrumented = link((0..<handlerCount).map(InstrumentedHandler.init))
row("instrumented chain (traceHop), recorder off") { sendPlain(instrumented, $0) }
ChainTracing.bootstrap(Recorder(sink: InMemoryTraceSink(limit: 10_000), capturesPayloads: false))
row("instrumented chain (traceHop), traced") { sendPlain(instrumented, min($0, 300_000)) }
ChainTracing.bootstrap(.off)

let printing = link((0..<handlerCount).map(PrintingHandler.init))
row("hand-written chain, print per hop") { sendPlain(printing, min($0, 100_000)) }

let savedStderr = dup(2)
let devNull = open("/dev/null", O_WRONLY)
dup2(devNull, 2)
let logger = Logger(label: "bench") { StreamLogHandler.standardError(label: $0) }
let logging = link((0..<handlerCount).map { LoggingHandler($0, logger: logger) })
row("hand-written chain, swift-log per hop") { sendPlain(logging, min($0, 20_000)) }
dup2(savedStderr, 2)

let baseline = rows[1].nanosecondsPerHop
let plainBaseline = rows[0].nanosecondsPerHop
func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
func lpad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
func fixed(_ value: Double, _ digits: Int = 1) -> String {
    let scale = Double([1, 10, 100, 1000][digits])
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    }
    return text
}

print("ChainTrace per-hop cost — \(handlerCount)-handler chain, \(commandsPerRun) commands × best of \(repeats)")
print("")
print(pad("variant", 46) + lpad("ns/hop", 9) + lpad("+ns vs untraced", 17) + lpad("× untraced", 12) + lpad("× hand-written", 16))
print(String(repeating: "-", count: 100))
for row in rows {
    let extra = row.nanosecondsPerHop - baseline
    print(
        pad(row.name, 46) + lpad(fixed(row.nanosecondsPerHop), 9) + lpad(fixed(extra), 17)
            + lpad(fixed(row.nanosecondsPerHop / baseline, 2), 12)
            + lpad(fixed(row.nanosecondsPerHop / plainBaseline, 2), 16)
    )
}

let tracedRecorder = Recorder(sink: InMemoryTraceSink(limit: 10_000), capturesPayloads: false)
let one = throughput(threads: 1, shared: false, recorder: tracedRecorder)
let twoOwn = throughput(threads: 2, shared: false, recorder: tracedRecorder)
let twoShared = throughput(threads: 2, shared: true, recorder: tracedRecorder)
print("")
print("Recording from two threads at once (traced into one shared in-memory sink)")
print(String(repeating: "-", count: 100))
print(pad("1 thread", 46) + lpad(fixed(one / 1e6, 2), 9) + " M commands/s")
print(pad("2 threads, a chain each", 46) + lpad(fixed(twoOwn / 1e6, 2), 9) + " M commands/s   " + fixed(twoOwn / one, 2) + "× one thread")
print(pad("2 threads, one shared chain", 46) + lpad(fixed(twoShared / 1e6, 2), 9) + " M commands/s   " + fixed(twoShared / one, 2) + "× one thread")
print("")
print("Targets: traced ≤ 30 ns/hop over untraced; recorder off ≤ 2 ns/hop over untraced; 2 threads ≥ 1.8× one.")
