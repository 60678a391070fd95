// Measures what `chaintrace replay` and `chaintrace stats` do per second, beside Foundation's JSONDecoder reading
// the same bytes, in one run; then the memory a `stats` of a large log needs. Release build only.
//
//   swift run -c release --package-path Benchmarks chaintrace-cli-benchmarks
//
// Environment: CHAINTRACE_BENCH_COMMANDS (default 1000000), CHAINTRACE_BENCH_LOG_MB (default 1024; 0 skips the
// memory run), CHAINTRACE_BENCH_REPEATS (default 3), CHAINTRACE_BENCH_SHAPE_COMMANDS (commands per stream shape,
// default 100000; 0 skips the shapes table — see StreamShapes.swift), CHAINTRACE_BENCH_CLI (the `chaintrace` binary timed end to
// end; default .build/release/chaintrace, skipped when missing — build it first with
// `swift build -c release --product chaintrace`), CHAINTRACE_BENCH_SIMDJSON (the simdjson reference decoder, for
// the shapes table's last two columns; build it with `Reference/build-simdjson-reference.sh`, skipped when unset).
// `--write-shapes DIR` only writes the benchmark's chain definition, stream shapes and the flat stream's trace
// logs (v1 and compact) into DIR, for profiling one of them.

import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
@_spi(Benchmarks) import ChainTraceReplay
import ChainTraceTraceLog
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

