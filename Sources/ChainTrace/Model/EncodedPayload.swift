/// A command's payload kept as JSON text, or as the command itself to be encoded when asked, instead of a
/// ``JSONValue`` tree: how a replay records the commands it reads without parsing each line a second time, how
/// the trace log writer copies a payload without walking a tree, and how a `Sendable` command's encoding is left
/// to that writer (``DeferredPayload``). ``Trace/payload`` parses or encodes it only when asked.
@usableFromInline
package protocol EncodedPayload: AnyObject, Sendable {
    /// The payload as JSON text (an object: key order and spacing as read or encoded), or `nil` when it has no
    /// text: a command whose encoding one pass cannot write (``value`` has it) or that cannot be encoded at all.
    var text: [UInt8]? { get }
    /// The payload as a value; `nil` when the command cannot be encoded at all.
    var value: JSONValue? { get }
    /// Whether the payload keeps its text whole, to be read in place with ``withKeptText(_:)`` (a replay's line
    /// text), rather than making it when asked.
    var keepsText: Bool { get }
    /// Calls `body` with the text the payload keeps, in place, and returns what it returns; `nil` for a payload
    /// that keeps none (``keepsText`` is `false`; ``text`` makes it).
    func withKeptText<Returned>(_ body: (UnsafeBufferPointer<UInt8>) -> Returned) -> Returned?
}

extension EncodedPayload {
    /// `false`: a payload makes its text when asked, unless it says otherwise.
    package var keepsText: Bool { false }

    /// `nil`: a payload makes its text when asked, unless it says otherwise.
    package func withKeptText<Returned>(_ body: (UnsafeBufferPointer<UInt8>) -> Returned) -> Returned? { nil }
}

extension Trace {
    /// The payload when the trace keeps it as text or as a command to encode (not as a value).
    package var encodedPayload: (any EncodedPayload)? {
        storage.header { $0.pointee.encodedPayload }
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
