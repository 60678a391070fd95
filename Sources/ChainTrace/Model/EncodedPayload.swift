/// A command's payload kept as the JSON text it was read as, instead of a ``JSONValue`` tree: how a replay
/// records the commands it reads without parsing each line a second time, and how the trace log writer copies a
/// payload without walking a tree. ``Trace/payload`` parses it only when asked.
@usableFromInline
package protocol EncodedPayload: AnyObject, Sendable {
    /// The payload as JSON text (an object, as read: key order and spacing kept).
    var bytes: [UInt8] { get }
    /// The payload as a value.
    var value: JSONValue { get }
}

extension Trace {
    /// The payload's JSON text, when the trace keeps it as text.
    package var encodedPayloadBytes: [UInt8]? {
        storage.header { $0.pointee.encodedPayload?.bytes }
    }

    /// Whether the trace has a payload (as a value or as text), without parsing text.
    package var hasPayload: Bool {
        storage.header { $0.pointee.payload != nil || $0.pointee.encodedPayload != nil }
    }

    /// Gives the trace its payload as text (replacing any payload value). Only for a trace just made on this
    /// thread, before anything else holds it: the storage is changed in place.
    package mutating func attach(_ payload: any EncodedPayload) {
        precondition(isKnownUniquelyReferenced(&storage), "a payload is attached to a trace nothing else holds yet")
        storage.withUnsafeMutablePointerToHeader { header in
            header.pointee.payload = nil
            header.pointee.encodedPayload = payload
        }
    }
}
