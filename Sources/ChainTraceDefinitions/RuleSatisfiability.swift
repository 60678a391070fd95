import ChainTrace
import ChainTraceJSON

/// Whether a rule can match any command, decided on the rule's own parts — the lint's `never-accepts`, and
/// (as "A and not B can match nothing") its `shadowed`.
///
/// The rule is brought to a disjunction of conjunctions of tests and negated tests (negations pushed down,
/// `not present` read as `present: false`), at most ``maximumTerms`` of them. A conjunction can match nothing when
/// its kinds leave no kind, or some field can hold no value that passes all its tests on that field. The values
/// tried for a field are every one that tells its tests apart: missing, `null`, each value the tests name, each
/// number a range bound names, a number in each stretch between those, a string no test names, and a value of
/// another type. Where it cannot tell — what string a regular expression matches — it assumes a value exists, and
/// fields are taken one by one (a missing `card` does not make `card.type` missing), so it errs only towards "can
/// match": the lint built on it reports a handler only when the rules prove it.
struct RuleSatisfiability {
    /// The most conjunctions a rule is expanded to before the question is given up ("can match").
    static let maximumTerms = 256

    /// A test or its negation.
    private struct Literal {
        var rule: Rule
        var holds: Bool
    }

    /// Whether `rule` surely matches no command.
    static func isUnsatisfiable(_ rule: Rule) -> Bool {
        guard let terms = disjunction(rule, holds: true) else { return false }
        return terms.allSatisfy { !isSatisfiable($0) }
    }

    /// The conjunctions whose disjunction is `rule` (or its negation, `holds` false), or `nil` past
    /// ``maximumTerms``.
    private static func disjunction(_ rule: Rule, holds: Bool) -> [[Literal]]? {
        switch (rule, holds) {
        case (.not(let inner), _):
            return disjunction(inner, holds: !holds)
        case (.always(let result), _):
            return result == holds ? [[]] : []
        case (.any(let rules), true), (.all(let rules), false):
            var terms: [[Literal]] = []
            for part in rules {
                guard let more = disjunction(part, holds: holds), terms.count + more.count <= maximumTerms else {
                    return nil
                }
                terms += more
            }
            return terms
        case (.all(let rules), true), (.any(let rules), false):
            var terms: [[Literal]] = [[]]
            for part in rules {
                guard let factor = disjunction(part, holds: holds), terms.count * factor.count <= maximumTerms else {
                    return nil
                }
                terms = terms.flatMap { term in factor.map { term + $0 } }
            }
            return terms
        case (.present(let field, let expected), _):
            // Not present is present: false, and the other way round: every value is one or the other.
            return [[Literal(rule: .present(field, expected == holds), holds: true)]]
        default:
            return [[Literal(rule: rule, holds: holds)]]
        }
    }

    /// Whether some command may pass every literal of `term`.
    private static func isSatisfiable(_ term: [Literal]) -> Bool {
        var kinds: Set<String>?
        var excludedKinds = Set<String>()
        var byField: [FieldPath: [Literal]] = [:]
        for literal in term {
            switch literal.rule {
            case .kind(let names):
                if literal.holds {
                    kinds = kinds.map { $0.intersection(names) } ?? Set(names)
                } else {
                    excludedKinds.formUnion(names)
                }
            case .equals(let field, _), .oneOf(let field, _), .range(let field, _, _), .matches(let field, _),
                .present(let field, _):
                byField[field, default: []].append(literal)
            default:
                // Nothing else is left after expanding; were it, "can match" is the safe answer.
                continue
            }
        }
        // With no kind required, a kind no rule names will do.
        if let kinds, kinds.subtracting(excludedKinds).isEmpty { return false }
        return byField.values.allSatisfy(fieldIsSatisfiable)
    }

    /// A value a field may hold, as far as its tests can tell values apart.
    private enum Candidate {
        case missing
        case value(JSONValue)
        /// A number strictly between two bounds (either may be open), equal to no value the tests name.
        case numberBetween(RuleNumber?, RuleNumber?)
        /// A string no test names: which of the tests' regular expressions it matches is left open.
        case freshString
        /// A value of another type (true, an object, …) no test names.
        case freshOther
    }

    private static func fieldIsSatisfiable(_ literals: [Literal]) -> Bool {
        var named: [JSONValue] = []
        var bounds: [RuleNumber] = []
        for literal in literals {
            switch literal.rule {
            case .equals(_, let value): named.append(value)
            case .oneOf(_, let values): named += values
            case .range(_, let low, let high): bounds += [low, high].compactMap { $0 }
            default: break
            }
        }
        bounds += named.compactMap(RuleNumber.init)
        bounds.sort()
        var points: [RuleNumber] = []
        for bound in bounds where points.last != bound { points.append(bound) }
        var candidates: [Candidate] = [.missing, .value(.null), .freshString, .freshOther]
        candidates += named.map(Candidate.value)
        candidates += points.map { Candidate.value($0.json) }
        candidates.append(.numberBetween(nil, points.first))
        for index in points.indices {
            candidates.append(.numberBetween(points[index], index + 1 < points.count ? points[index + 1] : nil))
        }
        return candidates.contains { candidate in literals.allSatisfy { passes(candidate, $0, all: literals) } }
    }

    /// Whether `candidate` passes `literal` (`literals`: all of the field's, for a fresh string's regular
    /// expressions).
    private static func passes(_ candidate: Candidate, _ literal: Literal, all literals: [Literal]) -> Bool {
        let result: Bool
        switch candidate {
        case .missing:
            result = literal.rule.passes(fieldValue: nil)
        case .value(let value):
            result = literal.rule.passes(fieldValue: value)
        case .numberBetween(let low, let high):
            switch literal.rule {
            case .range(_, let minimum, let maximum):
                // The stretch lies inside the range or outside it: the range's bounds are among its ends.
                result =
                    minimum.map { bound in low.map { $0 >= bound } ?? false } ?? true
                    && maximum.map { bound in high.map { $0 <= bound } ?? false } ?? true
            case .present(_, let expected): result = expected
            default: result = false
            }
        case .freshString:
            switch literal.rule {
            case .matches(_, let pattern):
                // Some string may match or miss each expression — unless one is asked to do both.
                let contradicted = literals.contains { other in
                    if case .matches(_, let otherPattern) = other.rule {
                        otherPattern == pattern && other.holds != literal.holds
                    } else {
                        false
                    }
                }
                return !contradicted
            case .present(_, let expected): result = expected
            default: result = false
            }
        case .freshOther:
            if case .present(_, let expected) = literal.rule { result = expected } else { result = false }
        }
        return result == literal.holds
    }
}
