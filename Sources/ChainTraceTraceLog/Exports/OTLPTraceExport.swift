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
/// A command that ran under a span of the app's own — a request span, which the Hummingbird and Vapor integrations
/// note in each request's trace (`Trace.traceParent`) — is not a trace of its own: its span is that
/// span's child, in that span's trace, as `SpanTraceSink` makes it live.
///
/// Ids are derived from each trace's place in the log, its id and its start — the same log always exports the same
/// ids — and written in hex, as OTLP/JSON requires (not base 64, as plain protobuf JSON would).
///
/// Streams: ``header``, then ``spans(for:)`` per trace, then ``footer``; memory stays flat however long the log.
/// A log too big for one request (collectors refuse requests past a size: 20 MiB by default) is written as JSON
/// Lines of requests (`init(requestPerLine: true)`): each ``lineHeader``, the spans of up to a batch of traces
/// and ``lineFooter``, on one line, then ``startRequest()`` — as the collector's `otlpjsonfile` receiver reads
/// them and a loop of `curl` posts them; ids stay those of the log as a whole.
public struct OTLPTraceExport: Sendable {
    private var traces = 0
    /// Traces written in the current request.
    private var tracesInRequest = 0
    /// What goes between two spans: a comma, and a line break unless each request is one line.
    private let separator: String
    /// Where each hop of the trace being written ran, kept from trace to trace.
    private var nesting = HopNesting()

    /// Starts an export: one request, a span a line; with `requestPerLine`, requests one line each.
    public init(requestPerLine: Bool = false) {
        separator = requestPerLine ? "," : ",\n"
    }

    /// The bytes that open the request: one resource (`service.name` = `chaintrace`) and one scope.
    public static let header =
        Array(
            #"{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"chaintrace"}}]},"scopeSpans":[{"scope":{"name":"chaintrace"},"spans":["#
                .utf8
        ) + [UInt8(ascii: "\n")]

    /// The bytes that close it.
    public static let footer = Array("\n]}]}]}\n".utf8)

    /// ``header`` for a request on one line.
    public static let lineHeader = Array(header.dropLast())

    /// ``footer`` for a request on one line: it ends the line.
    public static let lineFooter = Array("]}]}]}\n".utf8)

    /// Starts another request (after its footer): its first span needs no comma before it; the traces keep their
    /// numbers, so their ids are those of one export of the whole log.
    public mutating func startRequest() {
        tracesInRequest = 0
    }

