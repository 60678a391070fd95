import ChainTraceJSON

/// Durations as people write them in definitions and flags: `250ns`, `20us` (or `20µs`, with the micro sign or the
/// Greek letter mu, which keyboards type), `1.5ms`, `2s`.
public enum DurationText {
    /// Each unit's spellings and its decimal places of nanoseconds: a digit after the point of `1.5ms` is 100 000 ns.
    private static let units: [(suffix: String, places: Int)] = [
        ("ns", 0), ("us", 3), ("\u{B5}s", 3), ("\u{3BC}s", 3), ("ms", 6), ("s", 9),
    ]

    /// The nanoseconds `text` stands for, or `nil` when it is not a decimal number (`250`, `1.5`) followed by a
    /// unit, or is 2^63 ns or more (``isTooLong(_:)``). Exact: digits past a nanosecond round to the nearest one
    /// (half up), and no float stands between the text and the count.
    public static func nanoseconds(_ text: String) -> Int64? {
        guard case .nanoseconds(let nanoseconds)? = written(text) else { return nil }
        return nanoseconds
    }

    /// Whether `text` is written as a duration (a decimal number and a unit) but is too long for one: 2^63
    /// nanoseconds and more, about 292 years.
    public static func isTooLong(_ text: String) -> Bool {
        guard case .tooLong? = written(text) else { return false }
        return true
    }

    private enum Written {
        case nanoseconds(Int64)
        case tooLong
    }

    /// What `text` is written as, however long: a decimal number and a unit, spaces around either.
    private static func written(_ text: String) -> Written? {
        let trimmed = text.trimmingSpaces
        for (suffix, places) in units where trimmed.hasSuffix(suffix) {
            // Decimal digits with an optional fraction, as the docs write them: no sign, exponent or hex float.
            return exactNanoseconds(trimmed.dropLast(suffix.count).trimmingSpaces, places: places)
        }
        return nil
    }

    /// The digits of `number` with its point moved `places` to the right, rounded half up to an integer, counted
    /// without a float; `.tooLong` past `Int64.max`.
    private static func exactNanoseconds(_ number: String, places: Int) -> Written? {
        guard let parts = decimalDigits(number) else { return nil }
        let fraction = parts.count == 2 ? Array(parts[1]) : []
        var value: Int64 = 0
        var fits = true
        func add(_ digit: UInt8, times ten: Bool) {
            guard fits else { return }
            let (shifted, overflow) = ten ? value.multipliedReportingOverflow(by: 10) : (value, false)
            let (sum, carry) = shifted.addingReportingOverflow(Int64(digit &- 0x30))
            if overflow || carry { fits = false } else { value = sum }
        }
        for digit in parts[0] { add(digit, times: true) }
        for place in 0..<places { add(place < fraction.count ? fraction[place] : 0x30, times: true) }
        if places < fraction.count, fraction[places] >= UInt8(ascii: "5") { add(0x31, times: false) }
        return fits ? .nanoseconds(value) : .tooLong
    }

    /// The value of `text` when it is ASCII digits, optionally with one `.` and more digits after it — the only
    /// numbers durations and slow-handler rule clauses take (no sign, exponent, hex float, `inf` or `nan`).
    package static func decimalNumber(_ text: some StringProtocol) -> Double? {
        decimalDigits(text) == nil ? nil : Double(String(text))
    }

    /// The digits of `text` before and after its point (one part when it has none), when it is written as
    /// ``decimalNumber(_:)`` takes it.
    private static func decimalDigits(_ text: some StringProtocol) -> [Substring.UTF8View]? {
        let parts = Substring(text).utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
            parts.allSatisfy({ part in !part.isEmpty && part.allSatisfy { (0x30...0x39).contains($0) } })
        else { return nil }
        return parts
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
