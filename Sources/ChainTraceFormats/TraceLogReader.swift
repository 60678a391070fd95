public import ChainTrace

/// Reads a trace log one trace at a time, in constant memory.
///
/// A log whose writer died mid-line ends in a torn line; the reader keeps every complete trace and reports the
/// torn line in ``tornTail`` instead of failing. Anything else malformed throws a ``TraceLogError`` with the
/// file, line and column.
///
/// ```swift
/// let reader = try TraceLogReader(path: "traces.jsonl")
/// while let trace = try reader.next() { profile.add(trace) }
/// if let torn = reader.tornTail { print("ignored torn line \(torn.line)") }
/// ```
public final class TraceLogReader {
    /// The file being read, as errors name it.
    public let file: String
    /// The incomplete last line, once the reader has reached it.
    public private(set) var tornTail: TornTail?
    private var lines: LineReader
    private var sawHeader = false

    /// Opens the trace log at `path`.
    public init(path: String) throws(TraceLogError) {
        file = path
        lines = try LineReader(path: path)
    }

    /// Reads a trace log held in memory; `name` stands for the file in errors.
    public init(bytes: [UInt8], name: String = "<memory>") {
        file = name
        lines = LineReader(bytes: bytes)
    }

    /// The next trace, or `nil` at the end of the log (or at a torn last line).
    public func next() throws(TraceLogError) -> Trace? {
        while let line = try lines.next(file: file) {
            if line.bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            let parsed: Result<JSONValue, JSONParseError> = line.bytes.withUnsafeBufferPointer { buffer in
                Result { () throws(JSONParseError) in try JSONParser.parse(buffer, line: line.number) }
            }
            let value: JSONValue
            switch parsed {
            case .success(let parsedValue):
                value = parsedValue
            case .failure(let error) where !line.isTerminated:
                tornTail = TornTail(line: line.number, byteCount: line.bytes.count, problem: error.description)
                return nil
            case .failure(let error):
                throw TraceLogError(
                    file: file,
                    line: error.line,
                    column: error.column,
                    expected: error.expected,
                    found: error.found
                )
            }
            if !sawHeader {
                try TraceLogFormat.checkHeader(value, file: file, line: line.number)
                sawHeader = true
                continue
            }
            return try TraceLogFormat.decode(value, file: file, line: line.number)
        }
        if !sawHeader && tornTail == nil {
            throw TraceLogError(
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
    public static func readAll(path: String) throws(TraceLogError) -> TraceLog {
        try TraceLogReader(path: path).readAll()
    }

    /// Reads every remaining trace.
    public func readAll() throws(TraceLogError) -> TraceLog {
        var traces: [Trace] = []
        while let trace = try next() { traces.append(trace) }
        return TraceLog(traces: traces, tornTail: tornTail)
    }
}

/// A whole trace log read into memory.
public struct TraceLog: Sendable, Hashable {
    /// Every complete trace, in the order written.
    public var traces: [Trace]
    /// The incomplete last line, if the writer died mid-line.
    public var tornTail: TornTail?
}

/// The last line of a log that its writer did not finish: reported, not fatal.
public struct TornTail: Sendable, Hashable, CustomStringConvertible {
    /// Its 1-based line number.
    public var line: Int
    /// How many bytes of it there are.
    public var byteCount: Int
    /// Why it does not parse.
    public var problem: String

    public var description: String {
        "line \(line) is incomplete (\(byteCount) bytes, no newline: the writer stopped mid-line); ignored"
    }
}
