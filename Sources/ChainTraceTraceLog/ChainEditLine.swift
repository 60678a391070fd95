import ChainTrace
import ChainTraceFiles
import ChainTraceJSON

/// A chain change as a trace log line, the same in both versions:
/// `{"change":"insert","chain":"orders","detail":"first","handler":"Audit","timeNs":1763800000000000000,"version":4}`.
enum ChainEditLine {
    /// The line, without its newline; keys sorted.
    static func encode(_ edit: ChainEdit) -> [UInt8] {
        var members: [String: JSONValue] = [
            "change": .string(edit.kind.rawValue), "chain": .string(edit.chain), "handler": .string(edit.handler),
            "timeNs": .integer(edit.time), "version": .integer(Int64(edit.version)),
        ]
        if let detail = edit.detail { members["detail"] = .string(detail) }
        var writer = JSONWriter()
        writer.write(.object(members))
        return writer.bytes
    }

    /// Whether a line's value is a chain change record.
    static func isEdit(_ value: JSONValue) -> Bool {
        if case .object(let members) = value { return members["change"] != nil }
        return false
    }

    /// The change a record holds; errors name the member at fault.
    static func decode(_ value: JSONValue, file: String, line: Int) throws(FormatError) -> ChainEdit {
        guard case .object(let members) = value else {
            throw FormatError(
                file: file,
                line: line,
                column: 1,
                expected: "a chain change record",
                found: value.summary
            )
        }
        func fail(_ expected: String, _ found: JSONValue?) -> FormatError {
            FormatError(file: file, line: line, column: 1, expected: expected, found: found?.summary ?? "nothing")
        }
        let kinds = ChainEdit.Kind.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .string(let text)? = members["change"], let kind = ChainEdit.Kind(rawValue: text) else {
            throw fail("change to be one of \(kinds)", members["change"])
        }
        guard case .string(let chain)? = members["chain"] else {
            throw fail("chain (a string) in a change record", members["chain"])
        }
        guard case .string(let handler)? = members["handler"] else {
            throw fail("handler (a string) in a change record", members["handler"])
        }
        guard case .integer(let version)? = members["version"], version >= 0, let versionValue = Int(exactly: version)
        else {
            throw fail("version (an integer ≥ 0) in a change record", members["version"])
        }
        var detail: String?
        switch members["detail"] {
        case nil, .null?: detail = nil
        case .string(let text)?: detail = text
        case let other?: throw fail("detail to be a string", other)
        }
        var time: Int64 = 0
        switch members["timeNs"] {
        case nil: time = 0
        case .integer(let value)?: time = value
        case let other?: throw fail("timeNs to be an integer", other)
        }
        let known: Set<String> = ["change", "chain", "handler", "version", "detail", "timeNs"]
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail("a change record with change, chain, handler, version, detail and timeNs", .string(unknown))
        }
        return ChainEdit(chain: chain, version: versionValue, kind: kind, handler: handler, detail: detail, time: time)
    }
}

/// A line of a trace log that is a record rather than a trace, in either version: traces the writer dropped
/// (`{"dropped":N}`), or a change to a chain (see ``ChainEditLine``).
package enum LogRecord: Sendable {
    /// This many traces were dropped here.
    case dropped(Int)
    /// A chain was changed.
    case edit(ChainEdit)

    /// The record a line's value holds; `nil` for any other line.
    ///
    /// - Throws: `FormatError` for a record that is malformed.
    static func read(_ value: JSONValue, file: String, line: Int) throws(FormatError) -> LogRecord? {
        guard case .object(let members) = value else { return nil }
        if members.count == 1, let dropped = members["dropped"] {
            guard case .integer(let count) = dropped, count > 0 else {
                throw FormatError(
                    file: file,
                    line: line,
                    column: 1,
                    expected: "dropped to be a count of traces ≥ 1",
                    found: dropped.summary
                )
            }
            return .dropped(Int(clamping: count))
        }
        if ChainEditLine.isEdit(value) { return .edit(try ChainEditLine.decode(value, file: file, line: line)) }
        return nil
    }
}
