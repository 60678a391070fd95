import ChainTrace
import ChainTraceJSON

/// The top-level fields a chain's rules read, each given a slot, so that a command decoded for that chain
/// carries those fields in an array and rules read them by index instead of hashing names on every test.
///
/// Made once per replay from the definition; a command without slots (or with another schema's) is still
/// tested correctly, through its `fields` object.
///
/// `@unchecked Sendable` because its lookup tables are raw memory; it writes them only in `init` and frees them
/// only in `deinit`, so sharing it between threads is safe.
package final class FieldSchema: @unchecked Sendable {
    /// The field names, in slot order.
    package let names: [String]
    let slotByName: [String: Int]
    /// Every name's UTF-8 bytes, one after another, and where each starts (with the end after the last): memory
    /// the schema owns and never changes, so looking a key up retains nothing.
    private let nameBytes: UnsafeMutableBufferPointer<UInt8>
    private let nameStarts: UnsafeMutableBufferPointer<Int>

    /// A schema of the top-level fields every rule of `definition` reads.
    package convenience init(for definition: ChainDefinition) {
        var names: [String] = []
        for handler in definition.handlers {
            for member in [handler] + (handler.members ?? []) {
                for rule in [member.accepts, member.failure?.when].compactMap({ $0 }) {
                    for field in rule.fieldPaths where !names.contains(field.components[0]) {
                        names.append(field.components[0])
                    }
                }
            }
        }
        self.init(names: names)
    }

    /// Where a key's bytes point (see ``NameBytes/bucket(count:first:last:)``): the one slot whose name lands
    /// there, -1 for none, -2 for several (then every name is compared).
    private let slotByBucket: UnsafeMutableBufferPointer<Int>

    /// A schema of these field names.
    package init(names: [String]) {
        self.names = names
        slotByName = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let utf8Names = names.map { Array($0.utf8) }
        nameBytes = .allocate(capacity: utf8Names.reduce(0) { $0 + $1.count })
        _ = nameBytes.initialize(from: utf8Names.joined())
        nameStarts = .allocate(capacity: names.count + 1)
        var start = 0
        for (slot, name) in utf8Names.enumerated() {
            nameStarts[slot] = start
            start += name.count
        }
        nameStarts[names.count] = start
        slotByBucket = .allocate(capacity: 256)
        slotByBucket.initialize(repeating: -1)
        for (slot, name) in utf8Names.enumerated() {
            guard let bucket = name.withUnsafeBufferPointer(NameBytes.bucket(of:)) else { continue }
            slotByBucket[bucket] = slotByBucket[bucket] == -1 ? slot : -2
        }
    }

    deinit {
        nameBytes.deallocate()
        nameStarts.deallocate()
        slotByBucket.deallocate()
    }

    /// The slot of the field whose name is `bytes`, compared without making a `String`.
    func slot(for bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let bucket = NameBytes.bucket(of: bytes) else { return nil }
        let candidate = slotByBucket[bucket]
        if candidate == -1 { return nil }
        if candidate >= 0 { return isName(candidate, bytes) ? candidate : nil }
        return (0..<names.count).first { isName($0, bytes) }
    }

    @inline(__always)
    private func isName(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = nameStarts[slot]
        return nameStarts[slot + 1] - start == bytes.count
            && NameBytes.equal(nameBytes.baseAddress! + start, bytes.baseAddress!, count: bytes.count)
    }
}

/// A command's values for a ``FieldSchema``'s fields, filled in while the command was decoded.
///
/// One command's storage owns it (and copies it when that storage is copied), in memory it allocates once, so
/// setting or reading a slot retains and checks nothing: it runs on every command and every rule test of a
/// replay. `@unchecked Sendable` on the same terms as the storage: only the decoder writes it, while nothing else
/// holds the command.
final class FieldSlots: @unchecked Sendable {
    let schema: ObjectIdentifier
    let count: Int
    /// Each field's value; `nil` when the command does not have it.
    let values: UnsafeMutablePointer<JSONValue?>
    /// Each field's value as a number, NaN when it is absent or not a number — what range rules compare.
    let numbers: UnsafeMutablePointer<Double>

    /// Empty slots for `schema`.
    convenience init(for schema: FieldSchema) {
        self.init(schema: ObjectIdentifier(schema), count: schema.names.count)
    }

    private init(schema: ObjectIdentifier, count: Int) {
        self.schema = schema
        self.count = count
        values = .allocate(capacity: count)
        values.initialize(repeating: nil, count: count)
        numbers = .allocate(capacity: count)
        numbers.initialize(repeating: .nan, count: count)
    }

    deinit {
        values.deinitialize(count: count)
        values.deallocate()
        numbers.deallocate()
    }

    /// Slots of their own holding the same values.
    func copy() -> FieldSlots {
        let copy = FieldSlots(schema: schema, count: count)
        copy.values.update(from: values, count: count)
        copy.numbers.update(from: numbers, count: count)
        return copy
    }

    /// Puts `value` in `slot`.
    func set(_ value: JSONValue, at slot: Int) {
        values[slot] = value
        numbers[slot] = value.doubleValue ?? .nan
    }

    /// Empties every slot, keeping the memory for the next command.
    func clear() {
        for slot in 0..<count {
            values[slot] = nil
            numbers[slot] = .nan
        }
    }
}

extension Rule {
    /// Every field path the rule tests.
    var fieldPaths: [FieldPath] {
        switch self {
        case .always, .kind: []
        case .equals(let field, _), .oneOf(let field, _), .range(let field, _, _), .matches(let field, _),
            .present(let field, _):
            [field]
        case .all(let rules), .any(let rules): rules.flatMap(\.fieldPaths)
        case .not(let rule): rule.fieldPaths
        }
    }

}
