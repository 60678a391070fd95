import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFastPath
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTraceLog

/// Reads a command stream — JSON Lines of commands and chain changes — or a recorded trace log, whose commands
/// it replays. See `Docs/CommandStreamFormat.md`.
///
/// A command line is an object: `kind`, `id` and `entry` are optional; its fields are the member `fields` if
/// there is one, otherwise every other member. A line with a `change` member is a ``ChainChange``.
///
/// ```swift
/// let stream = try CommandStreamReader(path: "coins.jsonl")
/// while let (line, item) = try stream.next() { … }
/// ```
public final class CommandStreamReader {
    /// What one line holds.
    public enum Item: Sendable, Hashable {
        /// A command to send.
        case command(JSONCommand)
        /// A change to make to the chain first.
        indirect case change(ChainChange)
    }

    /// The stream's lines; `nil` for a reader of a trace log of several files (``init(traceLogAt:schema:)``).
    private let lines: JSONLinesReader?
    /// What `next()` changes on every line. One reader is read by one thread at a time, so its accesses skip the
    /// run-time exclusivity check (``UncheckedCell``): the check on every line cost the replay of a flat
    /// million-line stream about half its speed.
    private let state: UncheckedCell<ReadState>

    private struct ReadState {
        var sawFirst = false
        var isTraceLog = false
        /// The reader of a stream that turned out to be a trace log.
        var traces: TraceLogReader?
        /// The first version each chain's traces ran on, to tell the changes that built it from later ones.
        var changes = ChangesWhileRecording()
        var decoder: CommandLineDecoder
        /// See ``lastChangeSites``.
        var lastChangeSites: ChangeSites?
    }

    /// Whether the stream turned out to be a trace log (known once the first line is read).
    public var isTraceLog: Bool { state.value.isTraceLog }
    /// Whether the stream is a trace log of several files, whose lines count from the start of each.
    public var readsSeveralFiles: Bool { (state.value.traces?.files.count ?? 1) > 1 }
    /// The file being read, as errors name it.
    public var file: String { state.value.traces?.file ?? lines?.file ?? "" }
    /// The incomplete last line, once the reader has reached it (of a trace log of several files: the first one met).
    public var tornTail: TornTail? { state.value.traces?.tornTail ?? lines?.tornTail }

    /// Where the stream's bytes come from, to open it a second time (``sibling()``).
    private enum Source {
        case file(String)
        case memory([UInt8], name: String)
        case traceLog
    }

    private let source: Source

    /// Commands read from a trace log that carry no payload (recorded without payloads, the default): they replay
    /// with empty fields, so rules on fields cannot match them as they matched the recorded commands.
    public private(set) var commandsWithoutPayload = 0

    /// When the stream is a trace log, the chain whose commands are read; the traces of other chains are stepped
    /// over and counted in ``commandsOfOtherChains``. A log recorded in an app holds every chain its recorder
    /// saw (a side call into an audit chain, say), and a replay through one chain's definition must not send
    /// another's commands through it. `nil` (the default): every trace's command.
    public var onlyChain: String?

    /// The commands of a trace log stepped over as another chain's than ``onlyChain``, by chain.
    public private(set) var commandsOfOtherChains: [String: Int] = [:]

    /// The chain changes a trace log records (read so far) that were made while its commands ran — after the
    /// first trace of the chain — which a replay does not apply: the log names what changed, not the rules of the
    /// handlers that came and went. The changes that built the chain before its first recorded command are not
    /// counted: the definition replayed through describes that chain. 0 for a command stream.
    public var recordedChainChanges: Int {
        guard let traces = state.value.traces else { return 0 }
        var changes = state.value.changes
        changes.set(traces.chainEdits)
        return changes.madeWhileRecording.count
    }

    /// Whether the reader refills the command it returned last for the next line once the caller has let go of it
    /// (the default: a replay then allocates nothing per command). Turned off for a reader whose commands are
    /// handed to another thread.
    package var recyclesCommands: Bool {
        get { state.value.decoder.recycles }
        set { state.value.decoder.recycles = newValue }
    }

    /// Offers a command this reader returned earlier for its next line to refill, instead of allocating one —
    /// taken only if nothing else holds it by then. For a reader whose commands are handed to another thread and
    /// come back through a lock (so that thread's last use happened before this one's check).
    package func recycle(_ command: JSONCommand) {
        state.value.decoder.offer(command)
    }

