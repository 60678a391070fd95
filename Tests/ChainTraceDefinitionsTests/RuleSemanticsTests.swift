import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// What a rule means, written out here independently and compared with `Rule.matches` on generated rules and
/// commands: dotted paths through nested objects and, by whole-number steps, arrays (never into scalars), numbers
/// equal by value (2 is 2.0) wherever they stand, in arrays and objects too, `in` as any of, bounds inclusive and
/// open when absent, `present` false for a missing field or `null`, patterns only on strings, and `all`, `any`,
/// `not` as logic says.
@Suite("Rule semantics against a model")
struct RuleSemanticsTests {
    /// The value at a dotted path: each step a member of an object, or an element of an array when written as a
    /// whole number without sign or leading zero.
    static func value(_ fields: JSONValue, _ path: [String]) -> JSONValue? {
        var current = fields
        for step in path {
            switch current {
            case .object(let members):
                guard let next = members[step] else { return nil }
                current = next
            case .array(let elements):
                guard step.allSatisfy({ ("0"..."9").contains($0) }), step == "0" || !step.hasPrefix("0"),
                    let index = Int(step), index < elements.count
                else { return nil }
                current = elements[index]
            default: return nil
            }
        }
        return current
    }

    /// A number of either kind.
    enum Number {
        case integer(Int64)
        case double(Double)
    }

    static func number(_ value: JSONValue?) -> Number? {
        switch value {
        case .integer(let number)?: .integer(number)
        case .double(let number)?: .double(number)
        default: nil
        }
    }

    /// Whether `left` is below `right`, exactly: where one kind holds the other exactly, in that kind; else an
    /// integer beyond 2^53 against a float with a fraction (below 2^52 in size) or beyond 64 bits, decided by
    /// sign alone.
    static func below(_ left: Number, _ right: Number) -> Bool {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): return a < b
        case (.double(let a), .double(let b)): return a < b
        case (.integer(let a), .double(let b)):
            if let whole = Int64(exactly: b) { return a < whole }
            if let float = Double(exactly: a) { return float < b }
            return abs(b) < 9_007_199_254_740_992 ? a < 0 : b > 0
        case (.double(let a), .integer(let b)):
            if let whole = Int64(exactly: a) { return whole < b }
            if let float = Double(exactly: b) { return a < float }
            return abs(a) < 9_007_199_254_740_992 ? b > 0 : a < 0
        }
    }

    static func same(_ left: JSONValue, _ right: JSONValue) -> Bool {
        if let a = number(left), let b = number(right) { return !below(a, b) && !below(b, a) }
        if case .array(let a) = left, case .array(let b) = right {
            return a.count == b.count && a.indices.allSatisfy { same(a[$0], b[$0]) }
        }
        if case .object(let a) = left, case .object(let b) = right {
            return Set(a.keys) == Set(b.keys) && a.keys.allSatisfy { same(a[$0]!, b[$0]!) }
        }
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
            return (minimum.map { !below(found, number($0.json)!) } ?? true)
                && (maximum.map { !below(number($0.json)!, found) } ?? true)
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
            #expect(
                rule.matches(command) == Self.model(rule, command),
                "seed \(seed): \(rule) on \(command.kind) \(command.fields)"
            )
        }
    }

    /// `RuleNumber` orders generated numbers — integers and floats near 2^53, the ends of 64 bits, fractions,
    /// both zeros — as the model does, and equal numbers hash alike whatever their kind.
    @Test(arguments: SeededGenerator.seeds(40))
    func ruleNumbersOrderAsTheModelAndHashAlikeWhenEqual(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        func generated() -> JSONValue {
            switch Int.random(in: 0..<5, using: &random) {
            case 0: return random.pick(RuleImplicationSoundnessTests.edgeNumbers)
            case 1:
                let near =
                    Int64.random(in: -3...3, using: &random)
                    + random.pick([0, 9_007_199_254_740_992, -9_007_199_254_740_992])
                return random.chance(0.5) ? .integer(near) : .double(Double(near))
            case 2: return .integer(Int64.random(in: .min ... .max, using: &random))
            case 3:
                return .double(Double(Int64.random(in: .min ... .max, using: &random)) + random.pick([0, 0.5, -0.25]))
            default: return .double(Double.random(in: -1e20...1e20, using: &random))
            }
        }
        for _ in 0..<500 {
            let (left, right) = (generated(), generated())
            let (a, b) = (RuleNumber(left)!, RuleNumber(right)!)
            let (modelA, modelB) = (Self.number(left)!, Self.number(right)!)
            #expect((a < b) == Self.below(modelA, modelB), "seed \(seed): \(left) < \(right)")
            #expect(
                (a == b) == (!Self.below(modelA, modelB) && !Self.below(modelB, modelA)),
                "seed \(seed): \(left) == \(right)"
            )
            if a == b { #expect(a.hashValue == b.hashValue, "seed \(seed): \(left), \(right)") }
        }
    }
}
