import ChainTraceJSON

/// A command that tells traces what to call it.
///
/// Conform when the type name is not what you want to see in reports — an enum whose cases are the real kinds,
/// or commands that carry their own id so runs can be compared command by command.
///
/// ```swift
/// enum EditorCommand: TracedCommand {
///     case copy, paste, share(String)
///     var commandKind: String { "\(self)".prefix { $0 != "(" }.description }
/// }
/// ```
public protocol TracedCommand {
    /// What kind of command this is, as reports should group it. Defaults to the type name.
    var commandKind: String { get }
    /// The command's own identifier, if it has one. Defaults to `nil`.
    var commandID: String? { get }
    /// The command as JSON for traces that capture payloads. Defaults to `nil`: an `Encodable` command is then
    /// encoded; implement it when the command already holds its JSON, which is far cheaper than encoding.
    var commandPayload: JSONValue? { get }
}

extension TracedCommand {
    /// The type's name.
    public var commandKind: String { String(describing: Self.self) }
    /// No id.
    public var commandID: String? { nil }
    /// No payload of its own: an `Encodable` command is encoded instead.
    public var commandPayload: JSONValue? { nil }
}

/// What the recorder knows about a command type, worked out once per chain rather than once per command.
///
/// A class: an instrumented chain looks it up for every command, and a reference is one retain where a copy of
/// the struct retained each of its members.
@usableFromInline
final class CommandTypeInfo: Sendable {
    @usableFromInline let typeName: String
    @usableFromInline let isTraced: Bool
    @usableFromInline let isEncodable: Bool
    /// Encodes commands of this type, found once by opening its `Encodable` conformance: no cast to
    /// `any Encodable` (a conformance lookup) and no existential box (an allocation for a large command) per command.
    private let encodableReader: (any EncodableCommandReading)?
    /// Reads kind, id and payload straight from a command of this type, found once by opening its
    /// `TracedCommand` conformance: no dynamic cast or existential box per command.
    private let tracedReader: (any TracedCommandReading)?

    /// Leaves the encoding of this type's commands, when captured as text, to whoever reads the text — a trace
    /// log's writer, off the recording thread (see ``DeferredPayload``). Only for a type known to be `Sendable`.
    private let deferrer: (any PayloadDeferring)?
    /// Whether payloads of this type are encoded when written rather than when sent. Stored, as `isTraced` is,
    /// so that the per-command checks read a flag: testing the optional existentials themselves copied and
    /// destroyed them through outlined value witnesses, ~320 instructions a traced command (callgrind,
    /// `chaintrace-benchmarks` "instrumented chain (traceHop), traced").
    let defersPayloads: Bool

    /// The facts about `type`. `deferrer`, which only a caller that knows the type is `Sendable` can make, lets
    /// its payloads be encoded later.
    @usableFromInline
    init<Command>(_ type: Command.Type, deferrer: (any PayloadDeferring)? = nil) {
        typeName = String(describing: type)
        self.deferrer = deferrer
        defersPayloads = deferrer != nil
        if let encodable = type as? any Encodable.Type {
            isEncodable = true
            encodableReader = Self.encodableReader(for: encodable)
        } else {
            isEncodable = false
            encodableReader = nil
        }
        if let traced = type as? any TracedCommand.Type {
            isTraced = true
            tracedReader = Self.reader(for: traced)
        } else {
            isTraced = false
            tracedReader = nil
        }
    }

    private static func encodableReader<Encoded: Encodable>(for type: Encoded.Type) -> any EncodableCommandReading {
        EncodableCommandReader<Encoded>()
    }

    private static func reader<Traced: TracedCommand>(for type: Traced.Type) -> any TracedCommandReading {
        TracedCommandReader<Traced>()
    }

