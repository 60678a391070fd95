import ChainTrace
import ChainTraceDefinitions
import ChainTraceTestSupport
import Testing

/// Durations as definitions and `--slow` write them: every duration formats to text that parses back to within
/// the three significant digits shown (exactly below a microsecond); every spelling of every unit parses to the
/// same nanoseconds; anything else — negative, not a number, no unit, too large — is refused, never trapped on.
@Suite("Duration text")
struct DurationTextTests {
    @Test(arguments: SeededGenerator.seeds(200))
    func formattedDurationsParseBackWithinTheirPrecision(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let magnitude = Int64.random(in: 0...18, using: &random)
        var power: Int64 = 1
        for _ in 0..<magnitude { power *= 10 }
        let nanoseconds = Int64.random(in: 0...min(power * 9, 9_000_000_000_000_000_000), using: &random)
        let text = DurationText.format(nanoseconds: nanoseconds)
        let parsed = try #require(
            DurationText.nanoseconds(text),
            "seed \(seed): \(nanoseconds) formats as \(text), which does not parse"
        )
        if nanoseconds < 1_000 {
            #expect(parsed == nanoseconds, "seed \(seed): \(text)")
        } else {
            let error = abs(Double(parsed) - Double(nanoseconds)) / Double(nanoseconds)
            #expect(error <= 0.005, "seed \(seed): \(nanoseconds) → \(text) → \(parsed)")
        }
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func everySpellingOfAUnitMeansTheSame(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let whole = Int.random(in: 0...999, using: &random)
        let fraction = random.chance(0.5) ? "" : "." + String(Int.random(in: 0...99, using: &random))
        let number = "\(whole)\(fraction)"
        let value = Double(number)!
        for (units, scale) in [
            (["ns"], 1.0), (["us", "\u{B5}s", "\u{3BC}s"], 1_000.0), (["ms"], 1_000_000.0), (["s"], 1_000_000_000.0),
        ] {
            for unit in units {
                let spaced = random.chance(0.3) ? " \(number) \(unit) " : "\(number)\(unit)"
                #expect(DurationText.nanoseconds(spaced) == Int64((value * scale).rounded()), "seed \(seed): \(spaced)")
            }
        }
    }

    @Test(arguments: [
        "", "ms", "5", "-1ms", "1 m s", "1h", "1.5.2ms", "nanms", "infs", "1e30s", "9300000000s", "0x10ns", "１ms",
        "5 sec", "five ms",
    ])
    func anythingElseIsRefused(text: String) {
        #expect(DurationText.nanoseconds(text) == nil, "\(text) was accepted")
        // Only a well-written duration past 2^63 ns is "too long"; the rest are not durations at all.
        #expect(DurationText.isTooLong(text) == (text == "9300000000s"), "\(text)")
    }

    /// Durations written well but past 2^63 nanoseconds, in every unit, are refused as too long, and a definition
    /// says so; one just under the limit reads.
    @Test func tooLongDurationsAreSaidToBe() throws {
        for text in ["9300000000s", "9300000000000ms", "9300000000000000us", "99999999999999999999ns", "9223372036.9s"]
        {
            #expect(DurationText.nanoseconds(text) == nil && DurationText.isTooLong(text), "\(text)")
            let definition = #"{"chain":"c","handlers":[{"name":"A","accepts":true,"budget":"\#(text)"}]}"#
            let findings = ChainDefinitionLinter.lint(bytes: Array(definition.utf8), file: "c.chain.json")
            #expect(
                findings.contains { $0.error.expected == "a duration under 292 years (2^63 ns)" },
                "\(text): \(findings)"
            )
        }
        #expect(
            DurationText.nanoseconds("9100000000s") == 9_100_000_000_000_000_000
                && !DurationText.isTooLong("9100000000s")
        )
    }

    /// Exact to the nanosecond up to 2^63 - 1, in every unit: random digit strings, up to 21 before the point and
    /// 12 after, against the same number worked out on their text (the point moved, leading zeros dropped, then
    /// compared with Int64.max digit by digit), with no float on either side.
    @Test(arguments: SeededGenerator.seeds(300))
    func durationsAreExactUpToTheLastNanosecond(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
        }
        let (unit, places) = random.pick([("ns", 0), ("us", 3), ("\u{B5}s", 3), ("ms", 6), ("s", 9)])
        // Near the limit half the time: 19 digits once the point has moved.
        let integer = random.chance(0.5) ? digits(19 - places) : digits(Int.random(in: 1...21, using: &random))
        let fraction = random.chance(0.3) ? "" : digits(Int.random(in: 1...12, using: &random))
        let text = fraction.isEmpty ? "\(integer)\(unit)" : "\(integer).\(fraction)\(unit)"
        // The oracle: move the point, round on the first digit dropped, decide overflow on the text.
        let padded = fraction + String(repeating: "0", count: places)
        let whole = String((integer + padded.prefix(places)).drop { $0 == "0" })
        let roundsUp = padded.count > places && padded[padded.index(padded.startIndex, offsetBy: places)] >= "5"
        let limit = String(Int64.max)
        func fits(_ number: String) -> Bool {
            number.count < limit.count || (number.count == limit.count && number <= limit)
        }
        var expected: Int64? = fits(whole) ? Int64(whole.isEmpty ? "0" : whole)! : nil
        if roundsUp, let value = expected {
            expected = value == Int64.max ? nil : value + 1
        }
        #expect(DurationText.nanoseconds(text) == expected, "seed \(seed): \(text)")
        #expect(DurationText.isTooLong(text) == (expected == nil), "seed \(seed): \(text)")
    }

    @Test func theLastNanosecondBeforeTwoToTheSixtyThirdReads() {
        #expect(DurationText.nanoseconds("9223372036854775807ns") == Int64.max)
        #expect(DurationText.nanoseconds("9223372036.854775807s") == Int64.max)
        #expect(DurationText.nanoseconds("9223372036.8547758074s") == Int64.max)
        for text in ["9223372036854775808ns", "9223372036.8547758075s", "9223372036854775.808us"] {
            #expect(DurationText.nanoseconds(text) == nil && DurationText.isTooLong(text), "\(text)")
        }
        #expect(DurationText.nanoseconds("0.0000000001ns") == 0 && DurationText.nanoseconds("0.5ns") == 1)
        #expect(DurationText.nanoseconds("1.0000000005s") == 1_000_000_001)
    }

    @Test func extremesFormatWithoutTrapping() {
        for value in [Int64.min, -1, 0, 999, 1_000, 999_999, Int64.max] {
            #expect(!DurationText.format(nanoseconds: value).isEmpty)
        }
    }
}
