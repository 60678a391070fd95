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

    /// A schema of these field names.
    public init(names: [String]) {
        self.names = names
        utf8Names = names.map { Array($0.utf8) }
        slotByName = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A command's values for a ``FieldSchema``'s fields, filled in while the command was decoded.
struct FieldSlots: Sendable {
    let schema: ObjectIdentifier
    var values: [JSONValue?]
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

    /// The same rule, reading its fields through `schema`'s slots when a command has them.
    func compiled(for schema: FieldSchema) -> Rule {
        switch self {
        case .always, .kind: self
        case .equals(let field, let value): .equals(field.slotted(in: schema), value)
        case .oneOf(let field, let values): .oneOf(field.slotted(in: schema), values)
        case .range(let field, let low, let high): .range(field.slotted(in: schema), minimum: low, maximum: high)
        case .matches(let field, let pattern): .matches(field.slotted(in: schema), pattern)
        case .present(let field, let flag): .present(field.slotted(in: schema), flag)
        case .all(let rules): .all(rules.map { $0.compiled(for: schema) })
        case .any(let rules): .any(rules.map { $0.compiled(for: schema) })
        case .not(let rule): .not(rule.compiled(for: schema))
        }
    }
}