    /// The kind (`nil`: the type name), id and (if wanted and possible) payload of one command.
    @usableFromInline
    func describe<Command>(_ command: Command, capturing payloads: PayloadCapture) -> CommandDescription {
        var kind: String?
        var id: String?
        var payload: JSONValue?
        var encodedPayload: (any EncodedPayload)?
        let capturing = payloads.isOn
        if isTraced, let tracedReader {
            // `Command` is the type this info was made for, so the pointer really points at a `Traced`.
            (kind, id, payload) = withUnsafePointer(to: command) { tracedReader.read(UnsafeRawPointer($0), capturing) }
        }
        if capturing, payload == nil, isEncodable, let encodableReader {
            if case .text(let encoder) = payloads, encoder.encodesWhenWritten, let deferrer {
                encodedPayload = deferrer.payload(of: command, reader: encodableReader, encoder: encoder)
            } else if case .text(let encoder) = payloads, let text = encodableReader.text(of: command, encoder: encoder)
            {
                encodedPayload = text
            } else {
                payload = encodableReader.value(of: command)
            }
        }
        if case .redacted(let redact) = payloads, var redacted = payload {
            redact(&redacted)
            payload = redacted
        }
        return (kind, id, payload, encodedPayload)
    }
}

/// What a trace records about its command: kind, id and payload (as a value or as text). A tuple: as a struct,
/// it was copied through its value witnesses on a traced `Chain`'s every send, 7 ns a hop on a 10-handler chain
/// (`chaintrace-benchmarks`, "Chain, traced into memory").
@usableFromInline
typealias CommandDescription = (kind: String?, id: String?, payload: JSONValue?, encodedPayload: (any EncodedPayload)?)

/// Encodes commands of one `Encodable` type.
///
/// This, ``TracedCommandReading`` and ``PayloadDeferring`` are class-bound, and their readers classes without
/// state: an optional existential of one is then a reference, copied with a retain, where a struct's existential
/// was copied and destroyed through outlined value witnesses at every traced command.
@usableFromInline
protocol EncodableCommandReading: AnyObject, Sendable {
    /// `command` (of the reader's type) as JSON text, or `nil` when the encoder cannot write it in one pass.
    func text<Command>(of command: Command, encoder: any PayloadTextEncoder) -> (any EncodedPayload)?
    /// The same text as `text(of:encoder:)`'s, as bytes with no payload object around them: what a
    /// ``DeferredPayload`` hands its reader.
    func textBytes<Command>(of command: Command, encoder: any PayloadTextEncoder) -> [UInt8]?
    /// `command` (of the reader's type) as a value, or `nil` when it cannot be encoded.
    func value<Command>(of command: Command) -> JSONValue?
}

/// The encoder of one command type.
final class EncodableCommandReader<Encoded: Encodable>: EncodableCommandReading {
    func text<Command>(of command: Command, encoder: any PayloadTextEncoder) -> (any EncodedPayload)? {
        // `Command` is `Encoded` (the type this reader was made for): a cast between equal types, no lookup.
        encoder.encode(command as! Encoded)
    }

    func textBytes<Command>(of command: Command, encoder: any PayloadTextEncoder) -> [UInt8]? {
        encoder.encodeText(command as! Encoded)
    }

    func value<Command>(of command: Command) -> JSONValue? {
        try? JSONValue(encoding: command as! Encoded)
    }
}

/// Reads a ``TracedCommand``'s description through a pointer to it.
protocol TracedCommandReading: AnyObject, Sendable {
    func read(_ command: UnsafeRawPointer, _ capturingPayload: Bool) -> (
        kind: String?, id: String?, payload: JSONValue?
    )
}

/// The reader for one command type.
final class TracedCommandReader<Traced: TracedCommand>: TracedCommandReading {
    func read(_ command: UnsafeRawPointer, _ capturingPayload: Bool) -> (
        kind: String?, id: String?, payload: JSONValue?
    ) {
        let command = command.assumingMemoryBound(to: Traced.self)
        return (
            command.pointee.commandKind, command.pointee.commandID,
            capturingPayload ? command.pointee.commandPayload : nil
        )
    }
}
