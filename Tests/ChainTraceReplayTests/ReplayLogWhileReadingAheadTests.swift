import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
@_spi(Benchmarks) import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A replay that reads ahead while it writes a trace log hands the log's traces to the reading thread in batches,
/// recorded there whenever it would wait or on the replaying thread when it is behind (`LogBatches`). Against a
/// replay that reads in line and records each trace as it is made, on generated streams of commands, chain changes
/// and invalid lines, cut into small batches so that both threads record: the sink is called with the same traces
/// and changes in the same order, never by two threads at once, and the report (or the error) is the same.
@Suite("A trace log written while reading ahead")
struct ReplayLogWhileReadingAheadTests {
    /// Writes down every call, in order: a trace's command, path, outcome, chain version and payload text, or a
    /// change; and whether a call ever began while another was under way.
    final class OrderSink: TraceSink, @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [String] = []
        private var inside = 0
        private var overlapped = false
        /// Each trace's command and path, as a trace log reads back.
        private(set) var traces: [String] = []

        func record(_ trace: Trace) {
            lock.withLock { traces.append("\(trace.commandID ?? "-") \(trace.commandKind) \(trace.path)") }
            let text = trace.encodedPayload?.text.map { String(decoding: $0, as: UTF8.self) } ?? "-"
            note(
                "\(trace.commandID ?? "-") \(trace.commandKind) \(trace.path) \(trace.outcome) v\(trace.chainVersion) \(text)"
            )
        }

        func record(_ edit: ChainEdit) {
            note("change \(edit.kind) \(edit.handler) v\(edit.version)")
        }

        private func note(_ call: String) {
            lock.withLock {
                inside += 1
                if inside > 1 { overlapped = true }
            }
            lock.withLock { calls.append(call) }
            lock.withLock { inside -= 1 }
        }

        var written: (calls: [String], overlapped: Bool) { lock.withLock { (calls, overlapped) } }
    }

    struct Outcome: Equatable {
        var calls: [String] = []
        var commands = 0
        var changes = 0
        var invalidLines: [String] = []
        var error: String?
    }

    func replay(
        _ bytes: [UInt8],
        readsAhead: Bool,
        skips: Bool,
        helps: Bool = true,
        batchSize: Int = 1024,
        batchBytes: Int? = nil,
        logBatch: (size: Int, queued: Int) = (64, 4)
    ) throws -> (Outcome, overlapped: Bool) {
        let definition = try ChainDefinition.load(
            bytes: Array(ReplayReadAheadTests.definitionText.utf8),
            file: "ahead.json"
        )
        var options = ReplaySession.Options()
        options.readsInLine = !readsAhead
        options.skipsInvalidLines = skips
        options.readAheadBatchSize = batchSize
        options.readAheadBatchBytes = batchBytes
        (options.logBatchSize, options.logBatchesQueued) = logBatch
        let session = try ReplaySession(definition: definition, options: options)
        let sink = OrderSink()
        var outcome = Outcome()
        do {
            let report = try session.run(session.openStream(bytes: bytes, name: "ahead.jsonl"), traceLog: sink)
            outcome.commands = report.commands
            outcome.changes = report.changes
            outcome.invalidLines = report.invalidLines.map(\.description)
        } catch {
            outcome.error = "\(error)"
        }
        let (calls, overlapped) = sink.written
        outcome.calls = calls
        return (outcome, overlapped)
    }

    @Test(arguments: SeededGenerator.seeds(32))
    func theLogGetsWhatReadingInLineGivesIt(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let bytes = ReplayReadAheadTests.stream(&random, count: Int.random(in: 1...2_000, using: &random))
        for skips in [true, false] {
            let (inLine, _) = try replay(bytes, readsAhead: false, skips: skips)
            let helps = random.chance(0.7)
            let batchSize = Int.random(in: 1...40, using: &random)
            let batchBytes = random.chance(0.5) ? Int.random(in: 1...3_000, using: &random) : nil
            // Batches of a few traces, a few left queued: both threads record, with work waiting in between.
            let logBatch = (size: Int.random(in: 1...8, using: &random), queued: Int.random(in: 0...3, using: &random))
            let (ahead, overlapped) = try replay(
                bytes,
                readsAhead: true,
                skips: skips,
                helps: helps,
                batchSize: batchSize,
                batchBytes: batchBytes,
                logBatch: logBatch
            )
            let context =
                "seed \(seed), skips \(skips), helping \(helps), batches of \(batchSize), \(batchBytes.map(String.init) ?? "-") bytes, log batches \(logBatch)"
            #expect(ahead == inLine, "\(context)")
            #expect(!overlapped, "\(context)")
            // Every command replayed is in the log, and only those.
            if ahead.error == nil {
                #expect(ahead.calls.filter { !$0.hasPrefix("change ") }.count == ahead.commands, "\(context)")
            }
        }
    }

    /// `chaintrace replay --trace-out`'s sink (written on the replay's threads, not a writer of its own): the log
    /// reads back with every command's trace, in order, and its changes.
    @Test(arguments: SeededGenerator.seeds(6))
    func aLogFileWrittenWhileReadingAheadReadsBackWhole(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let bytes = ReplayReadAheadTests.stream(&random, count: Int.random(in: 200...3_000, using: &random))
        let definition = try ChainDefinition.load(
            bytes: Array(ReplayReadAheadTests.definitionText.utf8),
            file: "ahead.json"
        )
        var options = ReplaySession.Options()
        options.skipsInvalidLines = true
        options.readAheadBatchSize = Int.random(in: 1...40, using: &random)
        options.readAheadBatchBytes = nil
        options.logBatchSize = Int.random(in: 1...8, using: &random)
        options.logBatchesQueued = Int.random(in: 0...3, using: &random)
        let session = try ReplaySession(definition: definition, options: options)
        let path = TestFiles.directory.appendingPathComponent("ahead-\(seed).traces.jsonl").path
        try? FileManager.default.removeItem(atPath: path)
        var logOptions = TraceLogSink.Options()
        logOptions.writesInBackground = false
        let sink = try TraceLogSink(path: path, options: logOptions)
        let order = OrderSink()
        let report = try session.run(session.openStream(bytes: bytes, name: "ahead.jsonl"), traceLog: sink)
        try sink.close()
        // A session of its own, reading in line: the first one's chain has the stream's changes made.
        options.readsInLine = true
        let inLine = try ReplaySession(definition: definition, options: options)
        _ = try inLine.run(inLine.openStream(bytes: bytes, name: "ahead.jsonl"), traceLog: order)
        let expected = order.traces
        let reader = try TraceLogReader(path: path)
        var read: [String] = []
        while let trace = try reader.next() {
            read.append("\(trace.commandID ?? "-") \(trace.commandKind) \(trace.path)")
        }
        #expect(read.count == report.commands, "seed \(seed)")
        #expect(read == expected, "seed \(seed)")
    }
}
