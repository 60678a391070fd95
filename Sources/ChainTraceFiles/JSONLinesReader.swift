import ChainTraceFastPath
import ChainTraceJSON

/// Reads a JSON-Lines file one value at a time, in constant memory, with exact positions for every error.
///
/// Blank lines are skipped, and a last line with no newline reads exactly like one with it. The one difference,
/// for logs a writer appends to (``readsTornTails``): a last line with no newline that does not parse is a torn
/// tail — the writer stopped mid-line — and is reported in ``tornTail`` rather than thrown. Any other malformed
/// line throws a ``FormatError`` naming the file, line and column.
///
/// ```swift
/// let lines = try JSONLinesReader(path: "commands.jsonl")
/// while let (line, value) = try lines.next() { … }
/// ```
public final class JSONLinesReader {
    /// The file being read, as errors name it.
    package let file: String
    /// The incomplete last line, once the reader has reached it.
    package private(set) var tornTail: TornTail?
    /// Whether an unparsable last line with no newline is a torn tail (a log whose writer died) rather than an
    /// error. On for trace logs; a file people write, such as a command stream, reports it as the error it is.
    package var readsTornTails = true
    /// Read on every line by one thread at a time: its accesses skip the run-time exclusivity check.
    @usableFromInline let lines: UncheckedCell<LineReader>

    /// The file's device and inode, when it is a regular file read as it is (see ``LineReader/plainFileIdentity``).
    package var plainFileIdentity: LineReader.FileIdentity? { lines.value.plainFileIdentity }

    /// Bytes of the input consumed so far, through the end of the last line returned: an offset in the file.
    package var bytesRead: Int { lines.value.bytesConsumed }

    /// Bytes of the file read so far, for progress reports against its size (for a gzip file, compressed bytes).
    package var fileBytesRead: Int { lines.value.fileBytesConsumed }

    /// Opens the file at `path`.
    package init(path: String, offset: Int = 0) throws(FormatError) {
        file = path
        lines = UncheckedCell.make(try LineReader(path: path, offset: offset))
    }

    /// Reads JSON Lines held in memory; `name` stands for the file in errors.
    package init(bytes: [UInt8], name: String = "<memory>") {
        file = name
        lines = UncheckedCell.make(LineReader(bytes: bytes))
    }

    /// The next value and its 1-based line number, or `nil` at the end (or at a torn last line).
    package func next() throws(FormatError) -> (line: Int, value: JSONValue)? {
        guard let line = try nextLine() else { return nil }
        return try parse(line)
    }

    /// The next line that is not blank (only JSON whitespace: spaces, tabs, carriage returns), unparsed.
    package func nextLine() throws(FormatError) -> LineReader.Line? {
        while let line = try lines.value.next(file: file) {
            let isBlank = lines.value.withBytes(of: line) { bytes in
                bytes.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
            }
            if isBlank { continue }
            return line
        }
        return nil
    }

    /// Where the line ``nextLine()`` returned last starts, in bytes from the start of the input.
    package var lastLineStart: Int { lines.value.lastLineStart }

    /// Reads past the next line, blank or not.
    package func skipLine() throws(FormatError) -> Bool {
        try lines.value.next(file: file) != nil
    }

    /// Calls `body` with the bytes of `line`, the line ``nextLine()`` returned last.
    @inlinable
    public func withBytes<T, Failure: Error>(
        of line: LineReader.Line,
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> T
    ) throws(Failure) -> T {
        try lines.value.withBytes(of: line, body)
    }

    /// Parses a line from ``nextLine()``: its value, `nil` for a torn last line, or the error with its position.
    package func parse(_ line: LineReader.Line) throws(FormatError) -> (line: Int, value: JSONValue)? {
        let parsed: Result<JSONValue, JSONParseError> = withBytes(of: line) { buffer in
            Result { () throws(JSONParseError) in try JSONParser.parse(buffer, line: line.number) }
        }
        switch parsed {
        case .success(let value):
            return (line.number, value)
        case .failure(let error) where !line.isTerminated && readsTornTails:
            tornTail = TornTail(line: line.number, byteCount: line.range.count, problem: error.description)
            return nil
        case .failure(let error):
            // An object or array still open where its line ends, with more lines after it: the file spreads one
            // value over several lines, as a JSON document (a chain definition) does; "the end of the input" would
            // not say that the line is what ended. A line alone (a command given as an argument, a file's last),
            // or one that opens no object or array, is only cut short.
            var found = error.found
            if error.stop == .endOfText, line.isTerminated {
                let opensContainer = withBytes(of: line) { bytes in
                    bytes.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }.map {
                        $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[")
                    } ?? false
                }
                found =
                    opensContainer && lines.value.hasMore(file: file)
                    ? "the end of the line (JSON Lines hold one whole value a line; this file spreads one over several, as a JSON document such as a chain definition does)"
                    : "the end of the line"
            }
            throw FormatError(
                file: file,
                line: error.line,
                column: error.column,
                expected: error.expected,
                found: found
            )
        }
    }
}
