import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import Testing

@Suite("Rules in chain definitions")
struct RuleTests {
    func command(_ fields: JSONValue, kind: String = "Tap") -> JSONCommand { JSONCommand(kind: kind, fields: fields) }

    @Test func fieldTestsCompareNumbersByValueAndFollowDottedPaths() throws {
        let card = command(["card": ["type": "visa", "limit": 500], "amount": 2])
        #expect(Rule.equals(FieldPath("amount"), 2.0).matches(card))
        #expect(Rule.equals(FieldPath("card.type"), "visa").matches(card))
        #expect(!Rule.equals(FieldPath("card.missing"), "visa").matches(card))
        #expect(Rule.oneOf(FieldPath("card.type"), ["amex", "visa"]).matches(card))
        #expect(Rule.range(FieldPath("card.limit"), minimum: 100, maximum: 500).matches(card))
        #expect(!Rule.range(FieldPath("card.limit"), minimum: 501, maximum: nil).matches(card))
        #expect(Rule.matches(FieldPath("card.type"), try Pattern("^vi")).matches(card))
        #expect(Rule.present(FieldPath("card"), true).matches(card))
        #expect(Rule.present(FieldPath("photo"), false).matches(card))
        #expect(Rule.kind(["Tap", "Swipe"]).matches(card))
        #expect(Rule.not(.kind(["Tap"])).matches(command([:], kind: "Swipe")))
        #expect(Rule.any([.always(false), .equals(FieldPath("amount"), 2)]).matches(card))
        #expect(!Rule.all([.always(true), .equals(FieldPath("amount"), 3)]).matches(card))
    }

    @Test func implicationIsSureOrSaysNo() throws {
        let size = FieldPath("size")
        #expect(Rule.equals(size, "M").implies(.oneOf(size, ["S", "M"])))
        #expect(!Rule.oneOf(size, ["S", "M"]).implies(.equals(size, "M")))
        #expect(Rule.range(size, minimum: 2, maximum: 3).implies(.range(size, minimum: 1, maximum: nil)))
        #expect(!Rule.range(size, minimum: 0, maximum: 3).implies(.range(size, minimum: 1, maximum: nil)))
        #expect(Rule.all([.kind(["Tap"]), .equals(size, 1)]).implies(.kind(["Tap", "Swipe"])))
        #expect(Rule.equals(size, "abc").implies(.matches(size, try Pattern("^a"))))
        #expect(!Rule.equals(FieldPath("other"), 1).implies(.equals(size, 1)))
        #expect(Rule.all([.equals(size, 1), .equals(size, 2)]).isUnsatisfiable)
        #expect(!Rule.all([.equals(size, 1), .equals(FieldPath("b"), 2)]).isUnsatisfiable)
    }

    @Test func definitionErrorsNameLineColumnAndWhatWasExpected() throws {
        let text = """
            {
              "chain": "c",
              "handlers": [
                { "name": "A", "accepts": { "field": "x", "between": [1, 2] } }
              ]
            }
            """
        #expect {
            try ChainDefinition.load(bytes: Array(text.utf8), file: "c.json")
        } throws: { error in
            (error as? FormatError)?.description.hasPrefix("c.json:4:58: expected one of \"equals\"") == true
        }
        #expect(DurationText.nanoseconds("1.5ms") == 1_500_000)
        #expect(DurationText.nanoseconds("20µs") == 20_000)
        #expect(DurationText.nanoseconds("20") == nil)
        #expect(DurationText.format(nanoseconds: 12_400) == "12.4µs")
    }
}
