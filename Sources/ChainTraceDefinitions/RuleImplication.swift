import ChainTrace
import ChainTraceJSON

extension Rule {
    /// Whether every command this rule matches is sure to match `other` too. Conservative: `false` when it
    /// cannot tell, so a lint built on it never reports a handler as shadowed by mistake.
    public func implies(_ other: Rule) -> Bool {
        if impliesPlainly(other) { return true }
        // Every command this rule matches matches the other when none can match this rule and not the other. Asked
        // once, of the whole rules, and only of combinations (two plain tests are told above) where the other
        // tests nothing this one leaves free (else a command can nearly always pass this and fail the other
        // there): a lint of thousands of handlers expands few pairs.
        guard isCombination || other.isCombination, other.tested.isSubset(of: tested) else { return false }
        return RuleSatisfiability.isUnsatisfiable(.all([self, .not(other)]))
    }

    /// What the rules prove at once, part by part, without expanding them: `false` when they do not.
    private func impliesPlainly(_ other: Rule) -> Bool {
        if self == other || other == .always(true) || isPlainlyUnsatisfiable { return true }
        switch (self, other) {
        case (.any(let rules), _): return rules.allSatisfy { $0.impliesPlainly(other) }
        case (_, .all(let rules)): return rules.allSatisfy { impliesPlainly($0) }
        case (.all(let rules), _) where rules.contains(where: { $0.impliesPlainly(other) }): return true
        case (_, .any(let rules)) where rules.contains(where: { impliesPlainly($0) }): return true
        case (.equals(let field, let value), _): return Self.value(value, at: field, satisfies: other)
        case (.oneOf(let field, let values), _):
            return values.allSatisfy { Self.value($0, at: field, satisfies: other) }
        case (.range(let field, let low, let high), .range(let otherField, let otherLow, let otherHigh))
        where field == otherField:
            let lowOK = otherLow.map { bound in low.map { $0 >= bound } ?? false } ?? true
            let highOK = otherHigh.map { bound in high.map { $0 <= bound } ?? false } ?? true
            return lowOK && highOK
        case (.range(let field, _, _), .present(let otherField, true)),
            (.matches(let field, _), .present(let otherField, true)),
            (.present(let field, true), .present(let otherField, true)):
            return field == otherField
        case (.kind(let kinds), .kind(let otherKinds)): return Set(kinds).isSubset(of: otherKinds)
        default: return false
        }
    }

    /// Whether the rule combines others (`all`, `any`, `not`).
    private var isCombination: Bool {
        switch self {
        case .all, .any, .not: true
        default: false
        }
    }

    /// The fields the rule tests, and `nil` for the kind when it tests that.
    private var tested: Set<FieldPath?> {
        switch self {
        case .always: return []
        case .kind: return [nil]
        case .equals(let field, _), .oneOf(let field, _), .range(let field, _, _), .matches(let field, _),
            .present(let field, _):
            return [field]
        case .all(let rules), .any(let rules): return rules.reduce(into: []) { $0.formUnion($1.tested) }
        case .not(let rule): return rule.tested
        }
    }

    /// Whether no command can match: `false`, an empty `in`, tests that contradict one another (two kinds no
    /// command has at once, ranges that do not meet, a field required and required missing, a rule and its
    /// negation; see `RuleSatisfiability`). Conservative: `false` when it cannot tell.
    public var isUnsatisfiable: Bool {
        isPlainlyUnsatisfiable || RuleSatisfiability.isUnsatisfiable(self)
    }

    /// The cases told without expanding the rule.
    private var isPlainlyUnsatisfiable: Bool {
        switch self {
        case .always(let result): return !result
        case .oneOf(_, let values): return values.isEmpty
        case .kind(let kinds): return kinds.isEmpty
        case .any(let rules): return rules.allSatisfy(\.isPlainlyUnsatisfiable)
        case .all(let rules):
            if rules.contains(where: \.isPlainlyUnsatisfiable) { return true }
            var required: [FieldPath: JSONValue] = [:]
            for case .equals(let field, let value) in rules {
                if let earlier = required[field], !earlier.sameValue(as: value) { return true }
                required[field] = value
            }
            return rules.contains { rule in
                required.contains { field, value in !Self.value(value, at: field, couldSatisfy: rule) }
            }
        case .not(let rule): return rule == .always(true)
        default: return false
        }
    }

    /// Whether a command whose `field` is `value` surely matches `rule`.
    private static func value(_ value: JSONValue, at field: FieldPath, satisfies rule: Rule) -> Bool {
        switch rule {
        case .always(let result): return result
        case .equals(let otherField, let expected): return otherField == field && value.sameValue(as: expected)
        case .oneOf(let otherField, let values):
            return otherField == field && values.contains { value.sameValue(as: $0) }
        case .range(let otherField, let low, let high):
            guard otherField == field, let numeric = RuleNumber(value) else { return false }
            return number(numeric, isWithin: low, high)
        case .matches(let otherField, let pattern):
            guard otherField == field, let text = value.stringValue else { return false }
            return pattern.matches(text)
        case .present(let otherField, let expected): return otherField == field && (value != .null) == expected
        case .all(let rules): return rules.allSatisfy { Self.value(value, at: field, satisfies: $0) }
        case .any(let rules): return rules.contains { Self.value(value, at: field, satisfies: $0) }
        default: return false
        }
    }

    /// Whether a command whose `field` is `value` could match `rule` (`true` when `rule` tests something else).
    private static func value(_ value: JSONValue, at field: FieldPath, couldSatisfy rule: Rule) -> Bool {
        switch rule {
        case .equals(let otherField, _), .oneOf(let otherField, _), .range(let otherField, _, _),
            .matches(let otherField, _), .present(let otherField, _):
            return otherField != field || Self.value(value, at: field, satisfies: rule)
        default: return true
        }
    }
}
