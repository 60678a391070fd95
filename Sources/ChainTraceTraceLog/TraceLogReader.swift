import ChainTraceFastPath
public import ChainTrace
import ChainTraceJSON

/// Reads a trace log one trace at a time, in constant memory.
///
/// A log whose writer died mid-line ends in a torn line; the reader keeps every complete trace and reports the
/// torn line in ``tornTail`` instead of failing. Anything else malformed throws a `FormatError` with the
/// file, line and column.
///
/// ```swift
/// let reader = try TraceLogReader(path: "traces.jsonl")
/// while let trace = try reader.next() { profile.add(trace) }
/// if let torn = reader.tornTail { print("ignored torn line \(torn.line)") }
/// ```
public final class TraceLogReader {
    private let lines: JSONLinesReader
    private var sawHeader = false
    private let keepsPayloads: Bool
    private let names = NameTable()

    /// The file being read, as errors name it.
    public var file: String { lines.file }
    /// The incomplete last line, once the reader has reached it.
    public var tornTail: TornTail? { lines.tornTail }

    /// The line the last trace returned was on.
    public private(set) var line = 0
    /// Bytes read so far, for progress reports.
    public var bytesRead: Int { lines.bytesRead }

    /// Opens the trace log at `path`.
    ///
    /// - Parameters:
    ///   - path: The log file.
    ///   - payloads: Whether traces carry their commands' payloads; `false` skips them unread (still
    ///   checked to be valid JSON), which is faster when only paths and timings matter.
    public init(path: String, payloads: Bool = true) throws(FormatError) {
        lines = try JSONLinesReader(path: path)
        keepsPayloads = payloads
    }

    /// Reads a trace log held in memory; `name` stands for the file in errors.
    public init(bytes: [UInt8], name: String = "<memory>", payloads: Bool = true) {
        lines = JSONLinesReader(bytes: bytes, name: name)
        keepsPayloads = payloads
    }

    /// The next trace, or `nil` at the end of the log (or at a torn last line).
    public func next() throws(FormatError) -> Trace? {
        while let raw = try lines.nextLine() {
            if sawHeader, raw.isTerminated {
                let (keepsPayloads, names) = (keepsPayloads, names)
                let fast = lines.withBytes(of: raw) { TraceLineDecoder.decode($0, keepsPayload: keepsPayloads, names: names) }
                if let fast {
                    line = raw.number
                    return fast
                }
            }
            guard let (line, value) = try lines.parse(raw) else { break }
            if !sawHeader {
                try TraceLogFormat.checkHeader(value, file: file, line: line)
                sawHeader = true
                continue
            }
            self.line = line
            do {
                let trace = try TraceLogFormat.decode(value, file: file, line: line)
                // Without payloads, on this path too: a reader gives the same traces whichever decoder read a line.
                guard !keepsPayloads, trace.payload != nil else { return trace }
                return Trace(
                    id: trace.id, commandKind: trace.commandKind, commandID: trace.commandID, payload: nil, entry: trace.entry,
                    chain: trace.chain, chainVersion: trace.chainVersion, startTime: trace.startTime, hops: trace.hops,
                    outcome: trace.outcome, duration: trace.duration)
            } catch {
                // Read the line again with positions, to name the column of the field at fault.
                let bytes = lines.withBytes(of: raw) { Array($0) }
                throw (try? JSONDocument(bytes: bytes, file: file, firstLine: line)).map { TraceLogFormat.located(error, in: $0) } ?? error
            }
        }
        if !sawHeader && tornTail == nil {
            throw FormatError(
                file: file,
                line: 1,
                column: 1,
                expected: "a trace log header {\"format\":\"\(TraceLogFormat.formatName)\",\"version\":1}",
                found: "an empty file"
            )
        }
        return nil
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
