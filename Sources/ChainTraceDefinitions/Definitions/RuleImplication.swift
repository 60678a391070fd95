import ChainTrace
import ChainTraceJSON

extension Rule {
    /// Whether every command this rule matches is sure to match `other` too. Conservative: `false` when it
    /// cannot tell, so a lint built on it never reports a handler as shadowed by mistake.
    public func implies(_ other: Rule) -> Bool {
        if self == other || other == .always(true) || isUnsatisfiable { return true }
        switch (self, other) {
        case (.any(let rules), _): return rules.allSatisfy { $0.implies(other) }
        case (_, .all(let rules)): return rules.allSatisfy { implies($0) }
        case (.all(let rules), _) where rules.contains(where: { $0.implies(other) }): return true
        case (_, .any(let rules)) where rules.contains(where: { implies($0) }): return true
        case (.equals(let field, let value), _): return Self.value(value, at: field, satisfies: other)
        case (.oneOf(let field, let values), _): return values.allSatisfy { Self.value($0, at: field, satisfies: other) }
        case (.range(let field, let low, let high), .range(let otherField, let otherLow, let otherHigh)) where field == otherField:
            let lowOK = otherLow.map { bound in low.map { $0 >= bound } ?? false } ?? true
            let highOK = otherHigh.map { bound in high.map { $0 <= bound } ?? false } ?? true
            return lowOK && highOK
        case (.range(let field, _, _), .present(let otherField, true)), (.matches(let field, _), .present(let otherField, true)),
            (.present(let field, true), .present(let otherField, true)):
            return field == otherField
        case (.kind(let kinds), .kind(let otherKinds)): return Set(kinds).isSubset(of: otherKinds)
        default: return false
        }
    }

    /// Whether no command can match: `false`, an empty `in`, a combination that contradicts itself in an
    /// obvious way (two different `equals` on one field).
    public var isUnsatisfiable: Bool {
        switch self {
        case .always(let result): return !result
        case .oneOf(_, let values): return values.isEmpty
        case .kind(let kinds): return kinds.isEmpty
        case .any(let rules): return rules.allSatisfy(\.isUnsatisfiable)
        case .all(let rules):
            if rules.contains(where: \.isUnsatisfiable) { return true }
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
        case .oneOf(let otherField, let values): return otherField == field && values.contains { value.sameValue(as: $0) }
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
