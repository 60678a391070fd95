import ChainTraceJSON

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
    /// Calls `body` with the text the payload keeps whole (a replay's line text), in place, and returns what it
    /// returns; `nil` for a payload that keeps none (``text`` makes it when asked).
    func withKeptText<Returned>(_ body: (UnsafeBufferPointer<UInt8>) -> Returned) -> Returned?
    /// Calls `body` with the command's id as the payload keeps it for its trace, in place — UTF-8 text, as a
    /// string of it reads; a replay's is ASCII from the space on with no quote or backslash, the text of a JSON
    /// string as it stood in its line — and returns what it returns; `nil` for a payload that keeps none. A trace
    /// made with no id of its own has this one (``Trace/commandID``): how a replay hands its log a command's id
    /// without making a `String` of it.
    func withKeptCommandID<Returned>(_ body: (UnsafeBufferPointer<UInt8>) -> Returned) -> Returned?
}

extension EncodedPayload {
    /// `nil`: a payload makes its text when asked, unless it says otherwise.
    package func withKeptText<Returned>(_ body: (UnsafeBufferPointer<UInt8>) -> Returned) -> Returned? { nil }

    /// `nil`: a payload keeps no command id, unless it says otherwise.
    package func withKeptCommandID<Returned>(_ body: (UnsafeBufferPointer<UInt8>) -> Returned) -> Returned? { nil }
}

extension Trace {
    /// The payload when the trace keeps it as text or as a command to encode (not as a value).
    package var encodedPayload: (any EncodedPayload)? {
        storage.header { $0.pointee.encodedPayload }
    }

    /// The command's id as the trace's storage holds it: `nil` for a trace whose id its payload keeps
    /// (``EncodedPayload/withKeptCommandID(_:)``), which ``commandID`` makes when asked.
    package var storedCommandID: String? {
        storage.header { $0.pointee.commandID }
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
