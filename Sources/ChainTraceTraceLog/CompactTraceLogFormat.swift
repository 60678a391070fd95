public import ChainTrace
import ChainTraceJSON

/// The ChainTrace trace log, version 2: the compact form ``TraceLogSink`` writes by default. Still JSON Lines —
/// `jq`, DuckDB and Spark read it — but a 10-hop trace takes about 200 bytes instead of about 1 KB: names are
/// written once per file and referred to by number, ids and start times are differences from the previous
/// trace, and what is usually absent (a command id, reasons, registries, a payload) is left out.
///
/// ```text
/// {"format":"chaintrace-trace-log","version":2}
/// {"names":["coins","Coin","Penny","Nickel","Dime"]}
/// [1,1763800000000000000,812,0,0,1,2,8,[8,330,0,482,13,482,330,0]]
/// ```
///
/// `Docs/TraceLogFormat.md` documents every element. ``TraceLogReader`` reads both versions.
public enum CompactTraceLogFormat {
    /// The version number in the header.
    public static let version = 2

    /// The header line, without its newline. A header later in a file starts a new segment: names and
    /// differences start again, so logs can be appended to and concatenated.
    public static var header: [UInt8] {
        Array(#"{"format":"\#(TraceLogFormat.formatName)","version":2}"#.utf8)
    }

    /// The code of each decision in a hop's first number (`handler × 4 + code`).
    static func code(of decision: Decision) -> Int64 {
        switch decision {
        case .accepted: 0
        case .passed: 1
        case .continued: 2
        case .failed: 3
        }
    }

    static let decisions: [Decision] = [.accepted, .passed, .continued, .failed]
}

/// Writes traces in the compact trace log format (``CompactTraceLogFormat``), remembering the names and the
/// previous trace it wrote in one segment.
///
/// ```swift
/// var encoder = CompactTraceLogEncoder()
/// var bytes = CompactTraceLogFormat.header + [0x0A]
/// for trace in traces { encoder.encode(trace, into: &bytes) }
/// ```
public struct CompactTraceLogEncoder: Sendable {
    private var names: [String: Int64] = [:]
    private var newNames: [String] = []
    private var previousID: UInt64 = 0
    private var previousStart: Int64 = 0
    private var writer = JSONWriter()

    /// An encoder at the start of a segment (right after a header).
    public init() {}

    /// Starts a new segment, as after a header: names and differences start again.
    public mutating func reset() {
        self = CompactTraceLogEncoder()
    }

    /// Appends `trace`'s line, preceded by a names line when it uses names not written before, each ended by a
    /// newline.
    public mutating func encode(_ trace: Trace, into bytes: inout [UInt8]) {
        writer.removeAll()
        let hops = trace.hops
        let chain = index(of: trace.chain)
        let kind = index(of: trace.commandKind)
        let entry = index(of: trace.entry)
        writer.append("[")
        writer.write(Int64(bitPattern: trace.id &- previousID))
        writer.append(",")
        writer.write(trace.startTime &- previousStart)
        writer.append(",")
        writer.write(Int64(clamping: trace.duration))
        writer.append(",")
        writer.write(chain)
        writer.append(",")
        writer.write(Int64(trace.chainVersion))
        writer.append(",")
        writer.write(kind)
        writer.append(",")
        writer.write(entry)
        writer.append(",")
        var error: String?
        switch trace.outcome {
        case .fellOffTheEnd: writer.append("-1")
        case .accepted(let handler): writer.write(index(of: handler) * 2)
        case .failed(let handler, let message):
            writer.write(index(of: handler) * 2 + 1)
            error = message
        }
        writer.append(",[")
        var previousOffset: Int64 = 0
        var reasons: [(Int, String)] = []
        var registries: [(Int, Int64)] = []
        for (position, hop) in hops.enumerated() {
            if position > 0 { writer.append(",") }
            writer.write(index(of: hop.handler) * 4 + CompactTraceLogFormat.code(of: hop.decision))
            writer.append(",")
            let selfTime = Int64(clamping: hop.selfDuration)
            writer.write(selfTime)
            writer.append(",")
            let offset = Int64(clamping: hop.startOffset)
            writer.write(offset - previousOffset)  // both in 0...Int64.max: cannot overflow
            previousOffset = offset
            writer.append(",")
            writer.write(Int64(clamping: hop.inclusiveDuration) - selfTime)
            if let reason = hop.reason { reasons.append((position, reason)) }
            if let registry = hop.registry { registries.append((position, index(of: registry))) }
        }
        writer.append("]")
        if trace.commandID != nil || trace.payload != nil || error != nil || !reasons.isEmpty || !registries.isEmpty {
            // Keys in sorted order, as everywhere in ChainTrace's JSON.
            writer.append(",{")
            var first = true
            func key(_ name: String) {
                writer.append(first ? "\"\(name)\":" : ",\"\(name)\":")
                first = false
            }
            if let error {
                key("error")
                writer.write(error)
            }
            if let id = trace.commandID {
                key("id")
                writer.write(id)
            }
            if let payload = trace.payload {
                key("payload")
                writer.write(payload)
            }
            /// `[[hop index, value], …]`.
            func pairs<Value>(_ name: String, _ pairs: [(Int, Value)], _ write: (inout JSONWriter, Value) -> Void) {
                guard !pairs.isEmpty else { return }
                key(name)
                writer.append("[")
                for (number, (position, value)) in pairs.enumerated() {
                    writer.append(number == 0 ? "[" : ",[")
                    writer.write(Int64(position))
                    writer.append(",")
                    write(&writer, value)
                    writer.append("]")
                }
                writer.append("]")
            }
            pairs("reasons", reasons) { $0.write($1) }
            pairs("registries", registries) { $0.write($1) }
            writer.append("}")
        }
        writer.append("]\n")
        if !newNames.isEmpty {
            var names = JSONWriter()
            names.append(#"{"names":["#)
            for (number, name) in newNames.enumerated() {
                if number > 0 { names.append(",") }
                names.write(name)
            }
            names.append("]}\n")
            bytes.append(contentsOf: names.bytes)
            newNames.removeAll(keepingCapacity: true)
        }
        bytes.append(contentsOf: writer.bytes)
        previousID = trace.id
        previousStart = trace.startTime
    }

    /// Appends a record that `count` traces were dropped here (the writer fell behind and its policy is to drop).
    public mutating func encodeDropped(count: Int, into bytes: inout [UInt8]) {
        guard count > 0 else { return }
        bytes.append(contentsOf: Array(#"{"dropped":"#.utf8))
        writer.removeAll()
        writer.write(Int64(count))
        bytes.append(contentsOf: writer.bytes)
        bytes.append(contentsOf: Array("}\n".utf8))
    }

    private mutating func index(of name: String) -> Int64 {
        if let index = names[name] { return index }
        let index = Int64(names.count)
        names[name] = index
        newNames.append(name)
        return index
    }
}
