#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// A reproducible source of random values for generated tests (SplitMix64).
///
/// Every generated test names its seed in its failure messages, so a failing case can be run again exactly:
/// set `CHAINTRACE_SEED` to replay one seed, and `CHAINTRACE_CASES` to run more or fewer cases than the default.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that gives the same sequence for the same `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seeds a generated test runs: `CHAINTRACE_SEED` alone when set, else `count` seeds from `base`
    /// (`CHAINTRACE_CASES` overrides `count`).
    public static func seeds(_ count: Int, base: UInt64 = 0xC4A1_7EAC_E000_0000) -> [UInt64] {
        if let text = environment("CHAINTRACE_SEED"), let seed = UInt64(text) { return [seed] }
        let cases = environment("CHAINTRACE_CASES").flatMap { Int($0) } ?? count
        return (0..<UInt64(max(cases, 1))).map { base &+ $0 }
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// A value picked from `choices`.
    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &self)]
    }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    /// A name of `minimumLength`–`maximumLength` characters drawn mostly from the ones that break output formats:
    /// DOT and HTML punctuation, quotes, backslashes, C0 and C1 controls, bidi overrides, combining marks, emoji,
    /// CJK — and, one time in ten where `minimumLength` allows it, the empty name, which a `traceHop` may be given.
    public mutating func hostileName(maximumLength: Int = 12, minimumLength: Int = 0) -> String {
        if minimumLength == 0, chance(0.1) { return "" }
        let awkward: [Unicode.Scalar] = [
            "[", "]", "{", "}", "<", ">", "&", "\"", "\\", "|", ";", ",", "=", ":", "'", "`", "-", ">", "#", "%",
            " ", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{7}", "\u{7F}", "\u{85}", "\u{9B}", "\u{202E}", "\u{2066}",
            "\u{200F}", "\u{0301}", "\u{FEFF}", "é", "ß", "中", "🚀", "\u{10FFFD}", "a", "Z", "0", "_", ".",
        ]
        let length = Int.random(in: max(1, minimumLength)...max(1, minimumLength, maximumLength), using: &self)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            if chance(0.7) {
                scalars.append(pick(awkward))
            } else {
                // Any scalar outside the surrogate range.
                var value = UInt32.random(in: 0x20...0x2FFFF, using: &self)
                if (0xD800...0xDFFF).contains(value) { value = 0x41 }
                scalars.append(Unicode.Scalar(value) ?? "A")
            }
        }
        return String(scalars)
    }
}

extension SeededGenerator {
    /// `count` random hex digits, lowercase, or with `mixedCase` some uppercase; never all zeros.
    public mutating func hexDigits(_ count: Int, mixedCase: Bool = false) -> String {
        let digits = Array("0123456789abcdef")
        var text = String((0..<count).map { _ in digits[Int(next() % 16)] })
        if text.allSatisfy({ $0 == "0" }) { text = String(text.dropLast()) + "1" }
        return mixedCase ? String(text.map { chance(0.5) ? Character($0.uppercased()) : $0 }) : text
    }
}
