public import ChainTrace
import ChainTraceAnalysis
public import ChainTraceDefinitions
import ChainTraceFastPath
import ChainTraceFiles
import ChainTraceJSON
public import ChainTraceTraceLog

/// Replays a command stream through a chain built from a definition — the engine of `chaintrace replay`.
///
/// Every command goes through a real `Chain`, recorded as a recorder would record it, so replayed timings are
/// measured the same way as in an app. Chain changes in the stream are made in order.
///
/// ```swift
/// let session = try ReplaySession(definition: try ChainDefinition.load(path: "chain.json"))
/// let report = try session.run(try CommandStreamReader(path: "commands.jsonl"))
/// print(report.profile.accepted, "of", report.commands, "accepted")
/// ```
public final class ReplaySession {
    /// How a replay behaves.
    public struct Options: Sendable {
        /// Report and count invalid lines, then go on, instead of stopping at the first.
        public var skipsInvalidLines = false
        /// How many commands' paths the report keeps.
        public var keptPaths = 1_000
        /// The app's handler types; any other `"type"` is modelled from its rules.
        public var types = HandlerTypes()
        /// Reads each line as its command is sent, on this thread, instead of reading ahead on a second one: the
        /// plain path that reading ahead is checked against (`ReplayReadAheadTests` and the other differential
        /// tests) and the benchmark's "in line" column. Not for users (SPI): the result is the same, only slower.
        @_spi(Benchmarks) public var readsInLine = false
        /// Lines in the first batch read ahead (small in tests, to exercise the hand-over).
        package var readAheadBatchSize = 1024
        /// About how many bytes of lines each later batch read ahead holds (see ``CommandReadAhead``), or `nil`
        /// for `readAheadBatchSize` lines in every batch.
        package var readAheadBatchBytes: Int? = 96 * 1024
        /// Traces handed to the reading thread at once for the trace log (small in tests, to exercise both threads
        /// recording).
        package var logBatchSize = 64
        /// Batches of traces left queued for the reading thread before the replaying thread records the oldest.
        package var logBatchesQueued = 4
        /// The recorded chain whose commands a trace log replays, and whose traces an expected log compares:
        /// `nil` (the default) for the definition's own. Another names the chain a log was recorded on when the
        /// definition is another configuration of it (`app-a`'s sessions replayed through `app-b`).
        public var recordedChain: String?
        /// How many of the stream's first commands (those before its first change or invalid line) are sent once,
        /// untimed, before the replay starts, through a chain made from the definition without its `work` and
        /// with no handler type of the app's (so none of the app's code runs twice). A process's first commands
        /// otherwise pay for what runs for the first time — code paged in, the runtime's first lookups — in the
        /// self time of whichever handler met it, which then looked slow in a short replay. `0`: none.
        public var warmUpCommands = 64

        /// The defaults: stop at an invalid line, keep 1000 paths, warm up with up to 64 commands.
        public init() {}
    }

    /// The chain commands are replayed through.
    public let chain: Chain<JSONCommand, JSONValue>
    /// The definition it was built from.
    public let definition: ChainDefinition
    /// The options.
    public let options: Options
    /// The fields the definition's rules read, in slots: a stream read with it gives the chain's rules those
    /// fields without a lookup.
    package let schema: FieldSchema

    /// Builds the chain.
    ///
    /// - Throws: `FormatError` when the definition cannot make a chain.
    public init(definition: ChainDefinition, options: Options = Options()) throws(FormatError) {
        self.definition = definition
        self.options = options
        schema = FieldSchema(for: definition)
        chain = try definition.makeChain(types: options.types, unknownTypes: .modelFromRules, schema: schema)
    }

    /// Opens the command stream at `path` for this session: commands carry the fields the definition's rules
    /// read in slots, so the rules test them without looking them up (a plain `CommandStreamReader` gives the
    /// same results, more slowly). A trace log gives the commands of one recorded chain only (``recordedChain``,
    /// ``CommandStreamReader/onlyChain``).
    public func openStream(path: String) throws(FormatError) -> CommandStreamReader {
        let reader = try CommandStreamReader(path: path, schema: schema)
        reader.onlyChain = recordedChain
        return reader
    }