func envInt(_ name: String, _ fallback: Int) -> Int {
    getenv(name).flatMap { Int(String(cString: $0)) } ?? fallback
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The processor time (user and system, every thread of this process) `body` takes; seconds.
func processorSeconds(_ body: () throws -> Void) rethrows -> Double {
    func now() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
    let start = now()
    try body()
    return now() - start
}

/// The simdjson reference decoder (Reference/simdjson-lines.cpp) reading every line of `path` on one thread:
/// commands a second for its full parse and for its first stage alone, or `nil` without `CHAINTRACE_BENCH_SIMDJSON`.
func simdjsonRates(_ path: String, lines: Int) throws -> (full: Double, stage: Double)? {
    guard let binary = getenv("CHAINTRACE_BENCH_SIMDJSON").map({ String(cString: $0) }) else { return nil }
    let child = Process()
    child.executableURL = URL(fileURLWithPath: binary)
    child.arguments = [path]
    let output = Pipe()
    child.standardOutput = output
    try child.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    child.waitUntilExit()
    precondition(child.terminationStatus == 0, "\(binary) \(path) exited with \(child.terminationStatus)")
    // `lines <n> dom <seconds> stage <seconds>`
    let words = text.split(whereSeparator: \.isWhitespace)
    guard words.count == 6, Int(words[1]) == lines, let full = Double(words[3]), let stage = Double(words[5]) else {
        preconditionFailure("\(binary) \(path): unexpected output \(text)")
    }
    return (Double(lines) / full, Double(lines) / stage)
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chaintrace-cli-bench-\(getpid())")

/// The chain: ten validators, each accepting one size band of `weight` and one `kind`; commands visit 5.5 on average.
func writeDefinition(in directory: URL) throws -> String {
    var handlers: [String] = []
    for index in 0..<10 {
        let next = index < 9 ? ", \"next\": \"Validator\(index + 1)\"" : ""
        handlers.append(
            """
            {"name": "Validator\(index)", "accepts": {"all": [{"kind": ["Coin", "Token"]}, \
            {"field": "weight", "min": \(Double(index)), "max": \(Double(index) + 0.999)}]}\(next)}
            """
        )
    }
    let text = "{\"chain\": \"bench\", \"handlers\": [\n" + handlers.joined(separator: ",\n") + "\n]}\n"
    let path = directory.appendingPathComponent("bench.chain.json").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

func writeCommands(_ count: Int) throws -> String {
    let path = directory.appendingPathComponent("commands.jsonl").path
    try StreamShape.flat.write(count, to: path)
    return path
}

/// Replays the stream at `streamPath` through `definition`'s chain into a trace log at `logPath` in `format`, the
/// writer waiting rather than dropping: the logs the stats rows read.
func writeTraceLog(of streamPath: String, definition: ChainDefinition, to logPath: String, format: TraceLogSink.Format)
    throws
{
    let session = try ReplaySession(definition: definition)
    var options = TraceLogSink.Options()
    options.format = format
    options.whenBehind = .block
    let sink = try TraceLogSink(path: logPath, options: options)
    _ = try session.run(try session.openStream(path: streamPath), traceLog: sink)
    try sink.close()
}

/// What JSONDecoder reads of a command line.
struct DecodedCommand: Decodable {
    var id: String
    var kind: String
    var weight: Double
    var diameter: Double
    var country: String
}

/// What JSONDecoder reads of a trace line: everything `stats` uses.
struct DecodedTrace: Decodable {
    struct Command: Decodable {
        var kind: String
        var id: String?
    }
    struct Hop: Decodable {
        var handler: String
        var decision: String
        var position: Int
        var selfNs: Int
        var inclusiveNs: Int
        var startOffsetNs: Int
    }
    struct Outcome: Decodable {
        var kind: String
        var handler: String?
    }
    var id: Int
    var chain: String
    var entry: String
    var command: Command
    var hops: [Hop]
    var outcome: Outcome
    var durationNs: Int
}

/// Reads every line of `path` with JSONDecoder as a `T`, but the trace log's format line when `skippingFormatLine`;
/// the lines read.
func decodeLines<T: Decodable>(_ path: String, as type: T.Type, skippingFormatLine: Bool = true) throws -> Int {
    let decoder = JSONDecoder()
    var count = 0
    let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    let formatLinePrefix = Array(#"{"format""#.utf8)
    var start = data.startIndex
    while let newline = data[start...].firstIndex(of: UInt8(ascii: "\n")) {
        if newline > start, !(skippingFormatLine && data[start...].starts(with: formatLinePrefix)) {
            _ = try decoder.decode(T.self, from: data[start..<newline])
            count += 1
        }
        start = newline + 1
    }
    return count
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
}

// MARK: The memory run: a child process streams a large log through `stats` and reports its peak RSS.

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--stats-only" {
    // As `chaintrace stats` reads: in parallel parts, one per core at a time.
    _ = try TraceLogProfiler().profile(paths: [CommandLine.arguments[2]])
    // VmHWM is this process image's own peak (ru_maxrss would include the parent's, inherited over fork).
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?.split(separator: " ").dropFirst().first
    print(peak.map(String.init) ?? "0")
    exit(0)
}

// `--write-shapes DIR`: writes the chain definition, the stream shapes' files and the flat stream's trace logs into
// DIR and stops, for profiling one with the `chaintrace` binary (`perf record chaintrace replay DIR/bench.chain.json
// DIR/varied.jsonl`, `perf record chaintrace stats DIR/flat.traces.v1.jsonl`).
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--write-shapes" {
    let target = URL(fileURLWithPath: CommandLine.arguments[2])
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    let chain = try ChainDefinition.load(path: try writeDefinition(in: target))
    let count = envInt("CHAINTRACE_BENCH_SHAPE_COMMANDS", 100_000)
    for shape in StreamShape.allCases {
        try shape.write(count, to: target.appendingPathComponent("\(shape.rawValue).jsonl").path)
    }
    // The flat stream's trace log in both versions, as the stats rows read them.
    let flat = target.appendingPathComponent("flat.jsonl").path
    try writeTraceLog(
        of: flat,
        definition: chain,
        to: target.appendingPathComponent("flat.traces.v1.jsonl").path,
        format: .jsonLines
    )
    try writeTraceLog(
        of: flat,
        definition: chain,
        to: target.appendingPathComponent("flat.traces.compact.jsonl").path,
        format: .compact
    )
    exit(0)
}

try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

let commandCount = envInt("CHAINTRACE_BENCH_COMMANDS", 1_000_000)
let repeats = envInt("CHAINTRACE_BENCH_REPEATS", 3)
let definitionPath = try writeDefinition(in: directory)
let commandsPath = try writeCommands(commandCount)
let logPath = directory.appendingPathComponent("traces.jsonl").path
let definition = try ChainDefinition.load(path: definitionPath)

// One replay writes the trace logs the stats runs read: version 1 (one object a trace, the row quoted in MB/s since
// the first runs) and the compact version (3) that TraceLogSink writes by default.
let compactLogPath = directory.appendingPathComponent("traces.compact.jsonl").path
try writeTraceLog(of: commandsPath, definition: definition, to: logPath, format: .jsonLines)
try writeTraceLog(of: commandsPath, definition: definition, to: compactLogPath, format: .compact)
let commandBytes = fileSize(commandsPath)
let logBytes = fileSize(logPath)
let compactLogBytes = fileSize(compactLogPath)
// The log just written is still being flushed to disk; let that finish before anything is timed.
sync()

/// `chaintrace replay` run as a user runs it, as a child process, process start and output included; seconds.
func endToEndReplay(_ binary: String) throws -> Double {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: binary)
    child.arguments = ["replay", definitionPath, commandsPath]
    child.standardOutput = FileHandle.nullDevice
    let elapsed = try seconds {
        try child.run()
        child.waitUntilExit()
    }
    precondition(child.terminationStatus == 0, "\(binary) replay exited with \(child.terminationStatus)")
    return elapsed
}
let cliPath = getenv("CHAINTRACE_BENCH_CLI").map { String(cString: $0) } ?? ".build/release/chaintrace"
let cliExists = FileManager.default.isExecutableFile(atPath: cliPath)

var replayRates: [Double] = []
var replayDecoderRates: [Double] = []
var statsRates: [Double] = []
var statsDecoderRates: [Double] = []
var parallelStatsRates: [Double] = []
var compactStatsRates: [Double] = []
var parallelCompactStatsRates: [Double] = []
var compactStatsDecoderRates: [Double] = []
var endToEndRates: [Double] = []
for _ in 0..<repeats {
    let session = try ReplaySession(definition: definition)
    var replayed = 0
    let replay = try seconds {
        replayed = try session.run(try session.openStream(path: commandsPath)).commands
    }
    precondition(replayed == commandCount)
    replayRates.append(Double(commandCount) / replay)
    replayDecoderRates.append(
        Double(commandCount) / (try seconds { _ = try decodeLines(commandsPath, as: DecodedCommand.self) })
    )
    if cliExists { endToEndRates.append(Double(commandCount) / (try endToEndReplay(cliPath))) }
    var profiled = 0
    let stats = try seconds {
        let reader = try TraceLogReader(path: logPath, payloads: false)
        var profile = ChainProfile()
        while let trace = try reader.next() { profile.add(trace) }
        profiled = profile.commands
    }
    precondition(profiled == commandCount)
    statsRates.append(Double(logBytes) / stats / 1e6)
    statsDecoderRates.append(
        Double(logBytes) / (try seconds { _ = try decodeLines(logPath, as: DecodedTrace.self) }) / 1e6
    )
    let compactStats = try seconds {
        let reader = try TraceLogReader(path: compactLogPath, payloads: false)
        var profile = ChainProfile()
        while let trace = try reader.next() { profile.add(trace) }
        profiled = profile.commands
    }
    precondition(profiled == commandCount)
    compactStatsRates.append(Double(commandCount) / compactStats)
    let profiler = TraceLogProfiler(partBytes: 4 << 20)
    parallelStatsRates.append(
        Double(logBytes)
            / (try seconds {
                profiled = try profiler.profile(paths: [logPath]).profile.commands
            }) / 1e6
    )
    precondition(profiled == commandCount)
    parallelCompactStatsRates.append(
        Double(commandCount)
            / (try seconds {
                profiled = try profiler.profile(paths: [compactLogPath]).profile.commands
            })
    )
    precondition(profiled == commandCount)
    // JSONDecoder cannot decode a trace from a compact line alone (names are earlier lines): it reads each line
    // into a JSON tree, less work than a trace.
    compactStatsDecoderRates.append(
        Double(commandCount) / (try seconds { _ = try decodeLines(compactLogPath, as: AnyJSON.self) })
    )
}

func range(_ values: [Double], _ format: (Double) -> String) -> String {
    "\(format(values.min() ?? 0))–\(format(values.max() ?? 0))"
}
let thousands = { (value: Double) in "\(Int(value / 1000))k" }
let megabytes = { (value: Double) in "\(Int(value))" }
print(
    "chaintrace CLI benchmarks — \(commandCount) commands (\(commandBytes / 1_000_000) MB), trace log \(logBytes / 1_000_000) MB, \(repeats) rounds"
)
print("")
print("| task | ChainTrace | JSONDecoder (decode only) | ratio |")
print("|---|---|---|---|")
let replayRatio = zip(replayRates, replayDecoderRates).map { $0 / $1 }
let statsRatio = zip(statsRates, statsDecoderRates).map { $0 / $1 }
print(
    "| replay: read, run 10-handler rule chain traced, profile (commands/s) | \(range(replayRates, thousands)) | \(range(replayDecoderRates, thousands)) | \(range(replayRatio) { String(format: "%.1f×", $0) }) |"
)
if cliExists {
    print(
        "| replay end to end: `chaintrace replay` process, start and output included (commands/s) | \(range(endToEndRates, thousands)) | \(range(replayDecoderRates, thousands)) | \(range(zip(endToEndRates, replayDecoderRates).map { $0 / $1 }) { String(format: "%.1f×", $0) }) |"
    )
} else {
    print("| replay end to end: skipped, no executable at \(cliPath) | | | |")
}
print(
    "| stats: read trace log v1, profile (MB/s) | \(range(statsRates, megabytes)) | \(range(statsDecoderRates, megabytes)) | \(range(statsRatio) { String(format: "%.1f×", $0) }) |"
)
print(
    "| stats: read trace log v1, profile (traces/s) | \(range(statsRates.map { $0 * 1e6 / Double(logBytes) * Double(commandCount) }, thousands)) | \(range(statsDecoderRates.map { $0 * 1e6 / Double(logBytes) * Double(commandCount) }, thousands)) | |"
)
print(
    "| stats on \(TraceLogProfiler.availableCores) threads (TraceLogProfiler, as `chaintrace stats` reads): trace log v1 (MB/s) | \(range(parallelStatsRates, megabytes)) | \(range(statsDecoderRates, megabytes)) | \(range(zip(parallelStatsRates, statsRates).map { $0 / $1 }) { String(format: "%.2f× one thread", $0) }) |"
)
print(
    "| stats on \(TraceLogProfiler.availableCores) threads: compact trace log (traces/s) | \(range(parallelCompactStatsRates, thousands)) | | \(range(zip(parallelCompactStatsRates, compactStatsRates).map { $0 / $1 }) { String(format: "%.2f× one thread", $0) }) |"
)
print(
    "| stats: read compact trace log (\(compactLogBytes / 1_000_000) MB), profile (traces/s; JSONDecoder: JSON tree only) | \(range(compactStatsRates, thousands)) | \(range(compactStatsDecoderRates, thousands)) | \(range(zip(compactStatsRates, compactStatsDecoderRates).map { $0 / $1 }) { String(format: "%.1f×", $0) }) |"
)

// MARK: Stream shapes: the replay rate on streams shaped as users' are, each beside JSONDecoder on the same bytes.

let shapeCount = envInt("CHAINTRACE_BENCH_SHAPE_COMMANDS", 100_000)
if shapeCount > 0 {
    print("")
    print(
        "Stream shapes — \(shapeCount) commands each, fixed seed; replay = read, run the chain traced, profile (in process)"
    )
    print("")
    print(
        "| shape | MB | replay (commands/s) | replay, processor time a command (µs, both threads) | replay, reading in line (commands/s) | replay with trace log (commands/s) | JSONDecoder into a JSON tree (commands/s) | replay ÷ JSONDecoder | simdjson full parse, one thread (commands/s) | simdjson first stage only, one thread (commands/s) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for shape in StreamShape.allCases {
        let path = directory.appendingPathComponent("\(shape.rawValue).jsonl").path
        try shape.write(shapeCount, to: path)
        let tracePath = directory.appendingPathComponent("\(shape.rawValue).traces.jsonl").path
        var rates: [Double] = []
        var processorTimes: [Double] = []
        var inLineRates: [Double] = []
        var tracedRates: [Double] = []
        var decoderRates: [Double] = []
        /// Commands a second replaying the shape with `options`.
        func replayRate(_ options: ReplaySession.Options, _ variant: String) throws -> Double {
            let session = try ReplaySession(definition: definition, options: options)
            var replayed = 0
            let elapsed = try seconds { replayed = try session.run(try session.openStream(path: path)).commands }
            precondition(replayed == shapeCount, "\(shape): replayed \(replayed) of \(shapeCount) \(variant)")
            return Double(shapeCount) / elapsed
        }
        /// Commands a second replaying the shape with `options` into a trace log written as `chaintrace replay
        /// --trace-out` writes it: on the replay's own threads, nothing dropped.
        func tracedRate(_ options: ReplaySession.Options) throws -> Double {
            let session = try ReplaySession(definition: definition, options: options)
            // The last round's log removed first: opening it again would truncate it inside the timing, freeing its
            // tens of megabytes there (10–15% of a 100 000-command replay's time on this machine's ext4 /tmp).
            try? FileManager.default.removeItem(atPath: tracePath)
            let elapsed = try seconds {
                var logOptions = TraceLogSink.Options()
                logOptions.writesInBackground = false
                let sink = try TraceLogSink(path: tracePath, options: logOptions)
                _ = try session.run(try session.openStream(path: path), traceLog: sink)
                try sink.close()
                precondition(sink.droppedCount == 0)
            }
            return Double(shapeCount) / elapsed
        }
        for _ in 0..<repeats {
            rates.append(try replayRate(ReplaySession.Options(), "with the defaults"))
            // Once more for the processor time alone: what both threads spend, whatever the wall clock.
            processorTimes.append(
                try processorSeconds { _ = try replayRate(ReplaySession.Options(), "for its processor time") }
                    / Double(shapeCount) * 1e6
            )
            // The same replay reading each line as it sends (no second thread), in the same round: what reading
            // ahead buys.
            var inLineOptions = ReplaySession.Options()
            inLineOptions.readsInLine = true
            inLineRates.append(try replayRate(inLineOptions, "in line"))
            tracedRates.append(try tracedRate(ReplaySession.Options()))
            var decoded = 0
            let decoding = try seconds { decoded = try decodeLines(path, as: AnyJSON.self, skippingFormatLine: false) }
            precondition(decoded == shapeCount)
            decoderRates.append(Double(shapeCount) / decoding)
        }
        let ratio = zip(rates, decoderRates).map { $0 / $1 }
        let simdjson = try simdjsonRates(path, lines: shapeCount)
        let simdjsonColumns = simdjson.map { "\(thousands($0.full)) | \(thousands($0.stage))" } ?? "not run | not run"
        print(
            "| \(shape.rawValue) | \(fileSize(path) / 1_000_000) | \(range(rates, thousands)) | \(range(processorTimes) { String(format: "%.2f", $0) }) | \(range(inLineRates, thousands)) | \(range(tracedRates, thousands)) | \(range(decoderRates, thousands)) | \(range(ratio) { String(format: "%.1f×", $0) }) | \(simdjsonColumns) |"
        )
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: tracePath)
    }
}

