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
        get { storage.fieldsInLine ? Self.fields(ofLine: storage.line) : storage.fields }
        set {
            storage = Storage(kind: storage.kind, id: storage.id, entry: storage.entry, fields: newValue, slots: nil)
        }
    }

    /// Creates a command.
    public init(kind: String = "Command", id: String? = nil, entry: String? = nil, fields: JSONValue = [:]) {
        storage = Storage(kind: kind, id: id, entry: entry, fields: fields, slots: nil)
    }

    init(kind: String, id: String?, entry: String?, fields: JSONValue, slots: FieldSlots?) {
        storage = Storage(kind: kind, id: id, entry: entry, fields: fields, slots: slots)
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// A command for a line a stream reader has just decoded: its fields are decoded from `line` only if someone
    /// asks for them, and `slots` (the values a ``FieldSchema``'s rules read) are taken, leaving the previous
    /// command's in their place for the reader to clear.
    ///
    /// When `recycled` — the reader's previous command — is held by nobody else any more (the chain is done with
    /// it), its storage is refilled in place, so a stream of commands is decoded without allocating.
    static func decoded(
        kind: String,
        id: String?,
        entry: String?,
        line: UnsafeBufferPointer<UInt8>,
        slots: inout FieldSlots?,
        recycling recycled: inout JSONCommand?
    ) -> JSONCommand {
        if recycled != nil, isKnownUniquelyReferenced(&recycled!.storage) {
            // Nobody else can see this storage, so changing it in place is safe.
            let storage = recycled!.storage
            storage.kind = kind
            storage.id = id
            storage.entry = entry
            storage.fields = .null
            storage.fieldsInLine = true
            storage.line.removeAll(keepingCapacity: true)
            storage.line.append(contentsOf: line)
            swap(&storage.slots, &slots)
            return recycled!
        }
        let storage = Storage(kind: kind, id: id, entry: entry, fields: .null, slots: slots)
        storage.line = Array(line)
        storage.fieldsInLine = true
        let made = JSONCommand(storage: storage)
        recycled = made
        return made
    }

    /// The value a decoder put in `slot` for `schema`; `.none` when the command has no slots for that schema
    /// (the caller then reads ``fields``), `.some(nil)` when the field is absent.
    func slotValue(_ slot: Int, schema: ObjectIdentifier) -> JSONValue?? {
        let storage = storage
        guard storage.slots?.schema == schema else { return .none }
        return .some(storage.slots!.values[slot])
    }

    /// The number in `slot` for `schema` (NaN when the field is absent or not a number); `nil` when the command
    /// has no slots for that schema.
    @inline(__always)
    func slotNumber(_ slot: Int, schema: ObjectIdentifier) -> Double? {
        let storage = storage
        guard storage.slots?.schema == schema else { return nil }
        return storage.slots!.numbers[slot]
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

    /// A command's contents. Never changed while anyone can see it: a change to a command makes a new one, and
    /// ``decoded(kind:id:entry:line:slots:recycling:)`` refills one only when it is uniquely referenced.
    /// That is what makes `@unchecked Sendable` sound.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var kind: String
        @exclusivity(unchecked) var id: String?
        @exclusivity(unchecked) var entry: String?
        @exclusivity(unchecked) var fields: JSONValue
        /// When `true`, the fields are the members of `line` other than kind, id and entry.
        @exclusivity(unchecked) var fieldsInLine = false
        @exclusivity(unchecked) var line: [UInt8] = []
        @exclusivity(unchecked) var slots: FieldSlots?

        init(kind: String, id: String?, entry: String?, fields: JSONValue, slots: FieldSlots?) {
            self.kind = kind
            self.id = id
            self.entry = entry
            self.fields = fields
            self.slots = slots
        }

        func with(kind: String? = nil, id: String?? = nil, entry: String?? = nil) -> Storage {
            let copy = Storage(kind: kind ?? self.kind, id: id ?? self.id, entry: entry ?? self.entry, fields: fields, slots: slots)
            copy.fieldsInLine = fieldsInLine
            copy.line = line
            return copy
        }
    }

    /// The fields of a command line: its members other than kind, id and entry. The line was checked when it
    /// was read, so it parses.
    private static func fields(ofLine line: [UInt8]) -> JSONValue {
        guard case .object(var members)? = try? line.withUnsafeBufferPointer({ try JSONParser.parse($0) }) else {
            return [:]
        }
        for key in ["kind", "id", "entry"] { members.removeValue(forKey: key) }
        return .object(members)
    }
}