    /// Opens a recorded trace log of several files, directories or patterns, read as one log, whose commands are
    /// replayed — as ``openStream(path:)`` reads a trace log of one file.
    ///
    /// - Throws: `FormatError` when a path cannot be opened or matches no log file.
    public func openTraceLog(paths: [String]) throws(FormatError) -> CommandStreamReader {
        let reader = try CommandStreamReader(traceLogAt: paths, schema: schema)
        reader.onlyChain = recordedChain
        return reader
    }

    /// Reads a command stream held in memory for this session, as ``openStream(path:)`` does a file; `name`
    /// stands for the file in errors.
    public func openStream(bytes: [UInt8], name: String = "<memory>") -> CommandStreamReader {
        let reader = CommandStreamReader(bytes: bytes, name: name, schema: schema)
        reader.onlyChain = recordedChain
        return reader
    }

    /// Replays every command of `stream`.
    ///
    /// - Parameters:
    ///   - stream: The commands and chain changes, read to the end.
    ///   - traceLog: Where each trace also goes; payloads are captured when given.
    ///   - expected: A recorded log to compare each command's path with: its traces of ``recordedChain`` (the
    ///     others are counted in ``ReplayReport/expectedOfOtherChains``).
    ///   - progress: Called now and then with the bytes of the stream read so far.
    /// - Throws: `FormatError` for the first invalid line, unless invalid lines are skipped.
    public func run(
        _ stream: CommandStreamReader,
        traceLog: (any TraceSink)? = nil,
        expected: TraceLogReader? = nil,
        progress: ((Int) -> Void)? = nil
    ) throws(FormatError) -> ReplayReport {
        var report = ReplayReport()
        report.profile.declareHandlers(of: definition)
        var matcher = expected.map { _ in TraceMatcher() }
        var count = 0
        let thread = SendingThread.current
        // Unwrapped once: calling the optional sink per command copies the existential each time.
        let record: ((Trace) -> Void)? = traceLog.map { sink in { sink.record($0) } }
        // The stream's chain changes go into the log too, as an app's chain edits do: a log says what chain its
        // traces ran on.
        chain.changeSink = traceLog
        defer { chain.changeSink = nil }
        // The stream is read and decoded on a second thread while this one replays, and decoded here too while
        // that thread is behind: it buys 1.3–1.5× on a million-command stream and 1.5–2× with a trace log
        // (`chaintrace-cli-benchmarks`, "replay" and "with trace log" columns). The stream is the read-ahead's until
        // it finishes. A trace log's traces go to the reading thread in batches (`LogBatches`), recorded there when
        // it would otherwise wait and here when it is behind, so the two threads share decoding and writing — unless
        // the sink writes on a thread of its own, whose queues are per recording thread: then they are recorded
        // here, in order.
        // The file every line of a stream of one file is in (a trace log of several names each line's file).
        let streamFile = stream.file
        let readAhead =
            options.readsInLine
            ? nil
            : CommandReadAhead(
                stream,
                readsPastErrors: options.skipsInvalidLines,
                batchSize: options.readAheadBatchSize,
                batchBytes: options.readAheadBatchBytes,
                callerDecodes: true
            )
        var logBatches =
            Self.writesOnAThreadOfItsOwn(traceLog)
            ? nil
            : readAhead.flatMap { readAhead in
                traceLog.map {
                    LogBatches(
                        sink: $0,
                        readAhead: readAhead,
                        batchSize: options.logBatchSize,
                        batchesQueued: options.logBatchesQueued
                    )
                }
            }
        defer {
            readAhead?.finish()
            // Every trace made is recorded, however the replay ends.
            logBatches?.recordAll()
        }
        let read = { readAhead.map { $0.next() } ?? CommandReadAhead.Entry.read(from: stream) }
        // Known once the first line is read; the stream is only asked when no other thread reads it.
        let readsTraceLog = { readAhead?.readsTraceLog ?? stream.isTraceLog }
        // Read for the warm-up, then replayed first, in order.
        let early = warmUp(reading: read, on: thread)
        var nextEarly = 0
        reading: while true {
            let entry: CommandReadAhead.Entry
            if nextEarly < early.count {
                entry = early[nextEarly]
                nextEarly += 1
            } else {
                guard let next = read() else { break reading }
                entry = next
            }
            if let error = entry.error {
                try reject(error, into: &report)
                continue
            }
            count += 1
            if count & 0x3FFF == 0 { progress?(readAhead?.bytesRead ?? stream.bytesRead) }
            let line = entry.line
            let file = entry.file ?? streamFile
            let entryFile = entry.file
            switch entry.item {
            case nil:
                continue
            case .change(let change)?:
                // The traces before the change go into the log before it.
                logBatches?.recordAll()
                do {
                    try change.apply(
                        to: chain,
                        definition: definition,
                        types: options.types,
                        unknownTypes: .modelFromRules,
                        schema: schema
                    )
                    report.changes += 1
                } catch let error as FormatError {
                    try reject(error, into: &report)
                } catch {
                    if let located = entry.changeSites?.located(error, file: file) {
                        try reject(located, into: &report)
                        continue
                    }
                    try reject(
                        FormatError(
                            file: file,
                            line: line,
                            column: 0,
                            expected: "a change the chain can make",
                            found: "\(error)"
                        ),
                        into: &report
                    )
                }
            case .command(let command)?:
                var trace: Trace
                let keepsPath = report.paths.count < options.keptPaths
                do {
                    // The id is only made for traces that leave this loop (kept, logged or compared): the
                    // profile does not read it, and making it is a good share of a command's cost.
                    let leaves = keepsPath || traceLog != nil || expected != nil
                    // A logged command's payload is its line's text when it can be (not parsed into a tree again),
                    // and keeps a long id too, which the trace then reads from it when asked.
                    let (text, keepsID) = traceLog == nil ? (nil, false) : command.fieldsText(keepingID: true)
                    let description = (
                        kind: command.kind, id: leaves && !keepsID ? command.id : nil,
                        payload: traceLog == nil || text != nil ? nil : command.fields
                    )
                    do {
                        trace = try chain.sendForTrace(
                            command,
                            from: command.entry,
                            describedAs: description,
                            on: thread
                        )
                    } catch
                        where error.code == .unknownHandler && error.handlers.first == command.entry && readsTraceLog()
                    {
                        // A recorded command that entered at a handler a change made while recording added (the
                        // replay does not make those changes): it goes in at the chain's own entry, counted.
                        report.commandsWithUnknownEntry += 1
                        trace = try chain.sendForTrace(command, from: nil, describedAs: description, on: thread)
                    }
                    if let text { trace.attach(text) }
                } catch {
                    // An entry the chain lacks is named where the line gives it.
                    let namesEntry = command.entry != nil && error.handlers.first == command.entry
                    try reject(
                        FormatError(
                            file: file,
                            line: line,
                            column: namesEntry ? command.entryColumn : 0,
                            expected: "a command the chain can take",
                            found: "\(error)"
                        ),
                        into: &report
                    )
                    continue
                }
                report.commands += 1
                report.profile.add(trace)
                if logBatches != nil {
                    logBatches?.add(trace)
                } else {
                    record?(trace)
                }
                if keepsPath {
                    report.paths.append(ReplayedCommand(line: line, file: entryFile, trace: trace))
                }
                if let expected {
                    let recorded = try nextExpected(expected, into: &report)
                    let expectedFile = expected.files.count > 1 ? expected.file : nil
                    matcher?.add(
                        first: recorded.map { ($0, expected.line, expectedFile) },
                        second: (trace, line, entryFile)
                    )
                }
                // Unless something above kept it, the next command's trace reuses its storage.
                var spent: Trace? = consume trace
                Trace.recycle(&spent, on: thread)
                logBatches?.refillOne(on: thread)
            }
        }
        if let expected, matcher != nil {
            while let recorded = try nextExpected(expected, into: &report) {
                matcher?.add(
                    first: (recorded, expected.line, expected.files.count > 1 ? expected.file : nil),
                    second: nil
                )
            }
            matcher?.finish()
        }
        report.comparison = matcher
        report.profile.settle()
        readAhead?.finish()
        report.tornTail = stream.tornTail
        return report
    }

