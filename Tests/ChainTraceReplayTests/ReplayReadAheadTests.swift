import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
@_spi(Benchmarks) import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A replay that reads its stream ahead on other threads (against `Options.readsInLine`, the default) against one that reads
/// each line as it sends: on generated streams of commands, chain changes, invalid and blank lines, longer than a
/// read-ahead batch, with invalid lines skipped or stopping the replay, decoded by the reading thread alone or
/// by the replaying thread too while it waits, from memory, a file or a pipe — the same report, or the same error.
@Suite("Replay reading ahead against reading in line", .tags(.concurrent))
struct ReplayReadAheadTests {
    static let definitionText = """
        {
          "chain": "ahead",
          "handlers": [
            { "name": "Heavy", "accepts": { "all": [ { "kind": ["Coin"] }, { "field": "weight", "min": 5 } ] }, "next": "Card" },
            { "name": "Card", "accepts": { "field": "card.type", "in": ["visa", "amex"] }, "next": "Named" },
            { "name": "Named", "accepts": { "field": "name", "matches": "^[a-z]+$" }, "next": "Light" },
            { "name": "Light", "accepts": { "field": "weight", "max": 1 } }
          ]
        }
        """

    static func line(_ random: inout SeededGenerator, inserted: inout [String]) -> String {
        switch Int.random(in: 0..<20, using: &random) {
        case 0:
            return random.pick([#"{"kind":"#, #"{"kind":5}"#, #"[1,2]"#, #"{"id":"x","fields":3}"#, "not json"])
        case 1:
            let name = "New\(inserted.count)"
            inserted.append(name)
            return #"{"change":"insert","handler":{"name":"\#(name)","accepts":{"kind":["K\#(name)"]}},"at":"first"}"#
        case 2 where !inserted.isEmpty:
            return #"{"change":"remove","handler":"\#(inserted.removeLast())"}"#
        case 3:
            // A change the chain cannot make: an error from the chain, not the line.
            return #"{"change":"remove","handler":"Nobody"}"#
        default:
            var members = [#""id":"c\#(Int.random(in: 0...9_999, using: &random))""#]
            if random.chance(0.7) { members.append(#""kind":"\#(random.pick(["Coin", "Token", "KNew0"]))""#) }
            if random.chance(0.6) {
                members.append(#""weight":\#(Double(Int.random(in: -20...200, using: &random)) / 10)"#)
            }
            if random.chance(0.3) { members.append(#""card":{"type":"\#(random.pick(["visa", "amex", "diners"]))"}"#) }
            if random.chance(0.3) { members.append(#""name":"\#(random.pick(["ada", "Ada", "zed", "ünï"]))""#) }
            members.shuffle(using: &random)
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    struct Outcome: Equatable {
        var commands = 0
        var changes = 0
        var invalidLineCount = 0
        var invalidLines: [String] = []
        var paths: [String] = []
        var handlers: [String] = []
        /// What the trace log was handed, trace by trace: the command, its path and outcome, and its payload as
        /// text (a line's fields, or "-")…
        var logged: [String] = []
        /// … and as a value.
        var loggedPayloads: [JSONValue?] = []
        var error: String?
    }

    /// Where a replay reads its stream from.
    enum Source {
        case memory
        /// A file of this path.
        case file(String)
        /// A named pipe of this path, written by another thread while the replay reads it.
        case pipe(String)
    }

    func replay(
        _ bytes: [UInt8],
        readsAhead: Bool,
        skips: Bool,
        helps: Bool = true,
        batchSize: Int = 1024,
        batchBytes: Int? = nil,
        from source: Source = .memory,
        logs: Bool = false,
        warmUp: Int = 64
    ) throws -> Outcome {
        let definition = try ChainDefinition.load(bytes: Array(Self.definitionText.utf8), file: "ahead.json")
        var options = ReplaySession.Options()
        options.readsInLine = !readsAhead
        options.skipsInvalidLines = skips
        options.keptPaths = .max
        options.readAheadBatchSize = batchSize
        options.readAheadBatchBytes = batchBytes
        options.warmUpCommands = warmUp
        let session = try ReplaySession(definition: definition, options: options)
        var outcome = Outcome()
        do {
            let stream: CommandStreamReader
            switch source {
            case .memory:
                stream = session.openStream(bytes: bytes, name: "ahead.jsonl")
            case .file(let path):
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                stream = try session.openStream(path: path)
            case .pipe(let path):
                unlink(path)
                guard mkfifo(path, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
                let writer = Thread { try? Data(bytes).write(to: URL(fileURLWithPath: path)) }
                writer.start()
                stream = try session.openStream(path: path)
            }
            let log = InMemoryTraceSink()
            let report = try session.run(stream, traceLog: logs ? log : nil)
            outcome.logged = log.traces.map {
                let text = $0.encodedPayload?.text.map { String(decoding: $0, as: UTF8.self) } ?? "-"
                return "\($0.commandID ?? "-") \($0.commandKind) \($0.path) \($0.outcome) v\($0.chainVersion) \(text)"
            }
            outcome.loggedPayloads = log.traces.map(\.payload)
            outcome.commands = report.commands
            outcome.changes = report.changes
            outcome.invalidLineCount = report.invalidLineCount
            outcome.invalidLines = report.invalidLines.map(\.description)
            outcome.paths = report.paths.map {
                "\($0.line) \($0.trace.commandID ?? "-") \($0.trace.path) \($0.trace.outcome) v\($0.trace.chainVersion)"
            }
            outcome.handlers = report.profile.handlers.map {
                "\($0.handler): seen \($0.seen), accepted \($0.accepted), passed \($0.passed), failed \($0.failed)"
            }
        } catch {
            outcome.error = "\(error)"
        }
        return outcome
    }

    /// A generated stream: lines joined by newlines (now and then CR LF), with blank lines here and there, and now
    /// and then no newline after the last.
    static func stream(_ random: inout SeededGenerator, count: Int) -> [UInt8] {
        var inserted: [String] = []
        var text = ""
        for _ in 0..<count {
            if random.chance(0.03) { text += random.pick(["", "  ", "\t"]) + "\n" }
            text += line(&random, inserted: &inserted) + (random.chance(0.05) ? "\r\n" : "\n")
        }
        if random.chance(0.2) { text.removeLast() }
        return Array(text.utf8)
    }

    @Test(arguments: SeededGenerator.seeds(24))
    func readingAheadChangesNothing(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var inserted: [String] = []
        let count = Int.random(in: 1...1_500, using: &random)
        let lines = (0..<count).map { _ in Self.line(&random, inserted: &inserted) }
        // Now and then a torn last line, with no newline.
        let bytes = Array(lines.joined(separator: "\n").utf8) + (random.chance(0.8) ? [UInt8(ascii: "\n")] : [])
        for skips in [true, false] {
            let ahead = try replay(bytes, readsAhead: true, skips: skips)
            let inLine = try replay(bytes, readsAhead: false, skips: skips)
            #expect(ahead == inLine, "seed \(seed), skips \(skips)")
            #expect(ahead.commands + ahead.changes + ahead.invalidLineCount > 0 || ahead.error != nil, "seed \(seed)")
        }
    }

    /// Small batches, so that a short stream is cut into many, read by the reading thread and (while it is behind)
    /// the replaying thread.
    @Test(arguments: SeededGenerator.seeds(32))
    func decodingOnBothThreadsChangesNothing(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let bytes = Self.stream(&random, count: Int.random(in: 1...600, using: &random))
        for skips in [true, false] {
            let inLine = try replay(bytes, readsAhead: false, skips: skips)
            let helps = random.chance(0.7)
            let batchSize = Int.random(in: 1...40, using: &random)
            // Later batches sized in bytes half the time: then they hold other counts of lines than the first.
            let batchBytes = random.chance(0.5) ? Int.random(in: 1...3_000, using: &random) : nil
            let ahead = try replay(
                bytes,
                readsAhead: true,
                skips: skips,
                helps: helps,
                batchSize: batchSize,
                batchBytes: batchBytes
            )
            #expect(
                ahead == inLine,
                "seed \(seed), skips \(skips), helping \(helps), batches of \(batchSize), \(batchBytes.map(String.init) ?? "-") bytes"
            )
        }
    }

    /// Lines far longer than a batch's others (a long string field), read by two threads that step over each
    /// other's batches, across the reader's 256 KiB chunks: the same report as reading in line, from memory and
    /// from a file.
    @Test(arguments: SeededGenerator.seeds(12))
    func linesLongerThanABatchReadAheadAsInLine(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var inserted: [String] = []
        var text = ""
        for _ in 0..<Int.random(in: 20...300, using: &random) {
            var line = Self.line(&random, inserted: &inserted)
            if random.chance(0.1), line.hasPrefix("{\"id\"") || line.hasPrefix("{\"") && line.hasSuffix("}") {
                // A long member in front: a valid command stays valid, an invalid line stays invalid.
                let note = String(
                    repeating: random.pick(["x", "é", "\\n"]),
                    count: Int.random(in: 1_000...120_000, using: &random)
                )
                line = "{\"note\":\"\(note)\"," + line.dropFirst()
            }
            text += line + (random.chance(0.03) ? "\n\n" : "\n")
        }
        let bytes = Array(text.utf8)
        let skips = random.chance(0.6)
        let inLine = try replay(bytes, readsAhead: false, skips: skips)
        let batchSize = Int.random(in: 1...20, using: &random)
        // Later batches sized in bytes half the time: then they hold other counts of lines than the first.
        let batchBytes = random.chance(0.5) ? Int.random(in: 1...3_000, using: &random) : nil
        let fromMemory = try replay(bytes, readsAhead: true, skips: skips, batchSize: batchSize, batchBytes: batchBytes)
        #expect(fromMemory == inLine, "seed \(seed), skips \(skips), batches of \(batchSize)")
        let file = TestFiles.directory.appendingPathComponent("ahead-long-\(seed).jsonl").path
        var fromFile = try replay(
            bytes,
            readsAhead: true,
            skips: skips,
            batchSize: batchSize,
            batchBytes: batchBytes,
            from: .file(file)
        )
        fromFile.error = fromFile.error?.replacingOccurrences(of: file, with: "ahead.jsonl")
        fromFile.invalidLines = fromFile.invalidLines.map { $0.replacingOccurrences(of: file, with: "ahead.jsonl") }
        #expect(fromFile == inLine, "seed \(seed), file, skips \(skips), batches of \(batchSize)")
    }

    /// A stream in a file is opened again by each further decoding thread; one in a pipe cannot be, and is read by
    /// one thread — not opened twice, which would split its lines between two readers.
    @Test(arguments: SeededGenerator.seeds(8))
    func filesAndPipesReadAheadAsMemoryReadsInLine(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let bytes = Self.stream(&random, count: Int.random(in: 50...400, using: &random))
        let skips = random.chance(0.5)
        let inLine = try replay(bytes, readsAhead: false, skips: skips)
        let batchSize = Int.random(in: 1...30, using: &random)
        // Later batches sized in bytes half the time: then they hold other counts of lines than the first.
        let batchBytes = random.chance(0.5) ? Int.random(in: 1...3_000, using: &random) : nil
        let file = TestFiles.directory.appendingPathComponent("ahead-\(seed).jsonl").path
        let fromFile = try replay(
            bytes,
            readsAhead: true,
            skips: skips,
            batchSize: batchSize,
            batchBytes: batchBytes,
            from: .file(file)
        )
        let pipe = TestFiles.directory.appendingPathComponent("ahead-\(seed).fifo").path
        let fromPipe = try replay(
            bytes,
            readsAhead: true,
            skips: skips,
            batchSize: batchSize,
            batchBytes: batchBytes,
            from: .pipe(pipe)
        )
        // Errors name the file read: the memory stream's name in its place.
        let named = { (outcome: Outcome, path: String) -> Outcome in
            var outcome = outcome
            outcome.error = outcome.error?.replacingOccurrences(of: path, with: "ahead.jsonl")
            outcome.invalidLines = outcome.invalidLines.map { $0.replacingOccurrences(of: path, with: "ahead.jsonl") }
            return outcome
        }
        #expect(named(fromFile, file) == inLine, "seed \(seed), file")
        #expect(named(fromPipe, pipe) == inLine, "seed \(seed), pipe")
    }

    /// The lines a read-ahead hands out, as reading the stream in line gives them: every entry in order, and
    /// nothing after the first invalid line unless reading goes on past errors (another thread may already have
    /// read lines beyond it). From memory and from a file, which the second reader opens again.
    @Test(arguments: SeededGenerator.seeds(48))
    func readAheadHandsOutWhatReadingInLineReads(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let bytes = Self.stream(&random, count: Int.random(in: 1...500, using: &random))
        let definition = try ChainDefinition.load(bytes: Array(Self.definitionText.utf8), file: "ahead.json")
        let session = try ReplaySession(definition: definition)
        struct Summary: Equatable {
            var line: Int
            var item: CommandStreamReader.Item?
            var error: String?
        }
        func summary(_ entry: CommandReadAhead.Entry) -> Summary {
            Summary(line: entry.line, item: entry.item, error: entry.error.map { "\($0)" })
        }
        for readsPastErrors in [true, false] {
            let plain = session.openStream(bytes: bytes, name: "ahead.jsonl")
            var expected: [Summary] = []
            while let entry = CommandReadAhead.Entry.read(from: plain) {
                expected.append(summary(entry))
                if entry.error != nil, !readsPastErrors { break }
            }
            let helps = random.chance(0.7)
            let batchSize = Int.random(in: 1...25, using: &random)
            // Later batches sized in bytes half the time: then they hold other counts of lines than the first.
            let batchBytes = random.chance(0.5) ? Int.random(in: 1...3_000, using: &random) : nil
            let file = TestFiles.directory.appendingPathComponent("ahead-entries-\(seed).jsonl").path
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            for fromFile in [false, true] {
                let ahead = CommandReadAhead(
                    fromFile
                        ? try session.openStream(path: file) : session.openStream(bytes: bytes, name: "ahead.jsonl"),
                    readsPastErrors: readsPastErrors,
                    batchSize: batchSize,
                    batchBytes: batchBytes,
                    batchesAhead: Int.random(in: 1...3, using: &random),
                    callerDecodes: helps
                )
                var read: [Summary] = []
                while let entry = ahead.next() {
                    var entry = summary(entry)
                    entry.error = entry.error?.replacingOccurrences(of: file, with: "ahead.jsonl")
                    read.append(entry)
                }
                ahead.finish()
                #expect(
                    read == expected,
                    "seed \(seed), past errors \(readsPastErrors), helping \(helps), batches of \(batchSize), from a file \(fromFile)"
                )
            }
        }
    }

    /// The caller gets a second reader only for a stream that reads the same when opened twice — a regular file or
    /// bytes in memory — and once its first line showed it is no trace log; not for a pipe, a gzip file, a trace
    /// log, or a stream that ends within the first batch.
    @Test func aSecondReaderOnlyWhereTheStreamCanBeReadTwice() throws {
        let definition = try ChainDefinition.load(bytes: Array(Self.definitionText.utf8), file: "ahead.json")
        let session = try ReplaySession(definition: definition)
        let lines = Array(
            (0..<50).map { #"{"kind":"Coin","id":"c\#($0)","weight":\#($0)}"# }.joined(separator: "\n").utf8
        )
        func hasReader(_ stream: CommandStreamReader) -> Bool {
            let ahead = CommandReadAhead(stream, readsPastErrors: false, batchSize: 8)
            defer { ahead.finish() }
            while ahead.next() != nil {}
            return ahead.callerHasReader
        }
        #expect(hasReader(session.openStream(bytes: lines)))
        #expect(!hasReader(session.openStream(bytes: Array(lines.prefix(100)))), "ends within the first batch")
        let file = TestFiles.directory.appendingPathComponent("second-reader.jsonl").path
        try Data(lines).write(to: URL(fileURLWithPath: file))
        #expect(hasReader(try session.openStream(path: file)))
        // The same lines gzip-compressed: each reader would decompress all of it.
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", "-kf", file]
        try gzip.run()
        gzip.waitUntilExit()
        #expect(!hasReader(try session.openStream(path: file + ".gz")))
        // A pipe reads its bytes once.
        let pipe = TestFiles.directory.appendingPathComponent("second-reader.fifo").path
        unlink(pipe)
        #expect(mkfifo(pipe, 0o600) == 0)
        let writer = Thread { try? Data(lines).write(to: URL(fileURLWithPath: pipe)) }
        writer.start()
        #expect(!hasReader(try session.openStream(path: pipe)))
        // A recorded trace log: its commands are read from traces.
        let log = TestFiles.directory.appendingPathComponent("second-reader.traces.jsonl").path
        let sink = try TraceLogSink(path: log)
        _ = try session.run(session.openStream(bytes: lines), traceLog: sink)
        try sink.close()
        #expect(!hasReader(try session.openStream(path: log)))
    }

    /// Reading stops at the first invalid line even when the caller, while the thread read the batch holding it,
    /// already read the next batch itself: that batch is not handed out. (The caller wants the second batch as
    /// soon as it has taken the first, read in the constructor, before the thread can have read 2 000 lines.)
    @Test func nothingPastTheInvalidLineThatStopsTheReading() throws {
        let definition = try ChainDefinition.load(bytes: Array(Self.definitionText.utf8), file: "ahead.json")
        let session = try ReplaySession(definition: definition)
        let size = 2_000
        var lines = (0..<(3 * size)).map { #"{"kind":"Coin","id":"c\#($0)","weight":\#($0 % 10)}"# }
        lines[2 * size - 1] = "not json"
        for round in 0..<5 {
            let ahead = CommandReadAhead(
                session.openStream(bytes: Array(lines.joined(separator: "\n").utf8)),
                readsPastErrors: false,
                batchSize: size,
                batchesAhead: 4
            )
            var count = 0
            var last: CommandReadAhead.Entry?
            while let entry = ahead.next() {
                count += 1
                last = entry
            }
            ahead.finish()
            #expect(count == 2 * size, "round \(round)")
            #expect(last?.error?.line == 2 * size, "round \(round)")
        }
    }
}
