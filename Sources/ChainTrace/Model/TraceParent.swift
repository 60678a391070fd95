/// The span a command ran under in the app's distributed tracing — a framework's request span, made by its
/// `TracingMiddleware` — as W3C Trace Context names it (`traceparent`): the trace's 16-byte id and the span's 8-byte
/// id. A trace that has one (``Trace/traceParent``) keeps it in its trace log, and `chaintrace export --to otlp`
/// puts the command's span under that span, in that trace, as `SpanTraceSink` does live.
///
/// ```swift
/// let parent = TraceParent(header: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
/// parent?.traceID   // "4bf92f3577b34da6a3ce929d0e0e4736"
/// parent?.spanID    // "00f067aa0ba902b7"
/// ```
public struct TraceParent: Hashable, Sendable, BitwiseCopyable {
    /// The trace id's first and last 8 bytes, big-endian; never both zero.
    private let traceHigh: UInt64
    private let traceLow: UInt64
    /// The span id; never zero.
    private let span: UInt64

    /// A parent from its ids in hex, as W3C Trace Context writes them: `traceID` 32 hex digits, `spanID` 16 (either
    /// case), neither all zeros — `nil` otherwise.
    public init?(traceID: String, spanID: String) {
        let trace = Array(traceID.utf8)
        let span = Array(spanID.utf8)
        guard trace.count == 32, span.count == 16, let high = Self.number(trace[0..<16]),
            let low = Self.number(trace[16..<32]), let spanNumber = Self.number(span[...]),
            high != 0 || low != 0, spanNumber != 0
        else { return nil }
        (traceHigh, traceLow, self.span) = (high, low, spanNumber)
    }

    /// A parent from a W3C `traceparent` header's value (`00-<trace id>-<span id>-<flags>`), or `nil` when it is not
    /// one: another length or layout, a digit that is not hex, an all-zero id, or version `ff`. A later version's
    /// header is read by its first four fields, as the recommendation says.
    public init?(header: String) {
        let bytes = Array(header.utf8)
        guard bytes.count >= 55, bytes[2] == UInt8(ascii: "-"), bytes[35] == UInt8(ascii: "-"),
            bytes[52] == UInt8(ascii: "-"), let version = Self.number(bytes[0..<2]), version != 0xff,
            Self.number(bytes[53..<55]) != nil, bytes.count == 55 || (version > 0 && bytes[55] == UInt8(ascii: "-"))
        else { return nil }
        self.init(
            traceID: String(decoding: bytes[3..<35], as: UTF8.self),
            spanID: String(decoding: bytes[36..<52], as: UTF8.self)
        )
    }

    /// The trace id: 32 lowercase hex digits.
    public var traceID: String { Self.hex(traceHigh) + Self.hex(traceLow) }

    /// The span id: 16 lowercase hex digits.
    public var spanID: String { Self.hex(span) }

    /// The `traceparent` header naming this span, version 00 and flags `01` (sampled: the span was recorded).
    public var header: String { "00-\(traceID)-\(spanID)-01" }

    /// The number `digits` spell in hex (at most 16 of them), or `nil` if one is not a hex digit.
    private static func number(_ digits: ArraySlice<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            value = value << 4 | UInt64(nibble)
        }
        return value
    }

    /// 16 lowercase hex digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension TraceParent: CustomStringConvertible {
    /// The `traceparent` header: ``header``.
    public var description: String { header }
}
