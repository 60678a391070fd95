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

    @usableFromInline
    init<Command>(_ type: Command.Type) {
        typeName = String(describing: type)
        isEncodable = type is any Encodable.Type
        isTraced = type is any TracedCommand.Type
    }

    /// The kind (`nil`: the type name), id and (if wanted and possible) payload of one command.
    @inlinable
    func describe<Command>(
        _ command: Command,
        capturingPayload: Bool
    ) -> (kind: String?, id: String?, payload: JSONValue?) {
        var description: (kind: String?, id: String?, payload: JSONValue?) = (nil, nil, nil)
        // Where `Command` is known — the usual case, since `send` is inlinable and so specialised for the
        // caller's command type — this cast is settled when compiling and the properties are read directly.
        if isTraced, let traced = command as? any TracedCommand {
            description = (traced.commandKind, traced.commandID, capturingPayload ? traced.commandPayload : nil)
        }
        if capturingPayload, description.payload == nil, isEncodable {
            description.payload = Self.encodedPayload(of: command)
        }
        return description
    }

    /// The command encoded as JSON, when it is `Encodable` and encodes.
    @usableFromInline
    static func encodedPayload<Command>(of command: Command) -> JSONValue? {
        guard let encodable = command as? any Encodable else { return nil }
        return try? JSONValue(encoding: encodable)
    }
}
