import ChainTrace
import ChainTraceJSON

/// A payload captured as JSON text by ``JSONTextEncoder``: the trace log copies the bytes, and
/// ``ChainTrace/Trace/payload`` parses them only when asked.
package final class JSONTextPayload: EncodedPayload {
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var text: [UInt8]? { bytes }

    package var value: JSONValue? {
        let parsed: JSONValue? = bytes.withUnsafeBufferPointer { try? JSONParser.parse($0) }
        return parsed ?? .null
    }
}

/// The payload encoder of sinks that write payloads as text. A class, so that a recorder holds it as one
/// reference (copying a recorder's settings copies no existential box).
package final class JSONTextPayloadEncoder: PayloadTextEncoder {
    package let encodesWhenWritten: Bool

    /// An encoder for a sink that encodes `Sendable` commands itself when it writes them (`encodesWhenWritten`),
    /// or that is handed every command encoded.
    package init(encodesWhenWritten: Bool = false) {
        self.encodesWhenWritten = encodesWhenWritten
    }

    package func encode<Value: Encodable>(_ value: Value) -> (any EncodedPayload)? {
        JSONTextEncoder.encode(value).map(JSONTextPayload.init(bytes:))
    }

    package func encodeText<Value: Encodable>(_ value: Value) -> [UInt8]? {
        JSONTextEncoder.encode(value)
    }
}
