import ChainTrace
import ChainTraceJSON

/// Durations as people write them in definitions and flags: `250ns`, `20us` (or `20µs`, with the micro sign or the
/// Greek letter mu, which keyboards type), `1.5ms`, `2s`.
public enum DurationText {
    private static let units: [(suffix: String, nanoseconds: Double)] = [
        ("ns", 1), ("us", 1_000), ("\u{B5}s", 1_000), ("\u{3BC}s", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000),
    ]

    /// The nanoseconds `text` stands for, or `nil` when it is not a decimal number (`250`, `1.5`) followed by a
    /// unit, or is 2^63 ns or more (``isTooLong(_:)``).
    public static func nanoseconds(_ text: String) -> Int64? {
        guard let nanoseconds = written(text), nanoseconds < 9.2e18 else { return nil }
        return Int64(nanoseconds.rounded())
    }

    /// Whether `text` is written as a duration (a decimal number and a unit) but is too long for one: 2^63
    /// nanoseconds and more, about 292 years.
    public static func isTooLong(_ text: String) -> Bool {
        guard let nanoseconds = written(text) else { return false }
        return !(nanoseconds < 9.2e18)
    }

    /// The nanoseconds `text` is written as, however many: a decimal number and a unit, spaces around either.
    private static func written(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            // Decimal digits with an optional fraction, as the docs write them: no sign, exponent or hex float.
            return decimalNumber(trimmed.dropLast(suffix.count).trimmingSpaces).map { $0 * scale }
        }
        return nil
    }

    /// The value of `text` when it is ASCII digits, optionally with one `.` and more digits after it — the only
    /// numbers durations and slow-handler rule clauses take (no sign, exponent, hex float, `inf` or `nan`).
    package static func decimalNumber(_ text: some StringProtocol) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
            parts.allSatisfy({ part in !part.isEmpty && part.utf8.allSatisfy { (0x30...0x39).contains($0) } })
        else { return nil }
        return Double(String(text))
    }

    /// What the parser accepts, for error messages.
    public static let expectation = "a duration such as \"250ns\", \"20us\", \"1.5ms\" or \"2s\""

    /// What the parser accepts, for an error message about a duration ``isTooLong(_:)``.
    public static let tooLongExpectation = "a duration under 292 years (2^63 ns)"

    /// `nanoseconds` in the largest unit that keeps it at least 1, with up to three significant decimals:
    /// `850ns`, `12.4µs`, `3.05ms`, `1.2s`.
    public static func format(nanoseconds: Int64) -> String {
        let value = Double(nanoseconds)
        switch abs(value) {
        case ..<1_000: return "\(nanoseconds)ns"
        case ..<1_000_000: return short(value / 1_000) + "µs"
        case ..<1_000_000_000: return short(value / 1_000_000) + "ms"
        default: return short(value / 1_000_000_000) + "s"
        }
    }

    private static func short(_ value: Double) -> String {
        let decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2
        var text = String(value.rounded(to: decimals))
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}

extension Double {
    func rounded(to decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
