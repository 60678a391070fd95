import ChainTrace
public import ChainTraceJSON

/// A number in a rule or a command's field, compared by its exact value whatever its kind: `2` equals `2.0`,
/// and `9007199254740993` is above `9007199254740992.0`, though converting it to a `Double` would make them
/// equal (a `Double` holds every integer only up to 2^53; ids and nanosecond times go past it).
///
/// ```swift
/// let rule = Rule.range(FieldPath("at"), minimum: 1_700_000_000_000_000_001, maximum: nil)
/// rule.matches(JSONCommand(kind: "Tick", fields: ["at": 1_700_000_000_000_000_000]))  // false
/// ```
public struct RuleNumber: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral
{
    /// The number as written: an integer, or a float.
    public enum Value: Sendable {
        /// A number without a fraction or an exponent that fits 64 bits.
        case integer(Int64)
        /// Any other number: one with a fraction or exponent, or an integer too large for 64 bits.
        case double(Double)
    }

    /// The number as written.
    public let value: Value

    /// An integer.
    public init(_ integer: Int64) {
        value = .integer(integer)
    }

    /// A float; NaN is no number a rule can hold, and is refused.
    public init?(_ double: Double) {
        guard !double.isNaN else { return nil }
        value = .double(double)
    }

    /// The number `json` holds; `nil` when it holds none.
    public init?(_ json: JSONValue) {
        switch json {
        case .integer(let integer): self.init(integer)
        case .double(let double): self.init(double)
        default: return nil
        }
    }

    /// An integer written as a literal: `minimum: 3`.
    public init(integerLiteral value: Int64) {
        self.init(value)
    }

    /// A float written as a literal: `minimum: 2.375`.
    public init(floatLiteral value: Double) {
        self.value = .double(value)
    }

    /// The number as a `Double` when that is exactly it; `nil` for an integer a `Double` cannot hold (beyond
    /// 2^53, most of them).
    public var exactDouble: Double? {
        switch value {
        case .integer(let integer):
            let double = Double(integer)
            // Double(Int64.max) rounds up to 2^63, which no Int64 is: `exactly` answers nil there.
            return Int64(exactly: double) == integer ? double : nil
        case .double(let double): return double
        }
    }

    /// The number as JSON, as it was written.
    public var json: JSONValue {
        switch value {
        case .integer(let integer): .integer(integer)
        case .double(let double): .double(double)
        }
    }

    /// The number as Swift writes its kind: `3`, `2.5`, `9.007199254740992e+15`.
    public var description: String {
        switch value {
        case .integer(let integer): "\(integer)"
        case .double(let double): "\(double)"
        }
    }

    /// Whether the two are the same number, exactly, whatever their kinds.
    public static func == (left: RuleNumber, right: RuleNumber) -> Bool {
        compare(left, right) == 0
    }

    /// Whether `left` is below `right`, exactly, whatever their kinds.
    public static func < (left: RuleNumber, right: RuleNumber) -> Bool {
        compare(left, right) < 0
    }

    /// Equal numbers hash alike whatever their kind: a float that is a whole number within 64 bits hashes as that
    /// integer.
    public func hash(into hasher: inout Hasher) {
        switch value {
        case .integer(let integer): hasher.combine(integer)
        case .double(let double):
            if let integer = Int64(exactly: double) { hasher.combine(integer) } else { hasher.combine(double) }
        }
    }

    /// -1, 0 or 1 as `left` is below, equal to or above `right`, exactly.
    static func compare(_ left: RuleNumber, _ right: RuleNumber) -> Int {
        switch (left.value, right.value) {
        case (.integer(let left), .integer(let right)): return left < right ? -1 : (left == right ? 0 : 1)
        case (.double(let left), .double(let right)): return left < right ? -1 : (left == right ? 0 : 1)
        case (.integer(let left), .double(let right)): return compare(left, right)
        case (.double(let left), .integer(let right)): return -compare(right, left)
        }
    }

    /// -1, 0 or 1 as `integer` is below, equal to or above `double` (never NaN), exactly: the double's whole part
    /// is compared as an integer, then its fraction decides a tie.
    static func compare(_ integer: Int64, _ double: Double) -> Int {
        // 2^63 is the first double above every Int64; -2^63 is Int64.min exactly.
        if double >= 9_223_372_036_854_775_808.0 { return -1 }
        if double < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = double.rounded(.towardZero)
        let wholeInteger = Int64(whole)
        if integer != wholeInteger { return integer < wholeInteger ? -1 : 1 }
        return double > whole ? -1 : (double < whole ? 1 : 0)
    }
}
