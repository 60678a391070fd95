public import ChainTrace

/// A command read from a command stream or a trace log: its kind, optional id and entry, and its fields as JSON.
///
/// Chains built from a ``ChainDefinition`` carry these; rules test its ``fields`` and ``kind``.
public struct JSONCommand: Sendable, Hashable, TracedCommand {
    /// What kind of command it is (`"Tap"`, `"InsertedCoin"`); `"Command"` when the stream does not say.
    public var kind: String
    /// The command's own id, used to match it with the same command in a recorded run.
    public var id: String?
    /// The handler to send it to; `nil` for the chain's first entry.
    public var entry: String?
    /// The command's data: a JSON object.
    public var fields: JSONValue

    /// Creates a command.
    public init(kind: String = "Command", id: String? = nil, entry: String? = nil, fields: JSONValue = [:]) {
        self.kind = kind
        self.id = id
        self.entry = entry
        self.fields = fields
    }

    public var commandKind: String { kind }
    public var commandID: String? { id }
    public var commandPayload: JSONValue? { fields }
}
