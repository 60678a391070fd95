public import ChainTrace
import ChainTraceFastPath
import ChainTraceJSON

/// A command read from a command stream or a trace log: its kind, optional id and entry, and its fields as JSON.
///
/// Chains built from a ``ChainDefinition`` carry these; rules test its ``fields`` and ``kind``.
public struct JSONCommand: Sendable, Hashable, TracedCommand {
    /// Everything in one reference, so passing a command along the chain copies one pointer.
    @usableFromInline fileprivate(set) var storage: Storage

    /// What kind of command it is (`"Tap"`, `"InsertedCoin"`); `"Command"` when the stream does not say.
    public var kind: String {
        @inlinable get { storage.kind }
        set { storage = storage.with(kind: newValue) }
    }
    /// The command's own id, used to match it with the same command in a recorded run.
    public var id: String? {
        get { storage.id ?? storage.idInLine.map(storage.lineText(_:)) }
        set { storage = storage.with(id: newValue) }
    }
    /// The handler to send it to; `nil` for the chain's first entry.
    public var entry: String? {
        @inlinable get { storage.entry }
        set { storage = storage.with(entry: newValue) }
    }
    /// Where ``entry``'s value starts in the stream line the command was read from: a 1-based column in bytes, for
    /// an error naming it (an entry the chain lacks); 0 when not known.
    package var entryColumn: Int {
        get { storage.entryColumn }
        set {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.with() }
            storage.entryColumn = newValue
        }
    }
    /// The command's data: a JSON object.
    public var fields: JSONValue {
        get { storage.fieldsInLine ? storage.fields(parsingLineWith: Self.fields(ofLine:)) : storage.fields }
        set {
            storage = Storage(kind: storage.kind, id: id, entry: storage.entry, fields: newValue, slots: nil)
        }
    }

    /// Creates a command.
    public init(kind: String = "Command", id: String? = nil, entry: String? = nil, fields: JSONValue = [:]) {
        storage = Storage(kind: kind, id: id, entry: entry, fields: fields, slots: nil)
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// A command whose storage the caller may fill, because nothing else holds it: `recycled` — a stream
    /// reader's previous command — when nobody else holds it any more (the chain is done with it), else a new
    /// one, which becomes `recycled`. So a stream of commands is decoded without allocating.
    ///
    /// The storage comes unretained: `recycled` holds it, and the caller fills it before it lets `recycled` go.
    package static func uniquelyHeld(recycling recycled: inout JSONCommand?, slots schema: FieldSchema?)
        -> UnretainedObject<Storage>
    {
        if recycled != nil, isKnownUniquelyReferenced(&recycled!.storage) {
            return UnretainedObject(recycled!.storage)
        }
        let storage = Storage(
            kind: "Command",
            id: nil,
            entry: nil,
            fields: .null,
            slots: schema.map(FieldSlots.init(for:))
        )
        recycled = JSONCommand(storage: storage)
        return UnretainedObject(storage)
    }

    /// The value a decoder put in `slot` for `schema`; `.none` when the command has no slots for that schema
    /// (the caller then reads ``fields``), `.some(nil)` when the field is absent.
    func slotValue(_ slot: Int, schema: ObjectIdentifier) -> JSONValue?? {
        let storage = storage
        guard storage.slots?.owner == schema else { return .none }
        return .some(storage.slots!.value(slot))
    }

    /// The number in `slot` for `schema` (NaN when the field is absent or not a number); `nil` when the command
    /// has no slots for that schema.
    @inline(__always)
    func slotNumber(_ slot: Int, schema: ObjectIdentifier) -> Double? {
        let storage = storage
        guard storage.slots?.owner == schema else { return nil }
        return storage.slots!.number(slot)
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

    /// A command's contents, in storage a stream reader refills (see ``CommandStorage`` in ChainTraceFastPath,
    /// which says what that buys and why it is sound).
    @usableFromInline package typealias Storage = CommandStorage<JSONValue>

    /// The fields of a command line: its members other than kind, id and entry. The line was checked when it
    /// was read, so it parses.
    private static func fields(ofLine line: UnsafeBufferPointer<UInt8>) -> JSONValue {
        guard case .object(var members)? = try? JSONParser.parse(line) else {
            return [:]
        }
        for key in ["kind", "id", "entry"] { members.removeValue(forKey: key) }
        return .object(members)
    }
}
