import ChainTraceJSON
import ChainTraceTestSupport
import Testing

@Suite("Strict JSON with exact error positions")
struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#"{"a":[1,-2.5e3,true,false,null],"b":"x\"\\\/\n\u00e9\ud83d\ude00","c":{}}"#)
        #expect(value == ["a": [1, -2500.0, true, false, nil], "b": "x\"\\/\né😀", "c": [:]])
    }

    @Test func integersStayIntegersAndFloatsStayFloats() throws {
        #expect(try JSONParser.parse("9007199254740993") == .integer(9_007_199_254_740_993))
        #expect(try JSONParser.parse("1.0") == .double(1))
        #expect(try JSONParser.parse("0.1") == .double(0.1))
    }

    @Test(arguments: [
        ("{\"a\":1,}", 1, 8, "a member name in double quotes"),
        ("[1 2]", 1, 4, "',' or ']'"),
        ("{\n  \"a\": tru\n}", 2, 8, "'true'"),
        ("\"abc", 1, 5, "'\"' to close the string"),
        ("01", 1, 2, "end of the value"),
        ("{\"a\" 1}", 1, 6, "':' after the member name"),
        ("-", 1, 2, "a digit"),
        ("\"\\x\"", 1, 3, "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u"),
        // Every way an escape can be wrong, each at the byte that makes it so.
        (#""\"#, 1, 3, "an escape character"),
        (#""\u12""#, 1, 6, "a hex digit"),
        (#""\u12"#, 1, 6, "four hex digits"),
        (#""\uD800""#, 1, 8, #"a low surrogate \uDC00-\uDFFF after a high surrogate"#),
        (#""\uD800\u0041""#, 1, 10, #"a low surrogate \uDC00-\uDFFF"#),
        (#""\uDC00""#, 1, 4, "a high surrogate before a low one"),
        ("", 1, 1, "a JSON value"),
    ])
    func malformedTextIsReportedWithLineColumnAndWhatWasExpected(
        text: String,
        line: Int,
        column: Int,
        expected: String
    ) {
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
        #expect(error?.line == line)
        #expect(error?.column == column)
        #expect(error?.expected == expected)
    }

    @Test func errorLinesCountFromTheGivenFirstLine() {
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse("[1,]", line: 41) }
        #expect(error?.line == 41)
        #expect(error?.description == "line 41, column 4: expected a JSON value, found ']'")
    }

    @Test(arguments: [Int64.min, -1, 0, 7, 1_000_000, Int64.max])
    func integersAreWrittenAsTheirDecimalDigits(number: Int64) {
        var writer = JSONWriter()
        writer.write(number)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(number))
    }

    @Test func writerOutputReadsBackToTheSameValue() throws {
        let value: JSONValue = [
            "z": "quote \" backslash \\ newline \n tab \t bell \u{07} é <script>",
            "a": [1.5, 0.1, 1e-7, -0.0, 123_456_789_012],
            "m": ["nested": [nil, true]],
        ]
        var writer = JSONWriter()
        writer.write(value)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(try JSONParser.parse(text) == value)
        #expect(text.hasPrefix(#"{"a":"#))
        #expect(!text.contains("\n"))
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func aByteOrderMarkIsNamedWhereverItStandsForAValue(seed: UInt64) throws {
        // Some editors start a UTF-8 file with one; it is no JSON, and "found byte 0xEF" did not say what to do.
        // As text inside a string it is a character like any other.
        var random = SeededGenerator(seed: seed)
        let value = GeneratedJSON.value(&random)
        var writer = JSONWriter()
        writer.write(value)
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let error = #expect(throws: JSONParseError.self) {
            try (mark + writer.bytes).withUnsafeBufferPointer { bytes throws(JSONParseError) in
                try JSONParser.parse(bytes)
            }
        }
        #expect(error?.line == 1 && error?.column == 1)
        #expect(error?.found == "a byte order mark (EF BB BF; save the file as UTF-8 without one)")
        let inString = try JSONParser.parse("\"\u{FEFF}x\"")
        #expect(inString == .string("\u{FEFF}x"))
    }

    /// A number too large for a 64-bit float is quoted as written, where it starts — shortened when long — not by
    /// its first character ("found '1'" for `1e999` said nothing). Generated: signs, integer and fraction digits,
    /// exponents past the range, in objects and arrays at generated places.
    @Test(arguments: SeededGenerator.seeds(40))
    func aNumberOutOfRangeIsQuotedAsWritten(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var number = random.chance(0.3) ? "-" : ""
        let integerDigits =
            random.chance(0.3) ? Int.random(in: 310...600, using: &random) : Int.random(in: 1...5, using: &random)
        number += String(Int.random(in: 1...9, using: &random))
        for _ in 1..<integerDigits { number += String(Int.random(in: 0...9, using: &random)) }
        if random.chance(0.5) { number += "." + String(Int.random(in: 0...999, using: &random)) }
        if integerDigits < 310 || random.chance(0.5) {
            number += (random.chance(0.5) ? "e" : "E") + (random.chance(0.5) ? "+" : "")
            number += String(Int.random(in: 400...99_999, using: &random))
        }
        let before = String(repeating: " ", count: Int.random(in: 0...3, using: &random))
        let (text, column) =
            random.chance(0.5)
            ? ("{\"a\":\(before)\(number)}", 6 + before.count)
            : ("[1,\(before)\(number),2]", 4 + before.count)
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
        #expect(error?.expected == "a number that fits a 64-bit float", "seed \(seed): \(text.prefix(60))")
        #expect(error?.column == column, "seed \(seed)")
        let shown = number.count <= 40 ? number : "\(number.prefix(32))… (\(number.count) characters)"
        #expect(error?.found == shown, "seed \(seed)")
    }
}
