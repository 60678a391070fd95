import ChainTrace
import ChainTraceDefinitions
import ChainTraceTestSupport
import Testing

/// The lint's reasoning about rules is sound on generated rules and commands: whenever it says rule A implies
/// rule B ("shadowed"), every command A matches, B matches too; whenever it says a rule is unsatisfiable ("never
/// accepts"), no command matches it. Commands are drawn from the same small world of kinds and field values the
/// rules test, so that matches are common and a wrong conclusion shows.
@Suite("Rule implication is sound")
struct RuleImplicationSoundnessTests {
    static let fields = [FieldPath("size"), FieldPath("weight"), FieldPath("card.type")]
    static let values: [JSONValue] = [.string("S"), .string("M"), .integer(1), .integer(2), .double(2.5), .null, .bool(true)]

    static func rule(_ random: inout SeededGenerator, depth: Int = 0) throws -> Rule {
        let field = random.pick(fields)
        switch Int.random(in: 0...(depth > 1 ? 6 : 9), using: &random) {
        case 0: return .always(random.chance(0.5))
        case 1: return .kind(Array(["Tap", "Swipe", "Pan"].shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random))))
        case 2: return .equals(field, random.pick(values))
        case 3: return .oneOf(field, Array(values.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))))
        case 4:
            let low = random.chance(0.3) ? nil : Double(Int.random(in: 0...3, using: &random))
            return .range(field, minimum: low, maximum: random.chance(0.3) ? nil : (low ?? 0) + Double(Int.random(in: 0...2, using: &random)))
        case 5: return .present(field, random.chance(0.5))
        case 6: return .matches(field, try Pattern(random.pick(["^S", "M$", "^[SM]$", "."])))
        case 7: return .all(try (0..<Int.random(in: 1...3, using: &random)).map { _ in try rule(&random, depth: depth + 1) })
        case 8: return .any(try (0..<Int.random(in: 1...3, using: &random)).map { _ in try rule(&random, depth: depth + 1) })
        default: return .not(try rule(&random, depth: depth + 1))
        }
    }

    static func command(_ random: inout SeededGenerator) -> JSONCommand {
        var fields: [String: JSONValue] = [:]
        if random.chance(0.8) { fields["size"] = random.pick(values) }
        if random.chance(0.8) { fields["weight"] = random.pick(values) }
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
                #expect(second.matches(command), "seed \(seed): \(first) implies \(second), yet \(command.fields) matches only the first")
            }
        }
        if first.isUnsatisfiable {
            for command in commands {
                #expect(!first.matches(command), "seed \(seed): \(first) is called unsatisfiable, yet \(command.fields) matches")
            }
        }
        // `false` matches nothing, so it implies every rule.
        #expect(Rule.always(false).implies(first), "seed \(seed)")
    }
}
