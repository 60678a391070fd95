import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// The lint's reasoning about rules is sound on generated rules and commands: whenever it says rule A implies
/// rule B ("shadowed"), every command A matches, B matches too; whenever it says a rule is unsatisfiable ("never
/// accepts"), no command matches it. Commands are drawn from the same small world of kinds and field values the
/// rules test, so that matches are common and a wrong conclusion shows.
@Suite("Rule implication is sound")
struct RuleImplicationSoundnessTests {
    static let fields = [
        FieldPath("size"), FieldPath("weight"), FieldPath("card.type"), FieldPath("card"), FieldPath("size.1"),
    ]
    /// Scalars, and arrays and objects whose numbers are spelt both ways (`[1, 2.0]`, `{"n": 1.0}`): a rule's
    /// `equals` and `in` compare numbers by value inside them too.
    static let values: [JSONValue] = [
        .string("S"), .string("M"), .integer(1), .integer(2), .double(2.5), .null, .bool(true),
        .array([.integer(1), .double(2)]), .array([.double(1), .integer(2)]), .array([.integer(1)]),
        .object(["type": .integer(1)]), .object(["type": .double(1)]),
        .object(["type": .string("S"), "n": .integer(1)]),
    ]
    /// Numbers where a `Double` and an `Int64` part ways: 2^53 and its neighbours, the ends of `Int64`, 2^63
    /// as a float, a half, zero of both signs.
    static let edgeNumbers: [JSONValue] = [
        .integer(9_007_199_254_740_992), .integer(9_007_199_254_740_993), .double(9_007_199_254_740_992),
        .double(9_007_199_254_740_994), .integer(.max), .integer(.min), .double(9_223_372_036_854_775_808),
        .double(-9_223_372_036_854_775_808), .double(0.5), .double(-0.0), .integer(0), .integer(-1),
    ]

    static func rule(_ random: inout SeededGenerator, depth: Int = 0) throws -> Rule {
        let field = random.pick(fields)
        switch Int.random(in: 0...(depth > 1 ? 6 : 9), using: &random) {
        case 0: return .always(random.chance(0.5))
        case 1:
            return .kind(
                Array(["Tap", "Swipe", "Pan"].shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
            )
        case 2: return .equals(field, random.pick(random.chance(0.3) ? edgeNumbers : values))
        case 3:
            return .oneOf(field, Array(values.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))))
        case 4:
            if random.chance(0.3) {
                let bounds = [random.pick(edgeNumbers), random.pick(edgeNumbers)].compactMap(RuleNumber.init).sorted()
                return .range(
                    field,
                    minimum: random.chance(0.2) ? nil : bounds[0],
                    maximum: random.chance(0.2) ? nil : bounds[1]
                )
            }
            let low = random.chance(0.3) ? nil : Int64.random(in: 0...3, using: &random)
            let high = random.chance(0.3) ? nil : (low ?? 0) + Int64.random(in: 0...2, using: &random)
            return .range(field, minimum: low.map { RuleNumber($0) }, maximum: high.map { RuleNumber($0) })
        case 5: return .present(field, random.chance(0.5))
        case 6: return .matches(field, try Pattern(random.pick(["^S", "M$", "^[SM]$", "."])))
        case 7:
            return .all(
                try (0..<Int.random(in: 1...3, using: &random)).map { _ in try rule(&random, depth: depth + 1) }
            )
        case 8:
            return .any(
                try (0..<Int.random(in: 1...3, using: &random)).map { _ in try rule(&random, depth: depth + 1) }
            )
        default: return .not(try rule(&random, depth: depth + 1))
        }
    }

    static func command(_ random: inout SeededGenerator) -> JSONCommand {
        var fields: [String: JSONValue] = [:]
        if random.chance(0.8) { fields["size"] = random.pick(values) }
        if random.chance(0.8) { fields["weight"] = random.pick(random.chance(0.3) ? edgeNumbers : values) }
        if random.chance(0.6) { fields["card"] = .object(["type": random.pick(values)]) }
        return JSONCommand(kind: random.pick(["Tap", "Swipe", "Pan"]), fields: .object(fields))
    }

    @Test(arguments: SeededGenerator.seeds(300))
    func whatTheLintConcludesHoldsForEveryCommand(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let first = try Self.rule(&random)
        let second = random.chance(0.3) ? first : try Self.rule(&random)
        let commands = (0..<200).map { _ in Self.command(&random) }
        if first.implies(second) {
            for command in commands where first.matches(command) {
                #expect(
                    second.matches(command),
                    "seed \(seed): \(first) implies \(second), yet \(command.fields) matches only the first"
                )
            }
        }
        if first.isUnsatisfiable {
            for command in commands {
                #expect(
                    !first.matches(command),
                    "seed \(seed): \(first) is called unsatisfiable, yet \(command.fields) matches"
                )
            }
        }
        // `false` matches nothing, so it implies every rule.
        #expect(Rule.always(false).implies(first), "seed \(seed)")
    }
}
