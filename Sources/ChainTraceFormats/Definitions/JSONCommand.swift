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
    public var fields: JSONValue {
        get { storedFields }
        set {
            storedFields = newValue
            slots = nil
        }
    }
    private var storedFields: JSONValue
    /// Some fields again, by slot, for rules compiled with the same ``FieldSchema``.
    var slots: FieldSlots?

    /// Creates a command.
    public init(kind: String = "Command", id: String? = nil, entry: String? = nil, fields: JSONValue = [:]) {
        self.kind = kind
        self.id = id
        self.entry = entry
        self.storedFields = fields
    }

    init(kind: String, id: String?, entry: String?, fields: JSONValue, slots: FieldSlots?) {
        self.init(kind: kind, id: id, entry: entry, fields: fields)
        self.slots = slots
    }

    public static func == (left: JSONCommand, right: JSONCommand) -> Bool {
        left.kind == right.kind && left.id == right.id && left.entry == right.entry && left.fields == right.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(id)
        hasher.combine(entry)
        hasher.combine(fields)
    }

    public var commandKind: String { kind }
    public var commandID: String? { id }
    public var commandPayload: JSONValue? { fields }
}
