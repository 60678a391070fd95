public import ChainTrace
import ChainTraceFastPath
import ChainTraceFiles
import ChainTraceJSON

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a trace log one trace at a time, in constant memory: one file, a directory of them (a rotated log), or
/// several files as one log.
///
/// Both versions of the format are read (``TraceLogFormat``, version 1, and ``CompactTraceLogFormat``, version
/// 2), even mixed: a header line starts a new segment in its own version, so appended and concatenated logs read
/// as one. A log whose writer died mid-line ends in a torn line; the reader keeps every complete trace and reports
/// the torn line in ``tornTail`` instead of failing. Anything else malformed throws a `FormatError` with the
/// file, line and column.
///
/// ```swift
/// let reader = try TraceLogReader(path: "traces.jsonl")
/// while let trace = try reader.next() { profile.add(trace) }
/// if let torn = reader.tornTail { print("ignored torn line \(torn.line)") }
/// ```
public final class TraceLogReader {
    private var lines: JSONLinesReader
    private var pending: [String]
    /// The version of the current segment; `nil` before the file's header.
    private var version: Int?
    /// Whether an error was thrown before the current file's header (a first line that is no header, or that
    /// could not be read): then its end is not reported again as a file without one, and a caller that goes on
    /// past errors reads on to the next file instead of being told the same again.
    private var missingHeaderReported = false
    private var segment = CompactSegment(version: CompactTraceLogFormat.version)
    private let keepsPayloads: Bool
    private let names = NameTable()
    private let lineNames = TraceLineNames()
    private var bytesOfFinishedFiles = 0

    /// The files this reader reads, in order.
    public let files: [String]
    /// The file being read, as errors name it.
    public var file: String { lines.file }
    /// The first incomplete last line met so far (of any file); ``tornTails`` lists them all.
    public var tornTail: TornTail? { tornTails.first }
    /// Every incomplete last line met so far, one at most per file — and, in a log of several files, each file that
    /// holds no line at all (its writer stopped before writing its header: the disk filled up, or the process was
    /// killed, as a rotating sink started it), whose place the other files are read past.
    public var tornTails: [TornTail] {
        var all = finishedTornTails
        if let current = lines.tornTail { all.append(named(current)) }
        return all
    }
    private var finishedTornTails: [TornTail] = []
    /// How many traces the log's writer dropped (and said so in the log), in what has been read so far.
    public private(set) var droppedTraces = 0
    /// The changes made to the recorded chains, as the log records them, in what has been read so far.
    public private(set) var chainEdits: [ChainEdit] = []

    /// Whether the file this reader reads is one of a log of several, read by a reader each (as `stats` reads
    /// them): then an empty file is a torn tail, as it is to a reader of all of them (see ``tornTails``).
    package var isOneOfSeveralFiles = false

    /// Whether lines are first tried on the fast decoders (tests turn it off to check the general path gives the
    /// same traces).
    package var usesFastPath = true

    /// The line the last trace returned was on, in ``file``.
    public private(set) var line = 0
    /// Bytes of the log's files read so far, for progress reports against their sizes (a gzip file counts its
    /// compressed bytes).
    public var bytesRead: Int { bytesOfFinishedFiles + lines.fileBytesRead }

    /// Opens the trace log at `path`: a file, or a directory whose `.jsonl` and `.jsonl.gz` files are read in name
    /// order, numbers by value (as a rotating ``TraceLogSink`` numbers them: see ``files(at:)``).
    ///
    /// - Parameters:
    ///   - path: The log file or directory.
    ///   - payloads: Whether traces carry their commands' payloads; `false` skips them unread (still
    ///   checked to be valid JSON), which is faster when only paths and timings matter.
    public convenience init(path: String, payloads: Bool = true) throws(FormatError) {
        try self.init(paths: [path], payloads: payloads)
    }

    /// Opens several trace logs (files or directories, see ``init(path:payloads:)``) as one log, in order.
    ///
    /// - Throws: `FormatError` when a path cannot be opened or a directory holds no log file.
    public init(paths: [String], payloads: Bool = true) throws(FormatError) {
        var files: [String] = []
        for path in paths { files += try Self.files(at: path) }
        guard let first = files.first else {
            throw FormatError(file: "", line: 0, column: 0, expected: "a trace log file or directory", found: "no path")
        }
        self.files = files
        pending = Array(files.dropFirst())
        lines = try JSONLinesReader(path: first)
        keepsPayloads = payloads
    }

    /// Goes on reading `lines`, whose header line (of `version`) the caller has read: how a command stream
    /// that turns out to be a recorded trace log reads its traces.
    package init(continuing lines: JSONLinesReader, version: Int, payloads: Bool = true) {
        self.lines = lines
        self.version = version
        if CompactTraceLogFormat.versions.contains(version) { segment = CompactSegment(version: version) }
        files = [lines.file]
        pending = []
        keepsPayloads = payloads
    }

