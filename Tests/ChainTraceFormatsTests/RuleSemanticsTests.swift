import ChainTrace
import ChainTraceDefinitions
import ChainTraceTestSupport
import Testing

/// What a rule means, written out here independently and compared with `Rule.matches` on generated rules and
/// commands: dotted paths through nested objects (never into arrays or scalars), numbers equal by value (2 is
/// 2.0), `in` as any of, bounds inclusive and open when absent, `present` false for a missing field or `null`,
/// patterns only on strings, and `all`, `any`, `not` as logic says.
@Suite("Rule semantics against a model")
struct RuleSemanticsTests {
    /// The value at a dotted path: each step a member of an object.
    static func value(_ fields: JSONValue, _ path: [String]) -> JSONValue? {
        var current = fields
        for step in path {
            guard case .object(let members) = current, let next = members[step] else { return nil }
            current = next
        }
        return current
    }

    static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .integer(let number)?: Double(number)
        case .double(let number)?: number
        default: nil
        }
    }

    static func same(_ left: JSONValue, _ right: JSONValue) -> Bool {
        if let a = number(left), let b = number(right) { return a == b }
        return left == right
    }

    static func model(_ rule: Rule, _ command: JSONCommand) -> Bool {
        switch rule {
        case .always(let result): return result
        case .kind(let kinds): return kinds.contains(command.kind)
        case .all(let rules): return rules.allSatisfy { model($0, command) }
        case .any(let rules): return rules.contains { model($0, command) }
        case .not(let inner): return !model(inner, command)
        case .equals(let field, let expected):
            guard let found = value(command.fields, field.components) else { return false }
            return same(found, expected)
        case .oneOf(let field, let candidates):
            guard let found = value(command.fields, field.components) else { return false }
            return candidates.contains { same(found, $0) }
        case .range(let field, let minimum, let maximum):
            guard let found = number(value(command.fields, field.components)) else { return false }
            return (minimum.map { found >= $0 } ?? true) && (maximum.map { found <= $0 } ?? true)
        case .matches(let field, let pattern):
            guard case .string(let text)? = value(command.fields, field.components) else { return false }
            return pattern.matches(text)
        case .present(let field, let expected):
            let found = value(command.fields, field.components)
            return (found != nil && found != .null) == expected
        }
    }

    @Test(arguments: SeededGenerator.seeds(200))
    func rulesMeanWhatTheModelSays(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let rule = try RuleImplicationSoundnessTests.rule(&random)
        for _ in 0..<100 {
            var command = RuleImplicationSoundnessTests.command(&random)
            // Now and then a field holding an array or a scalar where a path goes deeper.
            if random.chance(0.2), case .object(var members) = command.fields {
                members["card"] = random.pick([.array([.object(["type": .string("visa")])]), .string("visa"), .null])
                command.fields = .object(members)
            }
            #expect(rule.matches(command) == Self.model(rule, command), "seed \(seed): \(rule) on \(command.kind) \(command.fields)")
        }
    }
}
