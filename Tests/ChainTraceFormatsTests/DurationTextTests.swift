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
        let parsed = try #require(DurationText.nanoseconds(text), "seed \(seed): \(nanoseconds) formats as \(text), which does not parse")
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
        for (units, scale) in [(["ns"], 1.0), (["us", "\u{B5}s", "\u{3BC}s"], 1_000.0), (["ms"], 1_000_000.0), (["s"], 1_000_000_000.0)] {
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
        for text in ["9300000000s", "9300000000000ms", "9300000000000000us", "99999999999999999999ns", "9223372036.9s"] {
            #expect(DurationText.nanoseconds(text) == nil && DurationText.isTooLong(text), "\(text)")
            let definition = #"{"chain":"c","handlers":[{"name":"A","accepts":true,"budget":"\#(text)"}]}"#
            let findings = ChainDefinitionLinter.lint(bytes: Array(definition.utf8), file: "c.chain.json")
            #expect(findings.contains { $0.error.expected == "a duration under 292 years (2^63 ns)" }, "\(text): \(findings)")
        }
        #expect(DurationText.nanoseconds("9100000000s") == 9_100_000_000_000_000_000 && !DurationText.isTooLong("9100000000s"))
    }

    @Test func extremesFormatWithoutTrapping() {
        for value in [Int64.min, -1, 0, 999, 1_000, 999_999, Int64.max] {
            #expect(!DurationText.format(nanoseconds: value).isEmpty)
        }
    }
}
