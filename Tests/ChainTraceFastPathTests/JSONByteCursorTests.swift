import ChainTraceFastPath
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// The fast line decoders find the end of a plain string eight bytes at a time; they must stop exactly where a
/// byte-by-byte look would.
@Suite("JSON byte cursor")
struct JSONByteCursorTests {
    /// Where a byte-by-byte look stops: the first `"`, `\`, control byte or non-ASCII byte.
    static func plainCount(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            index += 1
        }
        return index - start
    }

    @Test func plainStringsEndWhereAByteByByteLookEndsThem() {
        var generator = SystemRandomNumberGenerator()
        // Mostly letters, with every kind of byte that ends a plain run, and the values next to them.
        let stoppers: [UInt8] = [0x22, 0x5C, 0x00, 0x1F, 0x80, 0xC3, 0xFF, 0x7F, 0x20, 0x21, 0x23, 0x5B, 0x5D, 0x01]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0x61...0x7A, using: &generator) }
            for _ in 0..<Int.random(in: 0...3, using: &generator) where count > 0 {
                bytes[Int.random(in: 0..<count, using: &generator)] = stoppers.randomElement(using: &generator)!
            }
            let start = count == 0 ? 0 : Int.random(in: 0...count, using: &generator)
            bytes.withUnsafeBufferPointer { buffer in
                var cursor = JSONByteCursor(bytes: buffer, names: NameTable())
                cursor.index = start
                #expect(cursor.plainStringByteCount() == Self.plainCount(bytes, from: start), "\(bytes) from \(start)")
            }
        }
    }

    @Test func keysAndStringsWithEscapesOrNonASCIIStillReadRight() {
        let line = Array(#"{"a-long-key-name":"caf\u00e9","é":"x","k":"tab\there","plain":"abcdefghijklmnop"}"#.utf8)
        line.withUnsafeBufferPointer { buffer in
            var cursor = JSONByteCursor(bytes: buffer, names: NameTable())
            var seen: [String: String] = [:]
            let complete = cursor.members { cursor, key in
                let name = String(decoding: key.bytes, as: UTF8.self)
                let start = cursor.index
                if let text = cursor.string() {
                    seen[name] = text
                    return true
                }
                cursor.index = start
                seen[name] = "(left to the general parser)"
                return cursor.skipValue()
            }
            // A value with an escape is decoded on the fast path; a key that is not plain ASCII stops the fast
            // walk, and the caller hands the line to the general parser.
            #expect(seen["a-long-key-name"] == "café")
            #expect(!complete)
            #expect(seen["é"] == nil)
        }
        let plain = Array(#"{"a-long-key-name":"abcdefghijklmnopqrstu","n":"x"}"#.utf8)
        plain.withUnsafeBufferPointer { buffer in
            var cursor = JSONByteCursor(bytes: buffer, names: NameTable())
            var seen: [String: String] = [:]
            #expect(
                cursor.members { cursor, key in
                    seen[String(decoding: key.bytes, as: UTF8.self)] = cursor.string()
                    return true
                }
            )
            #expect(seen == ["a-long-key-name": "abcdefghijklmnopqrstu", "n": "x"])
        }
    }

    /// A number is stepped over exactly as far as it goes, and accepted exactly when it is at most 300 digits
    /// before the point and converts to a finite 64-bit float (as the general parser requires) — judged here by
    /// converting every one, where the cursor converts only those between 10^308 and 10^309.
    @Test(arguments: SeededGenerator.seeds(40))
    func numbersAreJudgedFiniteAsConvertingThemJudges(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        func digits(_ count: Int, leadingZeros: Int = 0) -> String {
            String(repeating: "0", count: leadingZeros)
                + String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
        }
        for _ in 0..<500 {
            var text = Bool.random(using: &random) ? "-" : ""
            let integerDigits: Int
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                text += "0"
                integerDigits = 1
            case 1:
                integerDigits = Int.random(in: 295...305, using: &random)
                text += "1" + digits(integerDigits - 1)
            default:
                integerDigits = Int.random(in: 1...20, using: &random)
                text += String(Int.random(in: 1...9, using: &random)) + digits(integerDigits - 1)
            }
            if Bool.random(using: &random) {
                text +=
                    "."
                    + digits(
                        Int.random(in: 1...20, using: &random),
                        leadingZeros: Int.random(in: 0...3, using: &random) == 0
                            ? Int.random(in: 0...330, using: &random) : 0
                    )
            }
            if Int.random(in: 0..<4, using: &random) > 0 {
                text += ["e", "E"].randomElement(using: &random)! + ["", "+", "-"].randomElement(using: &random)!
                switch Int.random(in: 0..<4, using: &random) {
                case 0: text += String(Int.random(in: 0...400, using: &random))
                case 1: text += String(Int.random(in: 300...330, using: &random))
                case 2: text += "0000" + String(Int.random(in: 280...320, using: &random))
                default: text += digits(Int.random(in: 8...30, using: &random))
                }
            }
            let expected = integerDigits <= JSONByteCursor.maximumFastIntegerDigits && Double(text)!.isFinite
            let bytes = Array((text + ",").utf8)
            bytes.withUnsafeBufferPointer { buffer in
                var cursor = JSONByteCursor(bytes: buffer, names: NameTable())
                let accepted = cursor.skipNumber()
                #expect(accepted == expected, "seed \(seed): \(text)")
                if accepted { #expect(cursor.index == text.utf8.count, "seed \(seed): \(text)") }
            }
        }
        // The edges themselves.
        for (text, finite) in [
            ("1e308", true), ("1.7976931348623157e308", true), ("1.7976931348623159e308", false), ("2e308", false),
            ("10e307", true), ("0.1e309", true), ("0.001e311", true), ("0.0e999999999999999999", true),
            ("1e309", false),
            ("1e-999999999999999999", true), ("0e0", true), ("-9e307", true), ("179769313486231580793e288", true),
            ("179769313486231580794e288", false),
        ] {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                var cursor = JSONByteCursor(bytes: buffer, names: NameTable())
                #expect(cursor.skipNumber() == finite, "\(text)")
            }
        }
    }

    /// A JSON value as bytes: objects (plain ASCII keys, now and then one twice), arrays, numbers, literals and
    /// strings with escapes and non-ASCII text; then damaged now and then by a byte from the edges of UTF-8, a
    /// control byte, a quote, a backslash or a bracket put in at random.
    static func damagedValue(_ random: inout SeededGenerator) -> [UInt8] {
        func value(_ depth: Int) -> String {
            switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &random) {
            case 0: return random.pick(["0", "-12", "3.25", "1e308", "2e308", "-0.5E-3", "17", "0.000e999"])
            case 1: return random.pick(["true", "false", "null"])
            case 2, 3:
                let parts = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    random.pick([
                        "plain", #"\""#, #"\\"#, #"\/"#, #"\n"#, #"\t"#, #"\u00e9"#, #"\ud83d\ude00"#, "é", "日本", "😀",
                        " ", #"\uD800"#, #"\x"#,
                    ])
                }
                return "\"" + parts.joined() + "\""
            case 4: return random.pick(["\"a\"", "\"\"", "\"key\""])
            case 5:
                let elements = (0..<Int.random(in: 0...4, using: &random)).map { _ in value(depth + 1) }
                return "[" + elements.joined(separator: random.pick([",", ", "])) + "]"
            default:
                var keys = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                    random.pick(["a", "b", "c", "dd", "a-long-key-name"])
                }
                if keys.count > 1, random.chance(0.3) {
                    keys[1] = keys[0]
                } else {
                    // Each key once, in the order drawn (a `Set`'s order changes from run to run).
                    keys = keys.enumerated().filter { keys.firstIndex(of: $0.element) == $0.offset }.map(\.element)
                }
                return "{"
                    + keys.map { "\"\($0)\"" + random.pick([":", " : "]) + value(depth + 1) }.joined(separator: ",")
                    + "}"
            }
        }
        var bytes = Array(value(0).utf8)
        if random.chance(0.5) {
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                let byte = random.pick(
                    [
                        0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF, 0x00, 0x1F, 0x22, 0x5C, 0x5D, 0x7D,
                        0x2C,
                    ] as [UInt8]
                )
                let place = Int.random(in: 0...bytes.count, using: &random)
                if random.chance(0.5), place < bytes.count {
                    bytes[place] = byte
                } else {
                    bytes.insert(byte, at: place)
                }
            }
        }
        return bytes
    }

    /// Whether every key of `value`, at any depth, is one the generator writes (letters and hyphens): a key the
    /// damage turned into an escape or non-ASCII text is one the cursor leaves to the general parser.
    static func keysArePlain(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members):
            members.allSatisfy { key, value in
                key.allSatisfy { $0 == "-" || ("a"..."z").contains($0) } && keysArePlain(value)
            }
        case .array(let elements): elements.allSatisfy(keysArePlain)
        default: true
        }
    }

    /// The cursor never steps over a value the general parser rejects, and steps over — whole — every value it
    /// accepts, but those with a key written with an escape or non-ASCII text (left to the general parser).
    @Test(arguments: SeededGenerator.seeds(40))
    func skippingAcceptsWhatTheGeneralParserAccepts(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<400 {
            let bytes = Self.damagedValue(&random)
            let parsed = bytes.withUnsafeBufferPointer { buffer in try? JSONParser.parse(buffer) }
            bytes.withUnsafeBufferPointer { buffer in
                var cursor = JSONByteCursor(bytes: buffer, names: NameTable())
                let skipped = cursor.skipValue() && cursor.index == buffer.count
                let mustSkip = parsed.map(Self.keysArePlain) ?? false
                #expect(
                    skipped == (parsed != nil) || (!skipped && !mustSkip),
                    "seed \(seed): \(String(decoding: bytes, as: UTF8.self)) \(bytes)"
                )
            }
        }
    }

    /// Values nested deep and wide — near the depth limit counted from an enclosing depth, past the stacks the
    /// cursor keeps, with the same key in an object and in one it holds (allowed) or twice in one object after a
    /// nested one closed (not) — are stepped over whole only when the general parser accepts them, and always
    /// when it does and they fit the cursor's stacks.
    @Test(arguments: SeededGenerator.seeds(20))
    func deepAndWideValuesAreSkippedAsTheGeneralParserJudgesThem(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<60 {
            let levels = random.pick([0, 1, 3, 30, 62, 100, 254, 255, 256, 300, 511, 512])
            let enclosing = random.pick([0, 0, 1, 200, 450, 480, 508, 511])
            let width = random.pick([0, 1, 2, 40, 63, 64, 65])
            var text = ""
            var closers: [String] = []
            for level in 0..<levels {
                if random.chance(0.5) {
                    text += "{\"k\":1,\"k\(level % 3)x\":"
                    closers.append(random.chance(0.1) ? ",\"k\":2}" : ",\"z\":{\"k\":null}}")
                } else {
                    text += "[\"s\","
                    closers.append(",-1.5e3]")
                }
            }
            text += "{" + (0..<width).map { "\"w\($0)\":\($0)" }.joined(separator: ",") + "}"
            text += closers.reversed().joined()
            let bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeBufferPointer { buffer in
                try? JSONParser.parse(buffer, enclosingDepth: enclosing)
            }
            bytes.withUnsafeBufferPointer { buffer in
                var cursor = JSONByteCursor(bytes: buffer, names: NameTable())
                cursor.depth = enclosing
                let skipped = cursor.skipValue() && cursor.index == buffer.count
                let summary = "seed \(seed): \(levels) levels from \(enclosing), \(width) wide"
                if skipped { #expect(parsed != nil, "\(summary)") }
                let fits =
                    levels + 2 <= JSONByteCursor.maximumOpenContainers
                    && levels * 2 + width <= JSONByteCursor.maximumOpenKeys
                    && width <= JSONByteCursor.maximumFastMembers
                if parsed != nil, fits { #expect(skipped, "\(summary)") }
            }
        }
    }
}
