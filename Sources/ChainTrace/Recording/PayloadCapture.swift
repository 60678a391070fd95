import ChainTraceJSON

/// How a recorder captures the payloads of `Encodable` commands: not at all, as ``JSONValue`` trees (redacted or
/// not), or as JSON text written by its sink's encoder.
@usableFromInline
enum PayloadCapture: Sendable {
    /// Traces carry no payload.
    case none
    /// Commands are encoded into ``JSONValue`` trees.
    case value
    /// Commands are encoded straight into JSON text by `encoder`; one it cannot write in one pass is encoded into
    /// a tree instead.
    case text(any PayloadTextEncoder)
    /// Commands are encoded into ``JSONValue`` trees, which `redact` changes (see ``Payloads/captured(redacting:)``).
    case redacted(@Sendable (inout JSONValue) -> Void)

    /// The capture for a recorder whose payloads are `payloads`, sending to `sink`: unredacted, as text when the
    /// sink (or one of the sinks it fans out to) writes payloads as text.
    init(_ payloads: Payloads, sink: any TraceSink) {
        switch payloads.mode {
        case .none:
            self = .none
            return
        case .redacted(let redact):
            self = .redacted(redact)
            return
        case .captured:
            break
        }
        if let encoder = Self.textEncoder(of: sink) {
            self = .text(encoder)
        } else {
            self = .value
        }
    }

    private static func textEncoder(of sink: any TraceSink) -> (any PayloadTextEncoder)? {
        if let textSink = sink as? any PayloadTextSink { return textSink.payloadTextEncoder }
        if let fanOut = sink as? FanOutTraceSink { return fanOut.sinks.lazy.compactMap(textEncoder(of:)).first }
        return nil
    }

    /// Whether payloads are captured at all.
    @usableFromInline var isOn: Bool {
        if case .none = self { return false }
        return true
    }
}

/// A sink that writes payloads as JSON text — a trace log — and so would rather be handed them as text: the
/// recorder then encodes each `Encodable` command with the sink's encoder, straight into the bytes the sink
/// writes, with no ``JSONValue`` tree in between. Other sinks reading the same traces parse the text when they
/// ask for ``Trace/payload``.
package protocol PayloadTextSink: TraceSink {
    /// The encoder that writes payloads as this sink wants them, or `nil` when it wants them as values after all
    /// (a sink whose format rewrites every payload).
    var payloadTextEncoder: (any PayloadTextEncoder)? { get }
}

/// Encodes a command straight into JSON text.
@usableFromInline
package protocol PayloadTextEncoder: AnyObject, Sendable {
    /// `value` as JSON text, or `nil` when it cannot be written in one pass (its `encode(to:)` writes to a
    /// container it left earlier, a key twice, a non-finite number…): the recorder then encodes it into a tree,
    /// which handles those (or reports them) as before.
    func encode<Value: Encodable>(_ value: Value) -> (any EncodedPayload)?
    /// `value` as JSON text, or `nil` as for `encode(_:)`.
    func encodeText<Value: Encodable>(_ value: Value) -> [UInt8]?
    /// Whether the sink would rather encode `Sendable` commands itself, when it writes them, than be handed
    /// them encoded (see ``DeferredPayload``).
    var encodesWhenWritten: Bool { get }
}
