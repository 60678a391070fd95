import ChainTrace
import ChainTraceDefinitions
import ChainTraceTestSupport
import Testing

/// What the lint proves about rules, beyond being sound (`RuleImplicationSoundnessTests`): a rule written another way
/// — members of `all` and `any` in another order, a negation doubled, `not` pushed through `all` and `any`, `not
/// present` for `present: false`, `in` of one value for `equals` — is proven to imply and be implied by the rule;
/// a rule and its negation are proven to match nothing together; kinds no command has at once, ranges that do not
/// meet, and a field both required and required missing are proven to match nothing — and every one of these
/// conclusions holds on generated commands.
@Suite("Rule satisfiability proves what it should")
struct RuleSatisfiabilityTests {
    /// `rule` written another way, meaning the same.
    static func rewritten(_ rule: Rule, _ random: inout SeededGenerator) -> Rule {
        switch rule {
        case .all(let rules):
            let parts = rules.map { rewritten($0, &random) }.shuffled(using: &random)
            return random.chance(0.3) ? .not(.any(parts.map { .not($0) })) : .all(parts)
        case .any(let rules):
            let parts = rules.map { rewritten($0, &random) }.shuffled(using: &random)
            return random.chance(0.3) ? .not(.all(parts.map { .not($0) })) : .any(parts)
        case .not(let inner):
            return .not(rewritten(inner, &random))
        case .present(let field, let expected) where random.chance(0.5):
            return .not(.present(field, !expected))
        case .equals(let field, let value) where random.chance(0.5):
            return .oneOf(field, [value])
        default:
            return random.chance(0.2) ? .not(.not(rule)) : rule
        }
    }

    @Test(arguments: SeededGenerator.seeds(300))
    func aRuleWrittenAnotherWayIsProvenTheSame(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let rule = try RuleImplicationSoundnessTests.rule(&random)
        let other = Self.rewritten(rule, &random)
        // Past the expansion's limit nothing is proven; the generated rules stay well within it.
        #expect(rule.implies(other) && other.implies(rule), "seed \(seed): \(rule) and \(other)")
        #expect(Rule.all([rule, .not(other)]).isUnsatisfiable, "seed \(seed): \(rule) and not \(other)")
        let commands = (0..<200).map { _ in RuleImplicationSoundnessTests.command(&random) }
        for command in commands {
            #expect(
                rule.matches(command) == other.matches(command),
                "seed \(seed): \(rule) and \(other) part on \(command.fields)"
            )
        }
    }

    @Test(arguments: SeededGenerator.seeds(200))
    func contradictionsAreProven(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let field = random.pick(RuleImplicationSoundnessTests.fields)
        let kinds = ["Tap", "Swipe", "Pan", "Pinch"].shuffled(using: &random)
        let split = Int.random(in: 1...3, using: &random)
        let low = Int64.random(in: -5...5, using: &random)
        let gap = Int64.random(in: 1...5, using: &random)
        let contradiction: Rule =
            switch Int.random(in: 0..<4, using: &random) {
            case 0: .all([.kind(Array(kinds[..<split])), .kind(Array(kinds[split...]))])
            case 1:
                .all([
                    .range(field, minimum: nil, maximum: RuleNumber(low)),
                    .range(field, minimum: RuleNumber(low + gap), maximum: nil),
                ])
            case 2:
                .all([
                    .present(field, false),
                    random.pick([
                        .equals(field, .integer(1)), .range(field, minimum: 0, maximum: nil), .present(field, true),
                    ]),
                ])
            default: .all([.equals(field, .string("S")), .not(.oneOf(field, [.string("M"), .string("S")]))])
            }
        // Among other tests, which cannot save it.
        let rule: Rule =
            random.chance(0.5)
            ? contradiction
            : .all([try RuleImplicationSoundnessTests.rule(&random), contradiction].shuffled(using: &random))
        #expect(rule.isUnsatisfiable, "seed \(seed): \(rule)")
        for _ in 0..<200 {
            let command = RuleImplicationSoundnessTests.command(&random)
            #expect(!rule.matches(command), "seed \(seed): \(rule) matches \(command.fields)")
        }
    }

    @Test(arguments: SeededGenerator.seeds(200))
    func aRuleAndItsNegationMatchNothingTogether(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let rule = try RuleImplicationSoundnessTests.rule(&random)
        #expect(Rule.all([rule, .not(rule)]).isUnsatisfiable, "seed \(seed): \(rule)")
        #expect(Rule.any([rule, .not(rule)]).implies(.always(true)), "seed \(seed)")
    }
}
