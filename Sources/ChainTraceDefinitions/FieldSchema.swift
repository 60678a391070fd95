import ChainTrace
import ChainTraceFastPath
import ChainTraceJSON

/// The top-level fields a chain's rules read, each given a slot, so that a command decoded for that chain
/// carries those fields in an array and rules read them by index instead of hashing names on every test.
///
/// Made once per replay from the definition; a command without slots (or with another schema's) is still
/// tested correctly, through its `fields` object.
///
/// Its names are looked up by their bytes through a ``NameIndex`` (ChainTraceFastPath), which says what that buys.
package final class FieldSchema: Sendable {
    /// The field names, in slot order.
    package let names: [String]
    let slotByName: [String: Int]
    /// The names, found by a key's bytes.
    private let index: NameIndex

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

    /// A schema of these field names.
    package init(names: [String]) {
        self.names = names
        slotByName = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        index = NameIndex(names)
    }

    /// The slot of the field whose name is `bytes`, compared without making a `String`.
    @inline(__always)
    package func slot(for bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        index.index(of: bytes)
    }
}

/// A command's values for a ``FieldSchema``'s fields, filled in while the command was decoded (see
/// ``SlotValues``, in ChainTraceFastPath, for what that buys).
package typealias FieldSlots = SlotValues<JSONValue>

extension SlotValues<JSONValue> {
    /// Empty slots for `schema`.
    package convenience init(for schema: FieldSchema) {
        self.init(owner: ObjectIdentifier(schema), count: schema.names.count)
    }

    /// Puts `value` in `slot`, with its number when a `Double` holds it exactly (NaN otherwise: absent, not a
    /// number, or an integer beyond 2^53, which range tests then compare exactly from the value).
    package func set(_ value: JSONValue, at slot: Int) {
        set(value, number: RuleNumber(value)?.exactDouble ?? .nan, at: slot)
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
