public import ChainTrace
import ChainTraceFiles
import ChainTraceJSON

/// The ChainTrace trace log, version 1: JSON Lines, a header line then one trace per line, keys sorted.
///
/// ```text
/// {"format":"chaintrace-trace-log","version":1}
/// {"chain":"coins","chainVersion":0,"command":{"kind":"Coin"},"durationNs":812,"entry":"Penny","hops":[…],"id":1,"outcome":{"handler":"Dime","kind":"accepted"},"startTimeNs":1763800000000000000}
/// ```
///
/// `Docs/TraceLogFormat.md` documents every field.
public enum TraceLogFormat {
    /// This format's version. ``TraceLogSink`` writes it when asked for (``TraceLogSink/Format/jsonLines``); by
    /// default it writes the compact version 4 (``CompactTraceLogFormat``).
    public static let version = 1
    /// The value of the header's `format` key.
    public static let formatName = "chaintrace-trace-log"

    /// The header line, without its newline.
    public static var header: [UInt8] {
        var writer = JSONWriter()
        writer.write(.object(["format": .string(formatName), "version": .integer(Int64(version))]))
        return writer.bytes
    }

    /// Whether `bytes` are the start of a header line, cut short: what a writer stopped inside its header leaves
    /// (a proper prefix of either version's header).
    static func isCutHeader(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty
            && [header, CompactTraceLogFormat.header].contains { $0.count > bytes.count && $0.starts(with: bytes) }
    }

