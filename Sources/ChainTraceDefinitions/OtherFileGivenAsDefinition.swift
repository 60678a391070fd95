import ChainTrace
import ChainTraceFiles
import ChainTraceJSON

/// Another file given where a chain definition goes — a trace log (`render traces.jsonl`, `replay traces.jsonl
/// coins.jsonl`), or a compressed one — told by its first bytes, so that the error says what the file is instead
/// of where its JSON stopped being one document (at the start of line 2, for a log of traces; at its `format`
/// member, for a log holding only its header; at its first byte, for gzip).
enum OtherFileGivenAsDefinition {
    /// The error for `bytes` of `file` when they are a trace log or gzip-compressed; `nil` otherwise.
    static func error(_ bytes: [UInt8], file: String) -> FormatError? {
        let expected = "a chain definition (one JSON object with the chain's handlers)"
        if bytes.starts(with: LineReader.gzipMagic) {
            return FormatError(
                file: file,
                line: 1,
                column: 1,
                expected: "\(expected), as plain text",
                found: "gzip-compressed data (a compressed trace log or command stream?)"
            )
        }
        var end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        if end > bytes.startIndex, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let header: JSONValue? = bytes[..<end].withUnsafeBufferPointer { line in
            try? JSONParser.parseDocument(line).0
        }
        // A trace log's header names its format (Docs/TraceLogFormat.md); told apart here by that member alone, without
        // the trace log module, which definitions do not use.
        guard let header, header["format"]?.stringValue == "chaintrace-trace-log" else { return nil }
        return FormatError(
            file: file,
            line: 1,
            column: 1,
            expected: expected,
            found: "a trace log (its first line is a trace log's header)"
        )
    }
}
