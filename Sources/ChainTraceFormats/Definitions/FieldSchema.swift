import ChainTrace

/// The top-level fields a chain's rules read, each given a slot, so that a command decoded for that chain
/// carries those fields in an array and rules read them by index instead of hashing names on every test.
///
/// Made once per replay from the definition; a command without slots (or with another schema's) is still
/// tested correctly, through its `fields` object.
public final class FieldSchema: Sendable {
    /// The field names, in slot order.
    public let names: [String]
    let slotByName: [String: Int]
    let utf8Names: [[UInt8]]

    /// A schema of the top-level fields every rule of `definition` reads.
    public convenience init(for definition: ChainDefinition) {
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

    /// Where a key's bytes point (see ``bucket(count:first:last:)``): the one slot whose name lands there, -1 for
    /// none, -2 for several (then every name is compared).
    let slotByBucket: [Int]

    /// A schema of these field names.
    public init(names: [String]) {
        self.names = names
        utf8Names = names.map { Array($0.utf8) }
        slotByName = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var buckets = [Int](repeating: -1, count: 256)
        for (slot, name) in utf8Names.enumerated() {
            guard let first = name.first, let last = name.last else { continue }
            let bucket = Self.bucket(count: name.count, first: first, last: last)
            buckets[bucket] = buckets[bucket] == -1 ? slot : -2
        }
        slotByBucket = buckets
    }

    /// A cheap hash of a name: its length and first and last bytes.
    static func bucket(count: Int, first: UInt8, last: UInt8) -> Int {
        (count &* 31 &+ Int(first) &* 7 &+ Int(last)) & 255
    }
}

/// A command's values for a ``FieldSchema``'s fields, filled in while the command was decoded.
struct FieldSlots: Sendable {
    let schema: ObjectIdentifier
    /// Each field's value; `nil` when the command does not have it.
    var values: [JSONValue?]
    /// Each field's value as a number, NaN when it is absent or not a number — what range rules compare.
    var numbers: [Double]

    /// Empty slots for `schema`.
    init(for schema: FieldSchema) {
        self.schema = ObjectIdentifier(schema)
        values = Array(repeating: nil, count: schema.names.count)
        numbers = Array(repeating: .nan, count: schema.names.count)
    }

    /// Puts `value` in `slot`.
    mutating func set(_ value: JSONValue, at slot: Int) {
        values[slot] = value
        numbers[slot] = value.doubleValue ?? .nan
    }

    /// Empties every slot, keeping the arrays for the next command.
    mutating func clear() {
        for slot in values.indices {
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