    /// Reads one part of the file at `path`, for a reader that reads parts in parallel: the traces of the
    /// segments and lines that start in `start..<end` (a version 1 line that starts there; a version 2 segment
    /// whose header does, read to its end even past `end`). Reading every part of a file this way gives every
    /// trace exactly once. Line numbers count from the part's start; a part that cannot be read this way (an
    /// error) is read again with the whole file.
    package init(partOf path: String, from start: Int, to end: Int, payloads: Bool = true) throws(FormatError) {
        let origin = Swift.max(0, start - 1)
        lines = try JSONLinesReader(path: path, offset: origin)
        files = [path]
        pending = []
        keepsPayloads = payloads
        chunk = Chunk(start: start, end: end, origin: origin)
    }

    /// Reads a trace log held in memory; `name` stands for the file in errors.
    public init(bytes: [UInt8], name: String = "<memory>", payloads: Bool = true) {
        lines = JSONLinesReader(bytes: bytes, name: name)
        files = [name]
        pending = []
        keepsPayloads = payloads
    }

    /// The log files at `path`: the file itself, a directory's `.jsonl` and `.jsonl.gz` files in name order (gzip
    /// files read decompressed), or, for a pattern such as `logs/*/traces-*.jsonl.gz` that the shell left alone
    /// (quoted), every file and directory it matches, in name order — numbers in names by value, so that
    /// `traces-10000.jsonl` follows `traces-9999.jsonl`.
    ///
    /// - Throws: `FormatError` when `path` does not exist, is a directory without a log file, or is a pattern
    ///   that matches nothing.
    public static func files(at path: String) throws(FormatError) -> [String] {
        if let matches = try FileBytes.globMatches(path) {
            guard !matches.isEmpty else {
                throw FormatError(
                    file: path,
                    line: 0,
                    column: 0,
                    expected: "trace log files matching the pattern",
                    found: "none"
                )
            }
            var files: [String] = []
            for match in matches { files += try filesWithoutPattern(at: match) }
            return files
        }
        return try filesWithoutPattern(at: path)
    }

    /// ``files(at:)`` for a path taken as it is.
    private static func filesWithoutPattern(at path: String) throws(FormatError) -> [String] {
        // Not a directory (or a path that cannot be examined, which opening it as a file names).
        guard let entries = try FileBytes.directoryNames(path) else { return [path] }
        let names = entries.filter { ($0.hasSuffix(".jsonl") || $0.hasSuffix(".jsonl.gz")) && !$0.hasPrefix(".") }
        guard !names.isEmpty else {
            throw FormatError(
                file: path,
                line: 0,
                column: 0,
                expected: "a directory holding trace log files (*.jsonl, or *.jsonl.gz)",
                found: "none"
            )
        }
        let base = path.hasSuffix("/") ? path : path + "/"
        return FileNameOrder.sorted(names).map { base + $0 }
    }

    /// The next trace, or `nil` at the end of the log (or at a torn last line of its last file).
    public func next() throws(FormatError) -> Trace? {
        while true {
            do {
                if let trace = try nextInFile() { return trace }
            } catch {
                if version == nil { missingHeaderReported = true }
                throw error
            }
            guard let following = pending.first else { return nil }
            if let torn = lines.tornTail { finishedTornTails.append(named(torn)) }
            bytesOfFinishedFiles += lines.fileBytesRead
            pending.removeFirst()
            lines = try JSONLinesReader(path: following)
            version = nil
            missingHeaderReported = false
        }
    }

    // MARK: Reading one part of a file

    /// Where a reader of one part is.
    private struct Chunk {
        let start: Int
        let end: Int
        /// The byte the line reader starts at: one before `start`, so that a line starting at `start` is whole.
        let origin: Int
        var isPositioned = false
        var isFinished = false
        /// Whether the line being read starts at or after `end`.
        var isPastEnd = false
    }

    private var chunk: Chunk?
    /// A line read while finding where a part starts, to be read as the first.
    private var pendingLine: LineReader.Line?
    /// Dropped-trace records a part skipped while finding its start, with where they are in the file: counted
    /// by the part before unless that part stopped before them (``partProcessedEnd``); the parallel reader
    /// settles which.
    package private(set) var partSkippedRecords: [(offset: Int, record: LogRecord)] = []
    /// Where the last line a part read ends, in bytes from the start of the file (0 before any).
    package private(set) var partProcessedEnd = 0

