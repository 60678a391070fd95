import ChainTraceFastPath

/// Encodes `Encodable` values straight into JSON text, in one pass: no ``JSONValue`` tree and no dictionary per
/// object, members in the order the value encodes them, strings escaped as ``JSONWriter`` escapes them. How a
/// trace log captures command payloads (measured in `chaintrace-benchmarks`, "+ payloads" rows).
///
/// One pass cannot write everything `Encodable` allows: a value may come back to a container it left (write a
/// member of an outer container, then one of an inner container it is still holding), give a key twice, use a
/// super encoder, or encode nothing where a value is due. ``encode(_:)`` then returns `nil`, and the caller
/// encodes the value into a tree instead, which handles those cases — so the text, when there is one, always
/// parses to exactly the tree's value (differential test: `JSONTextEncoderDifferentialTests`).
package enum JSONTextEncoder {
    /// `value` as JSON text, or `nil` when one pass cannot write it (see above) or it cannot be JSON at all (a
    /// non-finite number, an encoder error).
    package static func encode(_ value: some Encodable) -> [UInt8]? {
        writers.withScratch { writer in
            writer.reset()
            let root = writer.newSlot()
            do {
                try value.encode(to: SlotEncoder(writer: writer, slot: root, codingPath: []))
            } catch {
                return nil
            }
            return writer.finish()
        }
    }

    /// Each thread's writer, reused from one command to the next (see ``ThreadScratch``).
    private static let writers = ThreadScratch { TextWriter() }
}

/// The text being written and what is open in it, shared by the encoder and containers of one `encode`.
///
/// Its state is in an ``UncheckedCell``: a class's stored properties are checked for overlapping access at run
/// time, and on an order-like command those checks were a tenth of the capture's time (`chaintrace-benchmarks`,
/// "order command" rows). Sound: one `encode` runs on one thread, and no access overlaps another — the value's own
/// `encode(to:)` is only ever called between accesses, never inside one.
final class TextWriter {
    private let cell: UncheckedCell<TextState>

    init() {
        var state = TextState()
        state.json.reserveCapacity(256)
        cell = UncheckedCell.make(state)
    }

    var json: JSONWriter {
        get { cell.value.json }
        _modify { yield &cell.value.json }
    }

    func newSlot() -> Int { cell.value.newSlot() }
    func fail() { cell.value.failed = true }
    func beginValue(_ slot: Int) -> Bool { cell.value.beginValue(slot) }
    func container(in slot: Int, isObject: Bool) -> Int { cell.value.container(in: slot, isObject: isObject) }
    func beginMember(of container: Int, key: String?) -> Bool { cell.value.beginMember(of: container, key: key) }
    func count(of container: Int) -> Int { cell.value.count(of: container) }
    func write(_ number: Double) { cell.value.write(number) }
    func write(unsigned number: UInt64) { cell.value.write(unsigned: number) }
    func finish() -> [UInt8]? { cell.value.finish() }
    func reset() { cell.value.reset() }

    /// Encodes `value` into a new slot that a member just began.
    func encodeInNewSlot<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
        let slot = newSlot()
        try value.encode(to: SlotEncoder(writer: self, slot: slot, codingPath: codingPath))
        // A value that encoded nothing: the tree leaves the member out (or writes null in an array).
        if cell.value.pendingSlot == slot { fail() }
    }
}

/// What ``TextWriter`` holds. A slot is the place one value goes (the root, after a key, an array element); a
/// container is an object or array being written. Both are numbered from one counter, so a container that has
/// been closed is never mistaken for one still open.
struct TextState {
    struct OpenContainer {
        let id: Int
        /// The slot it was opened in, for an encoder asked for its container a second time (a subclass and its
        /// superclass encoding into one object).
        let slot: Int
        let isObject: Bool
        var count = 0
        /// Where this object's keys start in `keys`.
        let firstKey: Int
        /// Its keys as a set, once it has many (else they are compared one by one).
        var keySet: Set<String>?
    }

    var json = JSONWriter()
    /// The open containers, outermost first.
    private var open: [OpenContainer] = []
    /// The keys of the open objects, outermost object's first, to refuse a repeated one: one array for all, so an
    /// object costs no allocation of its own.
    private var keys: [String] = []
    private var nextID = 0
    /// The slot the next value must go to, or -1.
    private(set) var pendingSlot = -1
    /// Set when something is asked that one pass cannot write; everything after is ignored.
    var failed = false

