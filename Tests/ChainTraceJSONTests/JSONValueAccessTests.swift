import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// `JSONValue`'s conveniences on generated values of every kind: a member by key only of an object, the string
/// only of a string, a number only of a number (an integer as its double), literals building the same values as
/// the cases; and `summary`, which error messages quote, names the kind and never holds a character that would act
/// on a terminal or run past one line.
@Suite("JSON value conveniences")
struct JSONValueAccessTests {
    @Test(arguments: SeededGenerator.seeds(100))
    func accessorsAgreeWithTheCases(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let value = GeneratedJSON.value(&random)
        let key = random.hostileName(maximumLength: 4)
        switch value {
        case .object(let members):
            #expect(value[key] == members[key], "seed \(seed)")
            for (name, member) in members { #expect(value[name] == member, "seed \(seed)") }
        default:
            #expect(value[key] == nil, "seed \(seed)")
        }
        switch value {
        case .string(let text): #expect(value.stringValue == text, "seed \(seed)")
        default: #expect(value.stringValue == nil, "seed \(seed)")
        }
        switch value {
        case .integer(let number): #expect(value.doubleValue == Double(number), "seed \(seed)")
        case .double(let number): #expect(value.doubleValue == number, "seed \(seed)")
        default: #expect(value.doubleValue == nil, "seed \(seed)")
        }
        let summary = value.summary
        #expect(
            !summary.isEmpty && !summary.unicodeScalars.contains { $0 == "\n" || $0 == "\r" || $0.value == 0x1B },
            "seed \(seed): \(summary.debugDescription)"
        )
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func summariesNameTheKindAndCutLongStrings(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let length = Int.random(in: 0...120, using: &random)
        let text = String((0..<length).map { _ in random.pick(Array("abcdefghij 中🚀")) })
        let summary = JSONValue.string(text).summary
        #expect(summary == "the string \"\(text.prefix(40))\"", "seed \(seed): \(summary)")
        let number = Int64.random(in: .min ... .max, using: &random)
        #expect(JSONValue.integer(number).summary == "the number \(number)", "seed \(seed)")
        #expect(
            JSONValue.array([.null]).summary == "an array" && JSONValue.object([:]).summary == "an object",
            "seed \(seed)"
        )
        #expect(
            JSONValue.null.summary == "null" && JSONValue.bool(true).summary == "true"
                && JSONValue.bool(false).summary == "false"
        )
    }

    /// A whole number written past 64 bits reads as a float; its summary says so, since the field may want an
    /// integer (`"id": 12345678901234567890` was "expected a string or an integer, found the number 1.2e+19").
    /// Numbers within 64 bits, and floats with a fraction, are summarised as before.
    @Test(arguments: SeededGenerator.seeds(40))
    func aWholeNumberPast64BitsSaysSo(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let digits = Int.random(in: 20...40, using: &random)
        let sign = random.chance(0.5) ? "-" : ""
        let text =
            sign + String(Int.random(in: 1...9, using: &random))
            + String((1..<digits).map { _ in random.pick(Array("0123456789")) })
        let past = try JSONParser.parse(text)
        #expect(
            past.summary.hasSuffix("(an integer past the 64-bit range -2^63 to 2^63 - 1)"),
            "seed \(seed): \(text) → \(past.summary)"
        )
        let within = try JSONParser.parse(String(Int64.random(in: .min ... .max, using: &random)))
        #expect(!within.summary.contains("past"), "seed \(seed): \(within.summary)")
        let fraction = try JSONParser.parse(String(Double.random(in: -1e6...1e6, using: &random)) + "5")
        #expect(!fraction.summary.contains("past"), "seed \(seed): \(fraction.summary)")
    }

    @Test func literalsBuildTheCases() {
        let literal: JSONValue = ["a": [1, 2.5, "x", true, nil], "b": [:]]
        #expect(
            literal
                == .object([
                    "a": .array([.integer(1), .double(2.5), .string("x"), .bool(true), .null]), "b": .object([:]),
                ])
        )
    }
}