    /// The next line: the pending one first; `nil` at the end of the file or of the part.
    private func takeLine() throws(FormatError) -> LineReader.Line? {
        if let line = pendingLine {
            pendingLine = nil
            if let chunk { partProcessedEnd = chunk.origin + lines.bytesRead }
            return line
        }
        guard let chunk else { return try lines.nextLine() }
        if chunk.isFinished { return nil }
        guard let line = try lines.nextLine() else { return nil }
        let lineStart = chunk.origin + lines.lastLineStart
        self.chunk?.isPastEnd = lineStart >= chunk.end
        // A version 1 part ends at the first line that starts at or after its end.
        if lineStart >= chunk.end, version == TraceLogFormat.version {
            self.chunk?.isFinished = true
            return nil
        }
        partProcessedEnd = chunk.origin + lines.bytesRead
        return line
    }

    /// What a line at the start of a part says about where the part starts.
    private enum LineKind {
        case blank, header
        case record(LogRecord)
        case versionOne, versionTwo
    }

    private func kind(of raw: LineReader.Line) -> LineKind {
        let first = lines.withBytes(of: raw) { $0.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D } }
        guard let first else { return .blank }
        if first == UInt8(ascii: "[") { return .versionTwo }
        guard case .object(let members)? = (try? lines.parse(raw))?.value else { return .versionOne }
        if members["format"] != nil { return .header }
        // A malformed record reads as a version 1 line: reading it the ordinary way then reports it.
        if let record = try? LogRecord.read(.object(members), file: file, line: 0) { return .record(record) }
        if members.count == 1, members["names"] != nil { return .versionTwo }
        return .versionOne
    }

    /// Skips to where this part's traces start: past the line the part begins inside, then past the rest of a
    /// version 2 segment that started before the part (its header's part reads it), to a header or a version 1
    /// line.
    private func positionInChunk() throws(FormatError) {
        guard let chunk, chunk.start > 0 else { return }
        // The line the part begins inside (or the empty one before it) belongs to the part before.
        guard try lines.skipLine() else { return }
        var records: [(offset: Int, record: LogRecord)] = []
        defer { partSkippedRecords = records }
        while true {
            guard let raw = try lines.nextLine() else { return }
            let lineStart = chunk.origin + lines.lastLineStart
            // The file's unterminated last line: read the ordinary way, which reports it if it is torn.
            if !raw.isTerminated, lineStart < chunk.end {
                pendingLine = raw
                return
            }
            let kind = kind(of: raw)
            if case .blank = kind { continue }
            if lineStart >= chunk.end {
                self.chunk?.isFinished = true
                return
            }
            switch kind {
            case .blank: continue
            case .record(let record):
                // Records read in either version: counted here if a version 1 line follows; else they end a
                // segment whose part may have read them (the parallel reader settles which).
                records.append((lineStart, record))
            case .versionTwo:
                // The part before reads on to the end of this version 2 segment.
                records.removeAll()
            case .header:
                pendingLine = raw
                return
            case .versionOne:
                version = TraceLogFormat.version
                for (_, record) in records { note(record) }
                records.removeAll()
                pendingLine = raw
                return
            }
        }
    }

    /// Counts a dropped-trace record, or keeps a chain change.
    private func note(_ record: LogRecord) {
        switch record {
        case .dropped(let count): droppedTraces = droppedTraces.saturatingAdd(count)
        case .edit(let edit): chainEdits.append(edit)
        }
    }

    /// Refuses a first line with no newline that is neither a whole header nor the start of one: only a writer
    /// stopped while writing the header leaves a file like that; any other is no trace log, and was read as an
    /// empty log with its only line "torn".
    private func checkTornHeader(_ raw: LineReader.Line) throws(FormatError) {
        // A line that parses is judged as a header by the ordinary read; one that does not must be a header's start.
        let isHeaderOrItsStart = lines.withBytes(of: raw) { bytes in
            TraceLogFormat.isCutHeader(bytes) || (try? JSONParser.parse(bytes, line: raw.number)) != nil
        }
        guard !isHeaderOrItsStart else { return }
        throw FormatError(
            file: file,
            line: raw.number,
            column: 1,
            expected:
                "a trace log header {\"format\":\"\(TraceLogFormat.formatName)\",\"version\":\(CompactTraceLogFormat.version)}",
            found:
                "\(raw.range.count == 1 ? "1 byte" : "\(raw.range.count) bytes") with no newline, neither a header nor the start of one"
        )
    }

    /// A torn tail, with its file named when the reader reads several.
    private func named(_ torn: TornTail) -> TornTail {
        guard files.count > 1 else { return torn }
        var named = torn
        named.file = lines.file
        return named
    }

    private func nextInFile() throws(FormatError) -> Trace? {
        if var chunk, !chunk.isPositioned {
            chunk.isPositioned = true
            self.chunk = chunk
            try positionInChunk()
        }
        while let raw = try takeLine() {
            if usesFastPath, raw.isTerminated, let version {
                let (keepsPayloads, names, lineNames) = (keepsPayloads, names, lineNames)
                let fast: Trace? =
                    if CompactTraceLogFormat.versions.contains(version) {
                        lines.withBytes(of: raw) { segment.decodeFast($0, keepsPayload: keepsPayloads, names: names) }
                    } else {
                        lines.withBytes(of: raw) {
                            TraceLineDecoder.decode($0, keepsPayload: keepsPayloads, names: names, lists: lineNames)
                        }
                    }
                if let fast {
                    line = raw.number
                    return fast
                }
            }
            if version == nil, chunk == nil, !raw.isTerminated { try checkTornHeader(raw) }
            guard let (line, value) = try lines.parse(raw) else { break }
            if version == nil || value["format"] != nil {
                // A chunk ends at the first segment that starts at or after its end: the next chunk's.
                if let chunk, chunk.isPastEnd {
                    self.chunk?.isFinished = true
                    partProcessedEnd = chunk.origin + lines.lastLineStart
                    return nil
                }
                let header = try TraceLogFormat.checkHeader(value, file: file, line: line)
                version = header
                segment = CompactSegment(version: header)
                continue
            }
            self.line = line
            if let record = try LogRecord.read(value, file: file, line: line) {
                note(record)
                continue
            }
            if let version, CompactTraceLogFormat.versions.contains(version) {
                if let trace = try compactLine(value, raw: raw, line: line) { return trace }
                continue
            }
            do {
                let trace = try TraceLogFormat.decode(value, file: file, line: line)
                // Without payloads, on this path too: a reader gives the same traces whichever decoder read a line.
                guard !keepsPayloads, trace.payload != nil else { return trace }
                return Trace(
                    id: trace.id,
                    commandKind: trace.commandKind,
                    commandID: trace.commandID,
                    payload: nil,
                    entry: trace.entry,
                    chain: trace.chain,
                    chainVersion: trace.chainVersion,
                    startTime: trace.startTime,
                    hops: trace.hops,
                    outcome: trace.outcome,
                    duration: trace.duration,
                    traceParent: trace.traceParent
                )
            } catch {
                // Read the line again with positions, to name the column of the field at fault.
                let bytes = lines.withBytes(of: raw) { Array($0) }
                throw (try? JSONDocument(bytes: bytes, file: file, firstLine: line)).map {
                    TraceLogFormat.located(error, in: $0)
                } ?? error
            }
        }
        if version == nil && !missingHeaderReported && lines.tornTail == nil && chunk == nil {
            // No line was read: a line before the header either is one or ended in an error (reported).
            if files.count > 1 || isOneOfSeveralFiles {
                // One file of several: its writer stopped before writing its header — the disk filled up, or the
                // process was killed, as the file was started (a rotating sink's next file). Nothing in it is lost;
                // reported as its torn tail, and the other files are read.
                finishedTornTails.append(named(TornTail.emptyFile))
                return nil
            }
            throw FormatError(
                file: file,
                line: 1,
                column: 1,
                expected:
                    "a trace log header {\"format\":\"\(TraceLogFormat.formatName)\",\"version\":\(CompactTraceLogFormat.version)}",
                found: "an empty file"
            )
        }
        return nil
    }

    /// A line of a compact segment: its trace, or `nil` for a record (noted).
    private func compactLine(_ value: JSONValue, raw: LineReader.Line, line: Int) throws(FormatError) -> Trace? {
        let decoded: CompactLogLine
        do {
            decoded = try segment.decode(value, document: nil, file: file, line: line, keepsPayload: keepsPayloads)
        } catch {
            // Again with positions (the segment did not move), to name the column of the element at fault.
            let bytes = lines.withBytes(of: raw) { Array($0) }
            guard let document = try? JSONDocument(bytes: bytes, file: file, firstLine: line) else { throw error }
            var copy = segment
            do {
                _ = try copy.decode(
                    document.root,
                    document: document,
                    file: file,
                    line: line,
                    keepsPayload: keepsPayloads
                )
            } catch {
                throw error
            }
            throw error
        }
        switch decoded {
        case .trace(let trace): return trace
        case .names: return nil
        }
    }

    /// Reads every trace of the log at `path`.
    public static func readAll(path: String) throws(FormatError) -> TraceLog {
        try TraceLogReader(path: path).readAll()
    }

    /// Reads every remaining trace.
    public func readAll() throws(FormatError) -> TraceLog {
        var traces: [Trace] = []
        while let trace = try next() { traces.append(trace) }
        return TraceLog(traces: traces, tornTail: tornTail)
    }
}