    /// A new slot, which the next value must fill.
    mutating func newSlot() -> Int {
        defer { nextID += 1 }
        pendingSlot = nextID
        return nextID
    }

    /// Starts the value of `slot`; `false` (and failed) unless that slot is the one due.
    mutating func beginValue(_ slot: Int) -> Bool {
        guard !failed, pendingSlot == slot else {
            failed = true
            return false
        }
        pendingSlot = -1
        return true
    }

    /// Opens an object or array in `slot`, or finds the one already opened there; -1 when neither can be.
    mutating func container(in slot: Int, isObject: Bool) -> Int {
        if !failed, pendingSlot == slot {
            pendingSlot = -1
            let id = nextID
            nextID += 1
            json.append(byte: isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
            open.append(OpenContainer(id: id, slot: slot, isObject: isObject, firstKey: keys.count))
            return id
        }
        if !failed, let earlier = open.last(where: { $0.slot == slot }), earlier.isObject == isObject {
            return earlier.id
        }
        failed = true
        return -1
    }

    /// Makes `container` the innermost open one (closing any opened inside it) and starts its next member:
    /// writes the comma and, for an object, `key` and its colon. `false` (and failed) when the container is
    /// closed, the key was written before, or a value is still due elsewhere.
    mutating func beginMember(of container: Int, key: String?) -> Bool {
        guard !failed, pendingSlot == -1, let index = open.lastIndex(where: { $0.id == container }) else {
            failed = true
            return false
        }
        while open.count > index + 1 { close() }
        if let key {
            guard insert(key, into: index) else {
                failed = true
                return false
            }
        }
        if open[index].count > 0 { json.append(byte: UInt8(ascii: ",")) }
        open[index].count += 1
        if let key {
            json.write(key)
            json.append(byte: UInt8(ascii: ":"))
        }
        return true
    }

    /// How many members `container` has so far (0 once it is closed).
    func count(of container: Int) -> Int {
        open.last(where: { $0.id == container })?.count ?? 0
    }

    /// Adds `key` to the keys of the innermost open object (at `index`); `false` if it has it already.
    private mutating func insert(_ key: String, into index: Int) -> Bool {
        if open[index].keySet != nil { return open[index].keySet!.insert(key).inserted }
        let first = open[index].firstKey
        if keys[first...].contains(key) { return false }
        keys.append(key)
        if keys.count - first > 16 {
            open[index].keySet = Set(keys[first...])
            keys.removeSubrange(first...)
        }
        return true
    }

    private mutating func close() {
        let closed = open.removeLast()
        if closed.isObject, closed.keySet == nil { keys.removeSubrange(closed.firstKey...) }
        json.append(byte: closed.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    mutating func write(_ number: Double) {
        guard number.isFinite else {
            failed = true
            return
        }
        json.write(number)
    }

    mutating func write(unsigned number: UInt64) {
        if let exact = Int64(exactly: number) { json.write(exact) } else { json.write(Double(number)) }
    }

    /// The text, every container closed; `nil` if anything failed or no value was written.
    mutating func finish() -> [UInt8]? {
        guard !failed, pendingSlot == -1 else { return nil }
        while !open.isEmpty { close() }
        return Array(json.bytes)
    }

    /// Empties the writer for the next value, keeping its room. Slot and container numbers go on from where
    /// they were, so an encoder or container kept from an earlier value matches nothing open now: a write
    /// through it fails this value (the tree then encodes it) rather than landing in its text.
    mutating func reset() {
        json.removeAll()
        open.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        pendingSlot = -1
        failed = false
    }
}

/// The encoder of one slot, and its single value container.
struct SlotEncoder: Encoder, SingleValueEncodingContainer {
    let writer: TextWriter
    let slot: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let id = writer.container(in: slot, isObject: true)
        return KeyedEncodingContainer(TextKeyedContainer<Key>(writer: writer, id: id, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        TextUnkeyedContainer(writer: writer, id: writer.container(in: slot, isObject: false), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { if writer.beginValue(slot) { writer.json.append("null") } }
    func encode(_ value: Bool) throws { if writer.beginValue(slot) { writer.json.append(value ? "true" : "false") } }
    func encode(_ value: String) throws { if writer.beginValue(slot) { writer.json.write(value) } }
    func encode(_ value: Double) throws { if writer.beginValue(slot) { writer.write(value) } }
    func encode(_ value: Float) throws { if writer.beginValue(slot) { writer.write(Double(value)) } }
    func encode(_ value: Int) throws { if writer.beginValue(slot) { writer.json.write(Int64(value)) } }
    func encode(_ value: Int8) throws { if writer.beginValue(slot) { writer.json.write(Int64(value)) } }
    func encode(_ value: Int16) throws { if writer.beginValue(slot) { writer.json.write(Int64(value)) } }
    func encode(_ value: Int32) throws { if writer.beginValue(slot) { writer.json.write(Int64(value)) } }
    func encode(_ value: Int64) throws { if writer.beginValue(slot) { writer.json.write(value) } }
    func encode(_ value: UInt) throws { if writer.beginValue(slot) { writer.write(unsigned: UInt64(value)) } }
    func encode(_ value: UInt8) throws { if writer.beginValue(slot) { writer.json.write(Int64(value)) } }
    func encode(_ value: UInt16) throws { if writer.beginValue(slot) { writer.json.write(Int64(value)) } }
    func encode(_ value: UInt32) throws { if writer.beginValue(slot) { writer.json.write(Int64(value)) } }
    func encode(_ value: UInt64) throws { if writer.beginValue(slot) { writer.write(unsigned: value) } }
    func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
}

/// An object being written.
struct TextKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: TextWriter
    let id: Int
    let codingPath: [any CodingKey]

    private func begin(_ key: Key) -> Bool { writer.beginMember(of: id, key: key.stringValue) }

    /// The coding path of a member (one allocation, where `codingPath + [key]` makes two).
    private func path(_ key: Key) -> [any CodingKey] {
        var path = codingPath
        path.append(key)
        return path
    }

    mutating func encodeNil(forKey key: Key) throws { if begin(key) { writer.json.append("null") } }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        if begin(key) { writer.json.append(value ? "true" : "false") }
    }
    mutating func encode(_ value: String, forKey key: Key) throws { if begin(key) { writer.json.write(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { if begin(key) { writer.write(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { if begin(key) { writer.write(Double(value)) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { if begin(key) { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { if begin(key) { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { if begin(key) { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { if begin(key) { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { if begin(key) { writer.json.write(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        if begin(key) { writer.write(unsigned: UInt64(value)) }
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { if begin(key) { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { if begin(key) { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { if begin(key) { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { if begin(key) { writer.write(unsigned: value) } }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if begin(key) { try writer.encodeInNewSlot(value, codingPath: path(key)) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        _ = begin(key)
        return SlotEncoder(writer: writer, slot: writer.newSlot(), codingPath: path(key)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        _ = begin(key)
        return SlotEncoder(writer: writer, slot: writer.newSlot(), codingPath: path(key)).unkeyedContainer()
    }

    /// One pass cannot write a super encoder's member (it may be written after later members): the tree does.
    mutating func superEncoder() -> any Encoder {
        writer.fail()
        return SlotEncoder(writer: writer, slot: -1, codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder() }
}

/// An array being written.
struct TextUnkeyedContainer: UnkeyedEncodingContainer {
    let writer: TextWriter
    let id: Int
    let codingPath: [any CodingKey]
    var count: Int { writer.count(of: id) }

    private func begin() -> Bool { writer.beginMember(of: id, key: nil) }

    mutating func encodeNil() throws { if begin() { writer.json.append("null") } }
    mutating func encode(_ value: Bool) throws { if begin() { writer.json.append(value ? "true" : "false") } }
    mutating func encode(_ value: String) throws { if begin() { writer.json.write(value) } }
    mutating func encode(_ value: Double) throws { if begin() { writer.write(value) } }
    mutating func encode(_ value: Float) throws { if begin() { writer.write(Double(value)) } }
    mutating func encode(_ value: Int) throws { if begin() { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: Int8) throws { if begin() { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: Int16) throws { if begin() { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: Int32) throws { if begin() { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: Int64) throws { if begin() { writer.json.write(value) } }
    mutating func encode(_ value: UInt) throws { if begin() { writer.write(unsigned: UInt64(value)) } }
    mutating func encode(_ value: UInt8) throws { if begin() { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: UInt16) throws { if begin() { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: UInt32) throws { if begin() { writer.json.write(Int64(value)) } }
    mutating func encode(_ value: UInt64) throws { if begin() { writer.write(unsigned: value) } }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if begin() { try writer.encodeInNewSlot(value, codingPath: codingPath) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        _ = begin()
        return SlotEncoder(writer: writer, slot: writer.newSlot(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        _ = begin()
        return SlotEncoder(writer: writer, slot: writer.newSlot(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        writer.fail()
        return SlotEncoder(writer: writer, slot: -1, codingPath: codingPath)
    }
}