    /// Bytes of the stream's files read so far, for progress reports against their sizes.
    public var bytesRead: Int { state.value.traces?.bytesRead ?? lines?.fileBytesRead ?? 0 }

    /// Opens the stream at `path`.
    public convenience init(path: String) throws(FormatError) {
        try self.init(path: path, schema: nil)
    }

    /// Reads a stream held in memory; `name` stands for the file in errors.
    public convenience init(bytes: [UInt8], name: String = "<memory>") {
        self.init(bytes: bytes, name: name, schema: nil)
    }

    /// Opens the stream at `path`, decoding the fields `schema` names into slots as well, which rules compiled
    /// with the same schema read without a lookup (the replay's fast path).
    package init(path: String, schema: FieldSchema?) throws(FormatError) {
        let lines = try JSONLinesReader(path: path)
        // A command stream is written by people: a last line without a newline reads like any other, and an
        // invalid one is an error. Only a recorded trace log, found by its header, can end in a torn line.
        lines.readsTornTails = false
        self.lines = lines
        state = UncheckedCell.make(ReadState(decoder: CommandLineDecoder(schema: schema)))
        source = .file(path)
    }

    /// Reads a stream held in memory, decoding the fields `schema` names into slots as well.
    package init(bytes: [UInt8], name: String = "<memory>", schema: FieldSchema?) {
        let lines = JSONLinesReader(bytes: bytes, name: name)
        lines.readsTornTails = false
        self.lines = lines
        state = UncheckedCell.make(ReadState(decoder: CommandLineDecoder(schema: schema)))
        source = .memory(bytes, name: name)
    }

    /// Reads the commands of a recorded trace log of several files, directories or patterns, read as one log
    /// (``TraceLogReader/init(paths:payloads:)``), decoding the fields `schema` names into slots as well.
    ///
    /// - Throws: `FormatError` when a path cannot be opened, or for the first file that is not a trace log.
    package init(traceLogAt paths: [String], schema: FieldSchema?) throws(FormatError) {
        lines = nil
        var state = ReadState(decoder: CommandLineDecoder(schema: schema))
        state.sawFirst = true
        state.isTraceLog = true
        state.traces = try TraceLogReader(paths: paths)
        self.state = UncheckedCell.make(state)
        source = .traceLog
    }

    /// A second reader of this stream, from its start, for reading it on two threads at once — each reads the
    /// lines of its own part and skips the other's (``skipLines(_:)``). Only once this reader has read a line
    /// that is not a trace log header, and every line of it reads as a command stream line (the first is not
    /// checked for a header again). `nil` for a trace log, a file that is not a regular one (a pipe reads its bytes
    /// once), a gzip-compressed file (each reader would decompress all of it), a stream whose first line is still
    /// to come, or a path that cannot be opened again or now names another file (replaced since). A stream held in
    /// memory is copied for the second reader, as for the first.
    package func sibling() -> CommandStreamReader? {
        guard state.value.sawFirst, !state.value.isTraceLog else { return nil }
        let schema = state.value.decoder.schema
        let sibling: CommandStreamReader
        switch source {
        case .traceLog:
            return nil
        case .file(let path):
            // The first reader's file, plain and regular, opened again: the path must still name a regular file
            // (opening a pipe would wait for a writer), the same one.
            guard let identity = lines?.plainFileIdentity, LineReader.isRegularFile(path),
                let reader = try? CommandStreamReader(path: path, schema: schema),
                reader.lines?.plainFileIdentity == identity
            else {
                return nil
            }
            sibling = reader
        case .memory(let bytes, let name):
            sibling = CommandStreamReader(bytes: bytes, name: name, schema: schema)
        }
        sibling.state.value.sawFirst = true
        return sibling
    }

    /// Steps over the next `count` lines that are not blank, as ``next()`` would read them but without decoding
    /// them: how a reader of a stream read on several threads passes over another's part.
    ///
    /// - Returns: How many lines it stepped over: fewer than `count` at the end of the stream.
    /// - Throws: `FormatError` when the file cannot be read.
    package func skipLines(_ count: Int) throws(FormatError) -> Int {
        guard let lines, state.value.traces == nil else { return 0 }
        var skipped = 0
        while skipped < count, try lines.nextLine() != nil { skipped += 1 }
        return skipped
    }

