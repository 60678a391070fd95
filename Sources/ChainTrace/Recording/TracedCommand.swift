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
        isTraced = type is any TracedCommand.Type
        isEncodable = type is any Encodable.Type
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
        if isTraced, let traced = command as? any TracedCommand {
            kind = traced.commandKind
            id = traced.commandID
            if capturingPayload { payload = traced.commandPayload }
        }
        if capturingPayload, payload == nil, isEncodable, let encodable = command as? any Encodable {
            payload = try? JSONValue(encoding: encodable)
        }
        return (kind, id, payload)
    }
}