    /// One trace as a log line, without its newline: the same bytes as writing ``value(of:)``, written directly
    /// in sorted key order (about ten times faster than building the value first).
    public static func encode(_ trace: Trace) -> [UInt8] {
        var writer = JSONWriter()
        writer.append(#"{"chain":"#)
        writer.write(trace.chain)
        writer.append(#","chainVersion":"#)
        writer.write(Int64(trace.chainVersion))
        writer.append(#","command":{"#)
        if let id = trace.commandID {
            writer.append(#""id":"#)
            writer.write(id)
            writer.append(",")
        }
        writer.append(#""kind":"#)
        writer.write(trace.commandKind)
        if let payload = trace.payload {
            writer.append(#","payload":"#)
            writer.write(payload)
        }
        writer.append(#"},"durationNs":"#)
        writer.write(Int64(clamping: trace.duration))
        writer.append(#","entry":"#)
        writer.write(trace.entry)
        writer.append(#","hops":["#)
        for (index, hop) in trace.hops.enumerated() {
            if index > 0 { writer.append(",") }
            writer.append(#"{"decision":""#)
            writer.append(hop.decision.rawValue)
            writer.append(#"","handler":"#)
            writer.write(hop.handler)
            writer.append(#","inclusiveNs":"#)
            writer.write(Int64(clamping: hop.inclusiveDuration))
            if let parent = hop.parent {
                writer.append(#","parent":"#)
                writer.write(Int64(parent))
            }
            writer.append(#","position":"#)
            writer.write(Int64(hop.position))
            writer.write(hop.reason, after: #","reason":"#)
            writer.write(hop.registry, after: #","registry":"#)
            writer.append(#","selfNs":"#)
            writer.write(Int64(clamping: hop.selfDuration))
            writer.append(#","startOffsetNs":"#)
            writer.write(Int64(clamping: hop.startOffset))
            writer.append("}")
        }
        writer.append(#"],"id":"#)
        writer.write(Int64(bitPattern: trace.id))
        writer.append(#","outcome":{"#)
        switch trace.outcome {
        case .accepted(let handler):
            writer.append(#""handler":"#)
            writer.write(handler)
            writer.append(#","kind":"accepted"}"#)
        case .fellOffTheEnd:
            writer.append(#""kind":"fellOffTheEnd"}"#)
        case .failed(let handler, let error):
            writer.append(#""error":"#)
            writer.write(error)
            writer.append(#","handler":"#)
            writer.write(handler)
            writer.append(#","kind":"failed"}"#)
        }
        writer.append(#","startTimeNs":"#)
        writer.write(trace.startTime)
        if let parent = trace.traceParent {
            writer.append(#","traceparent":"#)
            writer.write(parent.header)
        }
        writer.append("}")
        return writer.bytes
    }

    /// One trace as a JSON value, with the log's field names.
    public static func value(of trace: Trace) -> JSONValue {
        var command: [String: JSONValue] = ["kind": .string(trace.commandKind)]
        if let id = trace.commandID { command["id"] = .string(id) }
        if let payload = trace.payload { command["payload"] = payload }
        var members: [String: JSONValue] = [
            "id": .integer(Int64(bitPattern: trace.id)),
            "chain": .string(trace.chain),
            "chainVersion": .integer(Int64(trace.chainVersion)),
            "command": .object(command),
            "entry": .string(trace.entry),
            "startTimeNs": .integer(trace.startTime),
            "durationNs": .integer(Int64(clamping: trace.duration)),
            "outcome": value(of: trace.outcome),
            "hops": .array(trace.hops.map(value(of:))),
        ]
        if let parent = trace.traceParent { members["traceparent"] = .string(parent.header) }
        return .object(members)
    }

    private static func value(of outcome: Outcome) -> JSONValue {
        switch outcome {
        case .accepted(let handler): ["kind": "accepted", "handler": .string(handler)]
        case .fellOffTheEnd: ["kind": "fellOffTheEnd"]
        case .failed(let handler, let error): ["kind": "failed", "handler": .string(handler), "error": .string(error)]
        }
    }

    private static func value(of hop: Hop) -> JSONValue {
        var members: [String: JSONValue] = [
            "handler": .string(hop.handler),
            "position": .integer(Int64(hop.position)),
            "decision": .string(hop.decision.rawValue),
            "startOffsetNs": .integer(Int64(clamping: hop.startOffset)),
            "inclusiveNs": .integer(Int64(clamping: hop.inclusiveDuration)),
            "selfNs": .integer(Int64(clamping: hop.selfDuration)),
        ]
        if let reason = hop.reason { members["reason"] = .string(reason) }
        if let registry = hop.registry { members["registry"] = .string(registry) }
        if let parent = hop.parent { members["parent"] = .integer(Int64(parent)) }
        return .object(members)
    }

    /// Reads a trace from the JSON value of one log line. An error names the field and, with no positions to go
    /// on, column 1 of `line`; reading the line itself (as `TraceLogReader` does) names the field's own column.
    ///
    /// - Throws: `FormatError` naming the field that is missing or of the wrong type.
    public static func decode(_ value: JSONValue, file: String, line: Int) throws(FormatError) -> Trace {
        try decode(value, file: file, at: Location(line: line, document: nil))
    }

    /// Reads a trace from a parsed log line; an error names the line and column of the value at fault (of its
    /// object, for a missing member).
    package static func decode(_ document: JSONDocument) throws(FormatError) -> Trace {
        try decode(document.root, file: document.file, at: Location(line: 0, document: document))
    }

    /// `error`, from decoding the value of `document`, at the line and column of the value it is about.
    package static func located(_ error: FormatError, in document: JSONDocument) -> FormatError {
        do {
            _ = try decode(document)
            return error
        } catch {
            return error
        }
    }

    /// Where a field of the line being decoded is: in `document` when there is one, else column 1 of `line`.
    private struct Location {
        let line: Int
        let document: JSONDocument?

        func of(_ path: String) -> (line: Int, column: Int) {
            document?.position(of: path) ?? (line, 1)
        }
    }

    private static func decode(_ value: JSONValue, file: String, at locate: Location) throws(FormatError) -> Trace {
        var fields = Fields(value: value, path: "", file: file, locate: locate)
        let command = try fields.object("command")
        var commandFields = Fields(value: command, path: "command.", file: file, locate: locate)
        let hopValues = try fields.array("hops")
        var hops: [Hop] = []
        for (index, hopValue) in hopValues.enumerated() {
            var hop = Fields(value: hopValue, path: "hops[\(index)].", file: file, locate: locate)
            hops.append(
                Hop(
                    handler: try hop.string("handler"),
                    position: try hop.position(index),
                    decision: try hop.decision("decision"),
                    reason: try hop.optionalString("reason"),
                    registry: try hop.optionalString("registry"),
                    parent: try hop.parent(index),
                    startOffset: UInt64(try hop.integer("startOffsetNs", atLeast: 0)),
                    inclusiveDuration: UInt64(try hop.integer("inclusiveNs", atLeast: 0)),
                    selfDuration: UInt64(try hop.integer("selfNs", atLeast: 0))
                )
            )
        }
        return Trace(
            id: UInt64(bitPattern: Int64(try fields.integer("id"))),
            commandKind: try commandFields.string("kind"),
            commandID: try commandFields.optionalString("id"),
            payload: command["payload"],
            entry: try fields.string("entry"),
            chain: try fields.string("chain"),
            chainVersion: try fields.integer("chainVersion", atLeast: 0),
            startTime: Int64(try fields.integer("startTimeNs")),
            hops: hops,
            outcome: try outcome(try fields.object("outcome"), file: file, locate: locate),
            duration: UInt64(try fields.integer("durationNs", atLeast: 0)),
            traceParent: try fields.traceParent("traceparent")
        )
    }

    /// The versions ``TraceLogReader`` reads: this one and ``CompactTraceLogFormat``'s.
    public static let readableVersions = 1...4

    /// Checks a header line's value, and returns its version.
    @discardableResult
    package static func checkHeader(_ value: JSONValue, file: String, line: Int) throws(FormatError) -> Int {
        let expected = "a trace log header {\"format\":\"\(formatName)\",\"version\":\(CompactTraceLogFormat.version)}"
        guard isHeader(value), case .integer(let found)? = value["version"] else {
            throw FormatError(file: file, line: line, column: 1, expected: expected, found: headerlessSummary(value))
        }
        guard found >= Int64(readableVersions.lowerBound), found <= Int64(readableVersions.upperBound) else {
            throw FormatError(
                file: file,
                line: line,
                column: 1,
                expected: "trace log version 1, 2, 3 or 4 (the versions this ChainTrace reads)",
                found: "version \(found)"
            )
        }
        return Int(found)
    }

    /// Whether `value` names itself a trace log's header, of any version.
    package static func isHeader(_ value: JSONValue) -> Bool {
        value["format"]?.stringValue == formatName
    }

    /// What a first line that is no header holds, named for the file it suggests was given in a log's place: a
    /// command (a command stream), or a trace whose log lost its header (a log cut at its start, or lines copied
    /// out of one).
    private static func headerlessSummary(_ value: JSONValue) -> String {
        guard case .object(let members) = value, members["format"] == nil else { return value.summary }
        if members["hops"] != nil, members["outcome"] != nil { return "a trace, with no header line before it" }
        if members["kind"] != nil { return "an object with a kind member: a command, as a command stream's lines are" }
        return "an object with no format member (a command stream's first command?)"
    }

    private static func outcome(_ value: JSONValue, file: String, locate: Location) throws(FormatError) -> Outcome {
        var fields = Fields(value: value, path: "outcome.", file: file, locate: locate)
        switch try fields.string("kind") {
        case "accepted": return .accepted(by: try fields.string("handler"))
        case "fellOffTheEnd": return .fellOffTheEnd
        case "failed": return .failed(at: try fields.string("handler"), error: try fields.string("error"))
        case let other:
            throw fields.fail("kind", "outcome.kind to be accepted, fellOffTheEnd or failed", found: "\"\(other)\"")
        }
    }

    /// Typed access to an object's members, with errors that name the field and where it is.
    private struct Fields {
        let members: [String: JSONValue]
        let path: String
        let file: String
        let locate: Location
        let isObject: Bool

        init(value: JSONValue, path: String, file: String, locate: Location) {
            if case .object(let members) = value {
                self.members = members
                isObject = true
            } else {
                members = [:]
                isObject = false
            }
            self.path = path
            self.file = file
            self.locate = locate
        }

        mutating func required(_ key: String, _ kind: String) throws(FormatError) -> JSONValue {
            guard let value = members[key] else {
                throw fail(key, "\(path)\(key) (\(kind))", found: isObject ? "no such field" : "not an object")
            }
            return value
        }

        mutating func string(_ key: String) throws(FormatError) -> String {
            let value = try required(key, "a string")
            guard case .string(let text) = value else { throw fail(key, "\(path)\(key) to be a string", value) }
            return text
        }

        mutating func optionalString(_ key: String) throws(FormatError) -> String? {
            guard let value = members[key], value != .null else { return nil }
            guard case .string(let text) = value else { throw fail(key, "\(path)\(key) to be a string", value) }
            return text
        }

        /// A W3C `traceparent` header's value, if the field is there.
        mutating func traceParent(_ key: String) throws(FormatError) -> TraceParent? {
            guard let value = members[key], value != .null else { return nil }
            guard case .string(let text) = value, let parent = TraceParent(header: text) else {
                throw fail(
                    key,
                    "\(path)\(key) to be a W3C traceparent, 00-<32 hex digits>-<16 hex digits>-<flags>",
                    value
                )
            }
            return parent
        }

        mutating func integer(_ key: String, atLeast minimum: Int64 = .min) throws(FormatError) -> Int {
            let value = try required(key, "an integer")
            guard case .integer(let number) = value, number >= minimum else {
                let bound = minimum == .min ? "" : " ≥ \(minimum)"
                throw fail(key, "\(path)\(key) to be an integer\(bound)", value)
            }
            return Int(number)
        }

        /// A hop's `position`, which must be its index in `hops`.
        mutating func position(_ index: Int) throws(FormatError) -> Int {
            let value = try required("position", "an integer")
            guard case .integer(let number) = value, number == Int64(index) else {
                throw fail("position", "\(path)position to be \(index), its index in hops", value)
            }
            return index
        }

        /// A hop's optional `parent`, which must be the position of an earlier hop.
        mutating func parent(_ index: Int) throws(FormatError) -> Int? {
            guard let value = members["parent"], value != .null else { return nil }
            guard case .integer(let number) = value, number >= 0, number < Int64(index) else {
                let expected =
                    index == 0 ? "no parent for the first hop" : "an earlier hop's position, 0…\(index - 1)"
                throw fail("parent", "\(path)parent to be \(expected)", value)
            }
            return Int(number)
        }

        mutating func object(_ key: String) throws(FormatError) -> JSONValue {
            let value = try required(key, "an object")
            guard case .object = value else { throw fail(key, "\(path)\(key) to be an object", value) }
            return value
        }

        mutating func array(_ key: String) throws(FormatError) -> [JSONValue] {
            let value = try required(key, "an array")
            guard case .array(let elements) = value else { throw fail(key, "\(path)\(key) to be an array", value) }
            return elements
        }

        mutating func decision(_ key: String) throws(FormatError) -> Decision {
            let text = try string(key)
            guard let decision = Decision(rawValue: text) else {
                let names = Decision.allCases.map(\.rawValue).joined(separator: ", ")
                throw fail(key, "\(path)\(key) to be one of \(names)", .string(text))
            }
            return decision
        }

        func fail(_ key: String, _ expected: String, _ value: JSONValue) -> FormatError {
            fail(key, expected, found: value.summary)
        }

        /// An error at member `key` of this object (at the object itself when the member is missing).
        func fail(_ key: String, _ expected: String, found: String) -> FormatError {
            let (line, column) = locate.of(path + key)
            return FormatError(file: file, line: line, column: column, expected: expected, found: found)
        }
    }
}
