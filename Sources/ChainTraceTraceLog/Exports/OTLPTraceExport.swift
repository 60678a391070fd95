public import ChainTrace
import ChainTraceJSON

/// Writes traces as OpenTelemetry's OTLP/JSON: one `ExportTraceServiceRequest` that a collector's OTLP/HTTP
/// receiver (`/v1/traces`, `Content-Type: application/json`) or any OTLP tool reads.
///
/// Each command is one trace: a root span named `chain kind` for the whole command, and a span per hop named after
/// its handler, nested as the hops nested (a hop that started inside another's inclusive time is its child), its
/// duration the hop's inclusive time — the same spans, names and attributes as `SpanTraceSink` (ChainTraceDistributedTracing) sends live.
/// Attributes: `chaintrace.chain`, `chaintrace.chain.version`, `chaintrace.command.kind`, `chaintrace.command.id`,
/// `chaintrace.entry`, `chaintrace.outcome` and `chaintrace.hops` on the root; `chaintrace.handler`,
/// `chaintrace.position`, `chaintrace.decision`, `chaintrace.self_ns`, `chaintrace.reason` and
/// `chaintrace.registry` on each hop. A failed hop, and the root of a failed command, carry status `ERROR` with the
/// error text. Times are the log's: the trace's wall-clock start plus each hop's offset, in nanoseconds since
/// 1970 (saturating, never wrapping).
///
/// Ids are derived from each trace's place in the log, its id and its start — the same log always exports the same
/// ids — and written in hex, as OTLP/JSON requires (not base 64, as plain protobuf JSON would).
///
/// Streams: ``header``, then ``spans(for:)`` per trace, then ``footer``; memory stays flat however long the log.
public struct OTLPTraceExport: Sendable {
    private var traces = 0

    /// Starts an export.
    public init() {}

    /// The bytes that open the request: one resource (`service.name` = `chaintrace`) and one scope.
    public static let header = Array(
        #"{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"chaintrace"}}]},"scopeSpans":[{"scope":{"name":"chaintrace"},"spans":["#
            .utf8) + [UInt8(ascii: "\n")]

    /// The bytes that close it.
    public static let footer = Array("\n]}]}]}\n".utf8)

    /// The spans of one more trace, each on its own line, with the separating commas a following trace needs.
    public mutating func spans(for trace: Trace) -> [UInt8] {
        traces += 1
        let key = StableHash.mix(UInt64(traces) ^ StableHash.mix(trace.id ^ StableHash.mix(UInt64(bitPattern: trace.startTime))))
        let traceID = Self.hex(Self.nonZero(StableHash.mix(key ^ 0x5445))) + Self.hex(StableHash.mix(key ^ 0x4345))
        func spanID(_ index: Int) -> String { Self.hex(Self.nonZero(StableHash.mix(key &+ UInt64(index) &+ 1))) }
        let start = UInt64(clamping: max(0, trace.startTime))
        var writer = JSONWriter()
        var first = traces == 1
        func span(_ object: [String: JSONValue]) {
            if !first { writer.append(",\n") }
            first = false
            writer.write(JSONValue.object(object))
        }
        func time(_ offset: UInt64) -> JSONValue { .string(String(start.saturatingAdd(offset))) }
        var rootAttributes: [(String, JSONValue)] = [
            ("chaintrace.chain", Self.text(trace.chain)),
            ("chaintrace.chain.version", Self.integer(Int64(clamping: trace.chainVersion))),
            ("chaintrace.command.kind", Self.text(trace.commandKind)),
            ("chaintrace.entry", Self.text(trace.entry)),
            ("chaintrace.outcome", Self.text(trace.outcome.kind)),
            ("chaintrace.hops", Self.integer(Int64(clamping: trace.hops.count))),
        ]
        if let id = trace.commandID { rootAttributes.insert(("chaintrace.command.id", Self.text(id)), at: 3) }
        var root: [String: JSONValue] = [
            "traceId": .string(traceID), "spanId": .string(spanID(0)), "name": .string("\(trace.chain) \(trace.commandKind)"),
            "kind": 1, "startTimeUnixNano": time(0), "endTimeUnixNano": time(trace.duration),
            "attributes": Self.attributes(rootAttributes),
        ]
        if case .failed(let handler, let error) = trace.outcome { root["status"] = Self.error("\(handler): \(error)") }
        span(root)
        // The hops still open: a hop that starts before one of them ends is nested in it.
        var open: [(spanID: String, end: UInt64)] = []
        for (index, hop) in trace.hops.enumerated() {
            while let last = open.last, last.end <= hop.startOffset { open.removeLast() }
            let end = hop.startOffset.saturatingAdd(hop.inclusiveDuration)
            var attributes: [(String, JSONValue)] = [
                ("chaintrace.handler", Self.text(hop.handler)),
                ("chaintrace.position", Self.integer(Int64(clamping: hop.position))),
                ("chaintrace.decision", Self.text(hop.decision.rawValue)),
                ("chaintrace.self_ns", Self.integer(Int64(clamping: hop.selfDuration))),
            ]
            if let reason = hop.reason { attributes.append(("chaintrace.reason", Self.text(reason))) }
            if let registry = hop.registry { attributes.append(("chaintrace.registry", Self.text(registry))) }
            let id = spanID(index + 1)
            var object: [String: JSONValue] = [
                "traceId": .string(traceID), "spanId": .string(id), "parentSpanId": .string(open.last?.spanID ?? spanID(0)),
                "name": .string(hop.handler), "kind": 1, "startTimeUnixNano": time(hop.startOffset), "endTimeUnixNano": time(end),
                "attributes": Self.attributes(attributes),
            ]
            if hop.decision == .failed { object["status"] = Self.error(hop.reason ?? "failed") }
            span(object)
            open.append((id, end))
        }
        return writer.bytes
    }

    private static func attributes(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .array(pairs.map { ["key": .string($0.0), "value": $0.1] })
    }

    private static func text(_ value: String) -> JSONValue { ["stringValue": .string(value)] }

    /// An `AnyValue` integer: int64 is a decimal string in OTLP/JSON.
    private static func integer(_ value: Int64) -> JSONValue { ["intValue": .string(String(value))] }

    /// Status `ERROR` (2) with its message.
    private static func error(_ message: String) -> JSONValue { ["code": 2, "message": .string(message)] }

    /// 16 lowercase hex digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// OTLP forbids all-zero ids.
    private static func nonZero(_ value: UInt64) -> UInt64 { value == 0 ? 1 : value }
}