    /// The next command or change and its line, or `nil` at the end.
    ///
    /// - Throws: `FormatError` for a line that is not valid; the reader can go on past it.
    public func next() throws(FormatError) -> (line: Int, item: Item)? {
        if let traces = state.value.traces {
            var next = try traces.next()
            if let onlyChain {
                while let trace = next, trace.chain != onlyChain {
                    commandsOfOtherChains[trace.chain, default: 0] += 1
                    next = try traces.next()
                }
            }
            guard let trace = next else { return nil }
            if trace.payload == nil { commandsWithoutPayload += 1 }
            state.value.changes.add(trace)
            let command = JSONCommand(
                kind: trace.commandKind,
                id: trace.commandID,
                entry: trace.entry,
                fields: trace.payload ?? [:]
            )
            return (traces.line, .command(command))
        }
        guard let lines, let raw = try lines.nextLine() else { return nil }
        if state.value.sawFirst, !state.value.isTraceLog, raw.isTerminated {
            let fast = lines.withBytes(of: raw) { state.value.decoder.decode($0) }
            if let fast { return (raw.number, .command(fast)) }
        }
        guard let (line, value) = try lines.parse(raw) else { return nil }
        if !state.value.sawFirst {
            state.value.sawFirst = true
            if case .object(let members) = value, members["format"]?.stringValue == TraceLogFormat.formatName {
                let version = try TraceLogFormat.checkHeader(value, file: file, line: line)
                state.value.isTraceLog = true
                lines.readsTornTails = true
                state.value.traces = TraceLogReader(continuing: lines, version: version)
                return try next()
            }
        }
        // The line's bytes, to read it again with positions when an error needs a column.
        let bytes = { [lines] in lines.withBytes(of: raw) { Array($0) } }
        var sites: ChangeSites?
        let item = try Self.item(value, file: file, line: line, bytes: bytes, changeSites: &sites)
        state.value.lastChangeSites = sites
        return (line, item)
    }

    /// Where the change ``next()`` has just returned names its handlers, for an error about it. Read only right after
    /// a change: a command read since leaves it as it was.
    package var lastChangeSites: ChangeSites? { state.value.lastChangeSites }

    /// The command or change a line holds; `bytes` gives the line again, to name the column of a value at fault.
    /// A change's `changeSites` are where it names its handlers.
    static func item(
        _ value: JSONValue,
        file: String,
        line: Int,
        bytes: () -> [UInt8],
        changeSites: inout ChangeSites?
    ) throws(FormatError) -> Item {
        guard case .object(var members) = value else {
            throw FormatError(file: file, line: line, column: 1, expected: "a command object", found: value.summary)
        }
        if members["change"] != nil {
            let document = try JSONDocument(bytes: bytes(), file: file, firstLine: line)
            let change = try ChainChangeDecoder.decode(document)
            changeSites = ChainChangeDecoder.sites(of: document)
            return .change(change)
        }
        func bad(_ member: String, _ expected: String, _ value: JSONValue, found: String? = nil) -> FormatError {
            let expected = "\"\(member)\" to be \(expected)"
            let found = found ?? value.summary
            guard let document = try? JSONDocument(bytes: bytes(), file: file, firstLine: line) else {
                return FormatError(file: file, line: line, column: 1, expected: expected, found: found)
            }
            return document.error(at: member, expected: expected, found: found)
        }
        var command = JSONCommand()
        if let kind = members.removeValue(forKey: "kind") {
            guard let text = kind.stringValue else { throw bad("kind", "a string", kind) }
            command.kind = text
        }
        if let id = members.removeValue(forKey: "id") {
            switch id {
            case .string(let text): command.id = text
            case .integer(let number): command.id = String(number)
            case .null: break
            default: throw bad("id", "a string or an integer", id)
            }
        }
        if let entry = members.removeValue(forKey: "entry"), entry != .null {
            guard let text = entry.stringValue else { throw bad("entry", "a handler name", entry) }
            command.entry = text
        }
        if let fields = members["fields"] {
            guard case .object = fields else { throw bad("fields", "an object", fields) }
            guard members.count == 1 else {
                let others = members.keys.filter { $0 != "fields" }.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                throw bad(
                    "fields",
                    "the only member beside kind, id and entry",
                    fields,
                    found: "\(others) beside it (put them inside \"fields\", or leave \"fields\" out)"
                )
            }
            command.fields = fields
        } else {
            command.fields = .object(members)
        }
        if command.entry != nil, let document = try? JSONDocument(bytes: bytes(), file: file, firstLine: line) {
            // For an error about the entry, should the chain lack it (a line the fast decoder leaves here is rare).
            command.entryColumn = document.position(of: "entry").column
        }
        return .command(command)
    }
}