    /// Whether `sink` hands traces to a writing thread of its own, through a queue per recording thread.
    private static func writesOnAThreadOfItsOwn(_ sink: (any TraceSink)?) -> Bool {
        (sink as? TraceLogSink)?.options.writesInBackground ?? false
    }

    /// Reads up to ``Options/warmUpCommands`` commands, stopping at the stream's first change or invalid line,
    /// and sends them once through a chain of the definition without its `work` or the app's handler types,
    /// traced as the replay traces but kept nowhere; returns every entry it read, for the replay.
    private func warmUp(
        reading read: () -> CommandReadAhead.Entry?,
        on thread: SendingThread
    ) -> [CommandReadAhead.Entry] {
        guard options.warmUpCommands > 0 else { return [] }
        var early: [CommandReadAhead.Entry] = []
        var commands: [JSONCommand] = []
        while commands.count < options.warmUpCommands, let entry = read() {
            early.append(entry)
            guard entry.error == nil else { break }
            // A blank line.
            guard let item = entry.item else { continue }
            // A change: the commands after it may need it.
            guard case .command(let command) = item else { break }
            commands.append(command)
        }
        guard !commands.isEmpty else { return early }
        var unworked = definition
        unworked.handlers = unworked.handlers.map(Self.withoutWork)
        guard
            let scratch = try? unworked.makeChain(types: HandlerTypes(), unknownTypes: .modelFromRules, schema: schema)
        else { return early }
        for command in commands { scratch.sendToWarmUp(command, from: command.entry, on: thread) }
        return early
    }

