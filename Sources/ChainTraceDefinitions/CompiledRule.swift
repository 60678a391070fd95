import ChainTrace
import ChainTraceJSON

/// A ``Rule`` made ready to test many commands: what a handler built from a definition runs on every command.
///
/// Each part of the rule becomes an object that does only its own test (``RuleCompiler`` makes them). A field the
/// ``FieldSchema`` gives a slot is read from the command's slots — a range test compares the number the decoder
/// already converted — so a replayed command is tested without hashing a name or copying a value. A command
/// without those slots (built in Swift, or read from a trace log) is tested through its ``JSONCommand/fields``,
/// with the same result.
///
/// Class-bound: a part is shared by reference, and called through one witness-table call, as a class method
/// would be.
protocol CompiledRule: AnyObject, Sendable {
    /// Whether `command` passes.
    func matches(_ command: JSONCommand) -> Bool
}

/// Compiles rules into ``CompiledRule`` parts.
enum RuleCompiler {
    /// Compiles `rule`, reading fields through `schema`'s slots where it has them.
    static func compile(_ rule: Rule, schema: FieldSchema?) -> any CompiledRule {
        switch rule {
        case .always(let result):
            return ConstantRule(result)
        case .kind(let kinds):
            return KindRule(kinds)
        case .all(let rules):
            return combined(rules.map { compile($0, schema: schema) }, settledBy: false)
        case .any(let rules):
            return combined(rules.map { compile($0, schema: schema) }, settledBy: true)
        case .not(let rule):
            return NotRule(compile(rule, schema: schema))
        case .equals(let field, _), .oneOf(let field, _), .range(let field, _, _), .matches(let field, _),
            .present(let field, _):
            guard let schema, let slot = schema.slotByName[field.components[0]] else { return WrittenRule(rule) }
            // Bounds a `Double` holds exactly compare exactly with the slot's number, which is one too.
            if case .range(_, let minimum, let maximum) = rule, field.components.count == 1,
                minimum.map({ $0.exactDouble != nil }) ?? true, maximum.map({ $0.exactDouble != nil }) ?? true
            {
                return SlotRangeRule(
                    rule,
                    slot: slot,
                    schema: schema,
                    minimum: minimum?.exactDouble,
                    maximum: maximum?.exactDouble
                )
            }
            return SlotFieldRule(rule, field: field, slot: slot, schema: schema)
        }
    }
}

/// `true` or `false`, whatever the command.
private final class ConstantRule: CompiledRule {
    let result: Bool

    init(_ result: Bool) {
        self.result = result
    }

    func matches(_ command: JSONCommand) -> Bool { result }
}

/// The command's kind is one of a few.
private final class KindRule: CompiledRule {
    let kinds: [String]

    init(_ kinds: [String]) {
        self.kinds = kinds
    }

    func matches(_ command: JSONCommand) -> Bool {
        let kind = command.kind
        for candidate in kinds where candidate == kind { return true }
        return false
    }
}

/// `all` or `any` of `parts`: two parts (the usual "this kind, and this field") tested one after the other with
/// no loop, any other number by ``CombinedRule``.
private func combined(_ parts: [any CompiledRule], settledBy settlingResult: Bool) -> any CompiledRule {
    parts.count == 2
        ? PairRule(parts[0], parts[1], settledBy: settlingResult) : CombinedRule(parts, settledBy: settlingResult)
}

/// `all` or `any` of exactly two parts: the second is tested only when the first does not settle it.
private final class PairRule: CompiledRule {
    let first: any CompiledRule
    let second: any CompiledRule
    let settlingResult: Bool

    init(_ first: any CompiledRule, _ second: any CompiledRule, settledBy settlingResult: Bool) {
        self.first = first
        self.second = second
        self.settlingResult = settlingResult
    }

    func matches(_ command: JSONCommand) -> Bool {
        first.matches(command) == settlingResult ? settlingResult : second.matches(command)
    }
}

/// `all` (settled by the first part that fails) or `any` (settled by the first part that passes).
private final class CombinedRule: CompiledRule {
    let parts: ContiguousArray<any CompiledRule>
    /// The result of a part that settles the whole: `false` for `all`, `true` for `any`.
    let settlingResult: Bool

    init(_ parts: [any CompiledRule], settledBy settlingResult: Bool) {
        self.parts = ContiguousArray(parts)
        self.settlingResult = settlingResult
    }

    func matches(_ command: JSONCommand) -> Bool {
        for index in parts.indices where parts[index].matches(command) == settlingResult {
            return settlingResult
        }
        return !settlingResult
    }
}

/// The part does not pass.
private final class NotRule: CompiledRule {
    let rule: any CompiledRule

    init(_ rule: any CompiledRule) {
        self.rule = rule
    }

    func matches(_ command: JSONCommand) -> Bool { !rule.matches(command) }
}

/// A number range on a top-level field with a slot: one comparison of the number decoded with the command.
private final class SlotRangeRule: CompiledRule {
    let written: Rule
    let slot: Int
    let schema: ObjectIdentifier
    let minimum: Double
    let maximum: Double

    init(_ written: Rule, slot: Int, schema: FieldSchema, minimum: Double?, maximum: Double?) {
        self.written = written
        self.slot = slot
        self.schema = ObjectIdentifier(schema)
        self.minimum = minimum ?? -.infinity
        self.maximum = maximum ?? .infinity
    }

    func matches(_ command: JSONCommand) -> Bool {
        guard let number = command.slotNumber(slot, schema: schema) else { return written.matches(command) }
        if number.isNaN {
            // Absent, not a number, or an integer a `Double` does not hold: judged exactly from the slot's value.
            guard case .some(let value) = command.slotValue(slot, schema: schema) else {
                return written.matches(command)
            }
            return written.passes(fieldValue: value)
        }
        return number >= minimum && number <= maximum
    }
}

/// Any other test on a field whose first step has a slot.
private final class SlotFieldRule: CompiledRule {
    let written: Rule
    let field: FieldPath
    let slot: Int
    let schema: ObjectIdentifier

    init(_ written: Rule, field: FieldPath, slot: Int, schema: FieldSchema) {
        self.written = written
        self.field = field
        self.slot = slot
        self.schema = ObjectIdentifier(schema)
    }

    func matches(_ command: JSONCommand) -> Bool {
        guard case .some(let first) = command.slotValue(slot, schema: schema) else { return written.matches(command) }
        let value = field.components.count == 1 ? first : first.flatMap { field.value(in: $0, from: 1) }
        return written.passes(fieldValue: value)
    }
}

/// A test on a field without a slot: read from the command's fields.
private final class WrittenRule: CompiledRule {
    let written: Rule

    init(_ written: Rule) {
        self.written = written
    }

    func matches(_ command: JSONCommand) -> Bool { written.matches(command) }
}
