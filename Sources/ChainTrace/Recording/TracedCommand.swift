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
@usableFromInline
struct CommandTypeInfo: Sendable {
    @usableFromInline let typeName: String
    @usableFromInline let isTraced: Bool
    @usableFromInline let isEncodable: Bool
    /// Reads kind, id and payload straight from a command of this type, found once by opening its
    /// `TracedCommand` conformance: no dynamic cast or existential box per command.
    private let tracedReader: (any TracedCommandReading)?

    @usableFromInline
    init<Command>(_ type: Command.Type) {
        typeName = String(describing: type)
        isEncodable = type is any Encodable.Type
        if let traced = type as? any TracedCommand.Type {
            isTraced = true
            tracedReader = Self.reader(for: traced)
        } else {
            isTraced = false
            tracedReader = nil
        }
    }

    private static func reader<Traced: TracedCommand>(for type: Traced.Type) -> any TracedCommandReading {
        TracedCommandReader<Traced>()
    }

    /// The kind (`nil`: the type name), id and (if wanted and possible) payload of one command.
    @usableFromInline
    func describe<Command>(
        _ command: Command,
        capturingPayload: Bool
    ) -> (kind: String?, id: String?, payload: JSONValue?) {
        var kind: String?
        var id: String?
        var payload: JSONValue?
        if let tracedReader {
            // `Command` is the type this info was made for, so the pointer really points at a `Traced`.
            (kind, id, payload) = withUnsafePointer(to: command) { tracedReader.read(UnsafeRawPointer($0), capturingPayload) }
        }
        if capturingPayload, payload == nil, isEncodable, let encodable = command as? any Encodable {
            payload = try? JSONValue(encoding: encodable)
        }
        return (kind, id, payload)
    }
}

/// Reads a ``TracedCommand``'s description through a pointer to it.
protocol TracedCommandReading: Sendable {
    func read(_ command: UnsafeRawPointer, _ capturingPayload: Bool) -> (kind: String?, id: String?, payload: JSONValue?)
}

/// The reader for one command type.
struct TracedCommandReader<Traced: TracedCommand>: TracedCommandReading {
    func read(_ command: UnsafeRawPointer, _ capturingPayload: Bool) -> (kind: String?, id: String?, payload: JSONValue?) {
        let command = command.assumingMemoryBound(to: Traced.self)
        return (command.pointee.commandKind, command.pointee.commandID, capturingPayload ? command.pointee.commandPayload : nil)
    }
}
