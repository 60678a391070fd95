public import ChainTrace

/// A command read from a command stream or a trace log: its kind, optional id and entry, and its fields as JSON.
///
/// Chains built from a ``ChainDefinition`` carry these; rules test its ``fields`` and ``kind``.
public struct JSONCommand: Sendable, Hashable, TracedCommand {
    /// Everything in one reference, so passing a command along the chain copies one pointer.
    private var storage: Storage

    /// What kind of command it is (`"Tap"`, `"InsertedCoin"`); `"Command"` when the stream does not say.
    public var kind: String {
        get { storage.kind }
        set { storage = storage.with(kind: newValue) }
    }
    /// The command's own id, used to match it with the same command in a recorded run.
    public var id: String? {
        get { storage.id }
        set { storage = storage.with(id: newValue) }
    }
    /// The handler to send it to; `nil` for the chain's first entry.
    public var entry: String? {
        get { storage.entry }
        set { storage = storage.with(entry: newValue) }
    }
    /// The command's data: a JSON object.
    public var fields: JSONValue {
        get { storage.line?.fields ?? storage.fields }
        set {
            storage = Storage(kind: storage.kind, id: storage.id, entry: storage.entry, fields: newValue, line: nil, slots: nil)
        }
    }

    /// Creates a command.
    public init(kind: String = "Command", id: String? = nil, entry: String? = nil, fields: JSONValue = [:]) {
        storage = Storage(kind: kind, id: id, entry: entry, fields: fields, line: nil, slots: nil)
    }

    init(kind: String, id: String?, entry: String?, fields: JSONValue, slots: FieldSlots?) {
        storage = Storage(kind: kind, id: id, entry: entry, fields: fields, line: nil, slots: slots)
    }

    init(kind: String, id: String?, entry: String?, line: CommandLineBytes, slots: FieldSlots?) {
        storage = Storage(kind: kind, id: id, entry: entry, fields: .null, line: line, slots: slots)
    }

    /// The value a decoder put in `slot` for `schema`; `.none` when the command has no slots for that schema
    /// (the caller then reads ``fields``), `.some(nil)` when the field is absent.
    func slotValue(_ slot: Int, schema: ObjectIdentifier?) -> JSONValue?? {
        guard let slots = storage.slots, slots.schema == schema else { return .none }
        return .some(slots.values[slot])
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

    /// A command's contents, never changed once made: a change to a command makes a new one.
    private final class Storage: Sendable {
        let kind: String
        let id: String?
        let entry: String?
        let fields: JSONValue
        let line: CommandLineBytes?
        let slots: FieldSlots?

        init(kind: String, id: String?, entry: String?, fields: JSONValue, line: CommandLineBytes?, slots: FieldSlots?) {
            self.kind = kind
            self.id = id
            self.entry = entry
            self.fields = fields
            self.line = line
            self.slots = slots
        }

        func with(kind: String? = nil, id: String?? = nil, entry: String?? = nil) -> Storage {
            Storage(
                kind: kind ?? self.kind, id: id ?? self.id, entry: entry ?? self.entry, fields: fields, line: line,
                slots: slots)
        }
    }
}

/// A command's line, kept so its fields can be decoded when asked for rather than on every command.
final class CommandLineBytes: Sendable {
    let bytes: [UInt8]

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = Array(bytes)
    }

    /// The fields as the stream's rules define them: the line's other members. The line was checked when it was
    /// read, so it parses.
    var fields: JSONValue {
        guard case .object(var members)? = try? bytes.withUnsafeBufferPointer({ try JSONParser.parse($0) }) else {
            return [:]
        }
        for key in ["kind", "id", "entry"] { members.removeValue(forKey: key) }
        return .object(members)
    }
}
