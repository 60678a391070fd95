import ChainTraceFastPath
public import ChainTrace
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
    /// The command's data: a JSON object.
    public var fields: JSONValue {
        get { storage.fieldsInLine ? storage.withLine(Self.fields(ofLine:)) : storage.fields }
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
    static func uniquelyHeld(recycling recycled: inout JSONCommand?, slots schema: FieldSchema?) -> UnretainedObject<Storage> {
        if recycled != nil, isKnownUniquelyReferenced(&recycled!.storage) {
            return UnretainedObject(recycled!.storage)
        }
        let storage = Storage(kind: "Command", id: nil, entry: nil, fields: .null, slots: schema.map(FieldSlots.init(for:)))
        recycled = JSONCommand(storage: storage)
        return UnretainedObject(storage)
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

    /// A command's contents. Never changed while anyone else can see it: a change to a command makes a new one,
    /// and a stream reader refills one only when it is uniquely referenced (see
    /// ``uniquelyHeld(recycling:slots:)``). That is what makes `@unchecked Sendable` sound.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        /// What a decoder refills for every line, read by the rules on every test: in an ``UncheckedCell``, since
        /// only the thread that holds the command alone writes it; the run-time exclusivity check on these fields
        /// cost a replay of a flat million-line stream about half its speed.
        @usableFromInline let contents: UncheckedCell<Contents>
        let slots: FieldSlots?

        @usableFromInline
        struct Contents {
            @usableFromInline var kind: String
            @usableFromInline var id: String?
            @usableFromInline var entry: String?
            var fields: JSONValue
            /// When `true`, the fields are the members of the kept line (see ``setLine(_:)``) other than kind, id
            /// and entry.
            var fieldsInLine = false
            /// Where in the kept line the id's text is, when the decoder left it there (an id without escapes): it
            /// is only made into a `String` if someone asks, and most replayed commands are never asked.
            var idInLine: Range<Int>?
            /// The line's bytes, in memory the storage owns and reuses when it is refilled: copying a line into it
            /// is one `memcpy`, where an array would first be emptied and then grown element by element.
            var lineBytes = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
            var lineCount = 0
        }

        @inlinable var kind: String {
            _read { yield contents.value.kind }
            _modify { yield &contents.value.kind }
        }
        @inlinable var id: String? {
            _read { yield contents.value.id }
            _modify { yield &contents.value.id }
        }
        @inlinable var entry: String? {
            _read { yield contents.value.entry }
            _modify { yield &contents.value.entry }
        }
        var fields: JSONValue {
            _read { yield contents.value.fields }
            _modify { yield &contents.value.fields }
        }
        var fieldsInLine: Bool {
            _read { yield contents.value.fieldsInLine }
            _modify { yield &contents.value.fieldsInLine }
        }
        var idInLine: Range<Int>? {
            _read { yield contents.value.idInLine }
            _modify { yield &contents.value.idInLine }
        }
        private var lineBytes: UnsafeMutableBufferPointer<UInt8> {
            _read { yield contents.value.lineBytes }
            _modify { yield &contents.value.lineBytes }
        }
        private var lineCount: Int {
            _read { yield contents.value.lineCount }
            _modify { yield &contents.value.lineCount }
        }

        init(kind: String, id: String?, entry: String?, fields: JSONValue, slots: FieldSlots?) {
            contents = UncheckedCell(Contents(kind: kind, id: id, entry: entry, fields: fields))
            self.slots = slots
        }

        deinit {
            lineBytes.deallocate()
        }

        /// Keeps a copy of `bytes` as the line.
        func setLine(_ bytes: UnsafeBufferPointer<UInt8>) {
            if bytes.count > lineBytes.count {
                lineBytes.deallocate()
                lineBytes = .allocate(capacity: max(bytes.count, 2 * lineBytes.count, 64))
            }
            if let source = bytes.baseAddress { lineBytes.baseAddress!.update(from: source, count: bytes.count) }
            lineCount = bytes.count
        }

        /// The text of a part of the line.
        func lineText(_ range: Range<Int>) -> String {
            withLine { Self.text(range, of: $0) }
        }

        /// The text of `range` in `bytes`, a line the decoder checked.
        static func text(_ range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        /// Calls `body` with the line's bytes.
        func withLine<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
            body(UnsafeBufferPointer(rebasing: lineBytes[..<lineCount]))
        }

        func with(kind: String? = nil, id: String?? = nil, entry: String?? = nil) -> Storage {
            let copy = Storage(kind: kind ?? self.kind, id: id ?? self.id, entry: entry ?? self.entry, fields: fields, slots: slots?.copy())
            copy.idInLine = id == nil ? idInLine : nil
            copy.fieldsInLine = fieldsInLine
            withLine(copy.setLine)
            return copy
        }
    }

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