// MARK: Memory: grow the log to the target size, then measure a child's peak RSS over it.

let targetMegabytes = envInt("CHAINTRACE_BENCH_LOG_MB", 1024)
if targetMegabytes > 0 {
    let bigPath = directory.appendingPathComponent("big.traces.jsonl").path
    let lines = try String(contentsOfFile: logPath, encoding: .utf8).split(
        separator: "\n",
        omittingEmptySubsequences: true
    )
    let body = lines.dropFirst().joined(separator: "\n") + "\n"
    _ = FileManager.default.createFile(atPath: bigPath, contents: Data((lines[0] + "\n").utf8))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: bigPath))
    handle.seekToEndOfFile()
    let chunk = Data(body.utf8)
    var written = lines[0].utf8.count
    while written < targetMegabytes * 1_000_000 {
        handle.write(chunk)
        written += chunk.count
    }
    try handle.close()
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["--stats-only", bigPath]
    let output = Pipe()
    child.standardOutput = output
    let elapsed = try seconds {
        try child.run()
        child.waitUntilExit()
    }
    let peakKilobytes =
        Int(
            String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        ) ?? 0
    print("")
    print(
        "| memory: stats over a \(written / 1_000_000) MB log | peak RSS \(peakKilobytes / 1024) MB | \(Int(Double(written) / 1e6 / elapsed)) MB/s | target ≤ 64 MB |"
    )
}