    /// The spans of one more trace, each on its own line, with the separating commas a following trace needs.
    public mutating func spans(for trace: Trace) -> [UInt8] {
        traces += 1
        tracesInRequest += 1
        let ids = Self.ids(of: trace, number: traces)
        let traceParent = trace.traceParent
        let traceID = traceParent?.traceID ?? ids.trace
        let spanID = ids.span
        let start = UInt64(clamping: max(0, trace.startTime))
        // Written member by member in sorted key order (attributes, endTimeUnixNano, kind, name, parentSpanId,
        // spanId, startTimeUnixNano, status, traceId): the bytes of writing each span as a JSON object with sorted
        // keys (`OTLPSpansDifferentialTests`), without building one.
        var writer = JSONWriter()
        writer.reserveCapacity(512 * (trace.hops.count + 1))
        var first = tracesInRequest == 1
        func time(_ offset: UInt64) {
            writer.append(byte: UInt8(ascii: "\""))
            writer.append(String(start.saturatingAdd(offset)))
            writer.append(byte: UInt8(ascii: "\""))
        }
        func span(
            attributes: [(key: String, value: AttributeValue?)],
            start: UInt64,
            end: UInt64,
            name: String,
            parent: String?,
            id: String,
            failure: String?
        ) {
            if !first { writer.append(self.separator) }
            first = false
            writer.append(#"{"attributes":["#)
            var needsComma = false
            for (key, value) in attributes {
                guard let value else { continue }
                if needsComma { writer.append(byte: UInt8(ascii: ",")) }
                needsComma = true
                writer.append(#"{"key":"#)
                writer.write(key)
                switch value {
                case .text(let text):
                    writer.append(#","value":{"stringValue":"#)
                    writer.write(text)
                    writer.append("}}")
                case .integer(let number):
                    writer.append(#","value":{"intValue":""#)
                    writer.append(String(number))
                    writer.append(#""}}"#)
                }
            }
            writer.append(#"],"endTimeUnixNano":"#)
            time(end)
            writer.append(#","kind":1,"name":"#)
            writer.write(name)
            if let parent {
                writer.append(#","parentSpanId":""#)
                writer.append(parent)
                writer.append(#"""#)
            }
            writer.append(#","spanId":""#)
            writer.append(id)
            writer.append(#"","startTimeUnixNano":"#)
            time(start)
            if let failure {
                writer.append(#","status":{"code":2,"message":"#)
                writer.write(failure)
                writer.append("}")
            }
            writer.append(#","traceId":""#)
            writer.append(traceID)
            writer.append(#""}"#)
        }
        let hops = trace.hops
        let rootFailure: String? =
            if case .failed(let handler, let error) = trace.outcome { "\(handler): \(error)" } else { nil }
        span(
            attributes: [
                ("chaintrace.chain", .text(trace.chain)),
                ("chaintrace.chain.version", .integer(Int64(clamping: trace.chainVersion))),
                ("chaintrace.command.kind", .text(trace.commandKind)),
                ("chaintrace.command.id", trace.commandID.map(AttributeValue.text)),
                ("chaintrace.entry", .text(trace.entry)),
                ("chaintrace.outcome", .text(trace.outcome.kind)),
                ("chaintrace.hops", .integer(Int64(clamping: trace.hops.count))),
            ],
            start: 0,
            end: trace.duration(covering: hops),
            name: "\(trace.chain) \(trace.commandKind)",
            parent: traceParent?.spanID,
            id: spanID(0),
            failure: rootFailure
        )
        // Each hop under the hop it ran inside (HopNesting), or under the command's span.
        let root = spanID(0)
        nesting.place(hops)
        let enclosing = nesting.parents
        for (index, hop) in hops.enumerated() {
            let end = hop.startOffset.saturatingAdd(hop.inclusiveDuration)
            let id = spanID(index + 1)
            span(
                attributes: [
                    ("chaintrace.handler", .text(hop.handler)),
                    ("chaintrace.position", .integer(Int64(clamping: hop.position))),
                    ("chaintrace.decision", .text(hop.decision.rawValue)),
                    ("chaintrace.self_ns", .integer(Int64(clamping: hop.selfDuration))),
                    ("chaintrace.reason", hop.reason.map(AttributeValue.text)),
                    ("chaintrace.registry", hop.registry.map(AttributeValue.text)),
                ],
                start: hop.startOffset,
                end: end,
                name: hop.handler,
                parent: enclosing[index].map { spanID($0 + 1) } ?? root,
                id: id,
                failure: hop.decision == .failed ? hop.failureMessage : nil
            )
        }
        return writer.bytes
    }

    /// An attribute's value: an OTLP `AnyValue` string, or an int64 (a decimal string in OTLP/JSON).
    private enum AttributeValue {
        case text(String)
        case integer(Int64)
    }

    /// The ids of the `number`th trace of the log: its trace id and its spans' (0 the root, then each hop's), from
    /// its place, its id and its start — the same log always exports the same ids — in hex, never all zero.
    package static func ids(of trace: Trace, number: Int) -> (trace: String, span: (Int) -> String) {
        let key = StableHash.mix(
            UInt64(number) ^ StableHash.mix(trace.id ^ StableHash.mix(UInt64(bitPattern: trace.startTime)))
        )
        let traceID = hex(nonZero(StableHash.mix(key ^ 0x5445))) + hex(StableHash.mix(key ^ 0x4345))
        return (traceID, { index in hex(nonZero(StableHash.mix(key &+ UInt64(index) &+ 1))) })
    }

    /// 16 lowercase hex digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// OTLP forbids all-zero ids.
    private static func nonZero(_ value: UInt64) -> UInt64 { value == 0 ? 1 : value }
}