    /// `handler` (and its registry's members) without simulated work.
    private static func withoutWork(_ handler: HandlerDefinition) -> HandlerDefinition {
        var handler = handler
        handler.work = nil
        handler.members = handler.members?.map(withoutWork)
        return handler
    }

    /// The recorded chain whose commands and traces a replay takes: ``Options/recordedChain``, else the
    /// definition's.
    public var recordedChain: String { options.recordedChain ?? definition.name }

    /// The expected log's next trace of the recorded chain; those of other chains (a log recorded in an app holds
    /// every chain its recorder saw) are counted and stepped over, as the stream's are.
    private func nextExpected(_ expected: TraceLogReader, into report: inout ReplayReport) throws(FormatError) -> Trace?
    {
        while let recorded = try expected.next() {
            if recorded.chain == recordedChain { return recorded }
            report.expectedOfOtherChains[recorded.chain, default: 0] += 1
        }
        return nil
    }

    private func reject(_ error: FormatError, into report: inout ReplayReport) throws(FormatError) {
        guard options.skipsInvalidLines else { throw error }
        report.invalidLineCount += 1
        if report.invalidLines.count < 100 { report.invalidLines.append(error) }
    }
}

/// What a replay found.
public struct ReplayReport: Sendable {
    /// Commands replayed.
    public internal(set) var commands = 0
    /// Commands of a trace log whose recorded entry the definition's chain has no handler for — one that a change
    /// made while the log was recorded added, which a replay does not make: each went in at the chain's own
    /// entry instead.
    public internal(set) var commandsWithUnknownEntry = 0
    /// Chain changes made.
    public internal(set) var changes = 0
    /// The per-handler profile.
    public internal(set) var profile = ChainProfile()
    /// The first commands' paths (as many as ``ReplaySession/Options/keptPaths``).
    public internal(set) var paths: [ReplayedCommand] = []
    /// The comparison with the expected log, when one was given.
    public internal(set) var comparison: TraceMatcher?
    /// Invalid lines skipped (the first 100).
    public internal(set) var invalidLines: [FormatError] = []
    /// All invalid lines skipped.
    public internal(set) var invalidLineCount = 0
    /// A torn last line of the stream, ignored.
    public internal(set) var tornTail: TornTail?
    /// The traces of the expected log stepped over as another chain's than the definition's, by chain.
    public internal(set) var expectedOfOtherChains: [String: Int] = [:]
}

/// One replayed command: where it was in the stream and what happened.
public struct ReplayedCommand: Sendable {
    /// Its line in the stream.
    public var line: Int
    /// The file that line is in, for a trace log of several files replayed as one (`nil` for one file).
    public var file: String?
    /// Its trace.
    public var trace: Trace
}
