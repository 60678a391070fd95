import ChainTraceFastPath
import ChainTrace
import ChainTraceJSON

/// A ``Rule`` made ready to test many commands: what a handler built from a definition runs on every command.
///
/// Each part of the rule becomes an object that does only its own test. A field the ``FieldSchema`` gives a slot
/// is read from the command's slots — a range test compares the number the decoder already converted — so a
/// replayed command is tested without hashing a name or copying a value. A command without those slots (built
/// in Swift, or read from a trace log) is tested through its ``JSONCommand/fields``, with the same result.
///
/// `@unchecked Sendable`: every subclass is final and holds only constants.
class CompiledRule: @unchecked Sendable {
    /// Compiles `rule`, reading fields through `schema`'s slots where it has them.
    static func make(_ rule: Rule, schema: FieldSchema?) -> CompiledRule {
        switch rule {
        case .always(let result):
            return ConstantRule(result)
        case .kind(let kinds):
            return KindRule(kinds)
        case .all(let rules):
            return combined(rules.map { make($0, schema: schema) }, settledBy: false)
        case .any(let rules):
            return combined(rules.map { make($0, schema: schema) }, settledBy: true)
        case .not(let rule):
            return NotRule(make(rule, schema: schema))
        case .equals(let field, _), .oneOf(let field, _), .range(let field, _, _), .matches(let field, _),
            .present(let field, _):
            guard let schema, let slot = schema.slotByName[field.components[0]] else { return WrittenRule(rule) }
            if case .range(_, let minimum, let maximum) = rule, field.components.count == 1 {
                return SlotRangeRule(rule, slot: slot, schema: schema, minimum: minimum, maximum: maximum)
            }
            return SlotFieldRule(rule, field: field, slot: slot, schema: schema)
        }
    }

    /// Whether `command` passes.
    func matches(_ command: JSONCommand) -> Bool {
        preconditionFailure("\(type(of: self)) does not test commands")
    }
}

/// `true` or `false`, whatever the command.
private final class ConstantRule: CompiledRule, @unchecked Sendable {
    let result: Bool

    init(_ result: Bool) {
        self.result = result
    }

    override func matches(_ command: JSONCommand) -> Bool { result }
}

/// The command's kind is one of a few.
private final class KindRule: CompiledRule, @unchecked Sendable {
    let kinds: [String]

    init(_ kinds: [String]) {
        self.kinds = kinds
    }

    override func matches(_ command: JSONCommand) -> Bool {
        let kind = command.kind
        for candidate in kinds where candidate == kind { return true }
        return false
    }
}

/// `all` or `any` of `parts`: two parts (the usual "this kind, and this field") tested one after the other with
/// no loop, any other number by ``CombinedRule``.
private func combined(_ parts: [CompiledRule], settledBy settlingResult: Bool) -> CompiledRule {
    parts.count == 2 ? PairRule(parts[0], parts[1], settledBy: settlingResult) : CombinedRule(parts, settledBy: settlingResult)
}

/// `all` or `any` of exactly two parts: the second is tested only when the first does not settle it.
private final class PairRule: CompiledRule, @unchecked Sendable {
    let first: CompiledRule
    let second: CompiledRule
    let settlingResult: Bool

    init(_ first: CompiledRule, _ second: CompiledRule, settledBy settlingResult: Bool) {
        self.first = first
        self.second = second
        self.settlingResult = settlingResult
    }

    override func matches(_ command: JSONCommand) -> Bool {
        first.matches(command) == settlingResult ? settlingResult : second.matches(command)
    }
}

/// `all` (settled by the first part that fails) or `any` (settled by the first part that passes). The parts are
/// held, and also listed unretained so that testing a command does not touch their reference counts.
private final class CombinedRule: CompiledRule, @unchecked Sendable {
    let parts: [CompiledRule]
    let unretainedParts: [UnretainedObject<CompiledRule>]
    /// The result of a part that settles the whole: `false` for `all`, `true` for `any`.
    let settlingResult: Bool

    init(_ parts: [CompiledRule], settledBy settlingResult: Bool) {
        self.parts = parts
        unretainedParts = parts.map(UnretainedObject.init)
        self.settlingResult = settlingResult
    }

    override func matches(_ command: JSONCommand) -> Bool {
        unretainedParts.withUnsafeBufferPointer { parts in
            for part in parts where part.withObject({ $0.matches(command) }) == settlingResult {
                return settlingResult
            }
            return !settlingResult
        }
    }
}

/// The part does not pass.
private final class NotRule: CompiledRule, @unchecked Sendable {
    let rule: CompiledRule

    init(_ rule: CompiledRule) {
        self.rule = rule
    }

    override func matches(_ command: JSONCommand) -> Bool { !rule.matches(command) }
}

/// A number range on a top-level field with a slot: one comparison of the number decoded with the command.
private final class SlotRangeRule: CompiledRule, @unchecked Sendable {
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

    override func matches(_ command: JSONCommand) -> Bool {
        guard let number = command.slotNumber(slot, schema: schema) else { return written.matches(command) }
        // NaN (absent, or not a number) fails both comparisons.
        return number >= minimum && number <= maximum
    }
}

/// Any other test on a field whose first step has a slot.
private final class SlotFieldRule: CompiledRule, @unchecked Sendable {
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

    override func matches(_ command: JSONCommand) -> Bool {
        guard case .some(let first) = command.slotValue(slot, schema: schema) else { return written.matches(command) }
        let value = field.components.count == 1 ? first : first.flatMap { field.value(in: $0, from: 1) }
        return written.passes(fieldValue: value)
    }
}

/// A test on a field without a slot: read from the command's fields.
private final class WrittenRule: CompiledRule, @unchecked Sendable {
    let written: Rule

    init(_ written: Rule) {
        self.written = written
    }

    override func matches(_ command: JSONCommand) -> Bool { written.matches(command) }
}
