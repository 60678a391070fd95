import ChainTrace
public import ChainTraceJSON

/// A test on a command, as chain definitions write it: what a handler accepts, or when it fails.
///
/// Field tests name a field by its dotted path in the command's fields (`card.type`). Numbers compare by their
/// exact value (``RuleNumber``), so `2` equals `2.0`, also inside arrays and objects. A missing field fails every
/// test but ``present(_:_:)`` with `false`.
///
/// In JSON: `true`, `false`, `{"field": "weight", "equals": 2.5}`, `{"field": "size", "in": ["S", "M"]}`,
/// `{"field": "weight", "min": 2, "max": 3}`, `{"field": "name", "matches": "^[a-z]+$"}`,
/// `{"field": "photo", "present": true}`, `{"kind": ["Tap", "Swipe"]}`, and `{"all": […]}`, `{"any": […]}`,
/// `{"not": …}` to combine them.
public indirect enum Rule: Sendable, Hashable {
    /// Matches every command (`true`) or none (`false`).
    case always(Bool)
    /// The field equals the value.
    case equals(FieldPath, JSONValue)
    /// The field equals one of the values.
    case oneOf(FieldPath, [JSONValue])
    /// The field is a number within the bounds, both inclusive; a `nil` bound is open.
    case range(FieldPath, minimum: RuleNumber?, maximum: RuleNumber?)
    /// The field is a string the pattern matches somewhere (anchor it with `^…$` for a whole match).
    case matches(FieldPath, Pattern)
    /// The field is there (`true`) or is not (`false`); `null` counts as absent.
    case present(FieldPath, Bool)
    /// The command's kind is one of these.
    case kind([String])
    /// Every rule matches.
    case all([Rule])
    /// At least one rule matches.
    case any([Rule])
    /// The rule does not match.
    case not(Rule)

    /// Whether `command` passes this test.
    public func matches(_ command: JSONCommand) -> Bool {
        switch self {
        case .always(let result):
            return result
        case .equals(let field, _), .oneOf(let field, _), .range(let field, _, _), .matches(let field, _),
            .present(let field, _):
            return passes(fieldValue: field.value(in: command))
        case .kind(let kinds):
            return kinds.contains(command.kind)
        case .all(let rules):
            return rules.allSatisfy { $0.matches(command) }
        case .any(let rules):
            return rules.contains { $0.matches(command) }
        case .not(let rule):
            return !rule.matches(command)
        }
    }

    /// Whether a field test passes when its field holds `value` (`nil`: the field is missing). `false` for
    /// rules that are not field tests.
    func passes(fieldValue value: JSONValue?) -> Bool {
        switch self {
        case .equals(_, let expected):
            guard let value else { return false }
            return value.sameValue(as: expected)
        case .oneOf(_, let candidates):
            guard let value else { return false }
            return candidates.contains { value.sameValue(as: $0) }
        case .range(_, let minimum, let maximum):
            guard let number = value.flatMap(RuleNumber.init) else { return false }
            return Self.number(number, isWithin: minimum, maximum)
        case .matches(_, let pattern):
            guard let text = value?.stringValue else { return false }
            return pattern.matches(text)
        case .present(_, let expected):
            return (value != nil && value != .null) == expected
        case .always, .kind, .all, .any, .not:
            return false
        }
    }

    static func number(_ number: RuleNumber, isWithin minimum: RuleNumber?, _ maximum: RuleNumber?) -> Bool {
        if let minimum, number < minimum { return false }
        if let maximum, number > maximum { return false }
        return true
    }
}

/// A dotted path to a field inside a command's fields: `card.type` is the member `type` of the member `card`, and
/// `items.0.sku` the member `sku` of the first element of the array `items` — a step written as a whole number
/// (`0`, `12`; no sign or leading zero) indexes an array, and names a member of an object as any other step does.
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    /// The member names (or array indexes), outermost first.
    public let components: [String]
    /// Each component read as an array index: `nil` for one that is not a whole number.
    private let indexes: [Int?]
    /// Splits `text` at its dots.
    public init(_ text: String) {
        components = Self.steps(text)
        indexes = components.map(Self.index(_:))
    }

    /// `text` split at every dot. At its Unicode scalars, not its characters: a member name that starts with a
    /// combining mark (`"\u{301}x"`) joins the dot before it into one character, and a split by characters kept
    /// `a.\u{301}x` whole, one member that no command has.
    static func steps(_ text: String) -> [String] {
        text.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false).map {
            String(String.UnicodeScalarView($0))
        }
    }

    /// `component` as an array index: digits only, no leading zero but for `0` itself, within `Int`.
    static func index(_ component: String) -> Int? {
        let digits = component.utf8
        guard let first = digits.first, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            first != UInt8(ascii: "0") || digits.count == 1
        else { return nil }
        return Int(component)
    }

    /// The value at this path in `fields`, or `nil` when any step is missing: a member an object does not have,
    /// an index past an array's end, or a step into a value that is neither.
    public func value(in fields: JSONValue) -> JSONValue? {
        value(in: fields, from: 0)
    }

    /// The value at this path in `command`'s fields.
    public func value(in command: JSONCommand) -> JSONValue? {
        value(in: command.fields, from: 0)
    }

    func value(in fields: JSONValue, from start: Int) -> JSONValue? {
        var current = fields
        for position in start..<components.count {
            switch current {
            case .object(let members):
                guard let next = members[components[position]] else { return nil }
                current = next
            case .array(let elements):
                guard let index = indexes[position], index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    public static func == (left: FieldPath, right: FieldPath) -> Bool { left.components == right.components }

    public func hash(into hasher: inout Hasher) { hasher.combine(components) }

    public var description: String { components.joined(separator: ".") }
}

extension JSONValue {
    /// Equality as a rule means it: numbers by their exact value whatever their kind — also inside arrays and
    /// objects, so that `[1, 2.0]` is `[1, 2]` and `{"n": 1.0}` is `{"n": 1}` — everything else structurally
    /// (members in any order, text by canonical equivalence).
    func sameValue(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.sameValue(as: $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.allSatisfy { name, value in right[name].map { value.sameValue(as: $0) } ?? false }
        default:
            if let left = RuleNumber(self), let right = RuleNumber(other) { return left == right }
            return self == other
        }
    }
}
