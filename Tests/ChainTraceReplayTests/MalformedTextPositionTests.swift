import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// Malformed UTF-8 in a string, or a misspelt `true`, `false` or `null`, is reported where it is and as it is
/// written. Before, a bad byte anywhere in a string was reported at the string's first character ("found 'I'" for
/// `"Ins\xFF"`), and `nul}` as "expected 'null', found 'n'".
@Suite("Malformed text is reported where it is")
struct MalformedTextPositionTests {
    /// Byte sequences that are not UTF-8, one of each way of being wrong.
    static func malformedSequence(_ random: inout SeededGenerator) -> [UInt8] {
        let continuation = { (random: inout SeededGenerator) in UInt8.random(in: 0x80...0xBF, using: &random) }
        switch Int.random(in: 0...7, using: &random) {
        case 0: return [continuation(&random)]  // a continuation byte with nothing before it
        case 1: return [random.pick([0xC0, 0xC1]), continuation(&random)]  // never in UTF-8
        case 2: return [UInt8.random(in: 0xF5...0xFF, using: &random)]
        case 3: return [UInt8.random(in: 0xC2...0xDF, using: &random)]  // cut short
        case 4: return [UInt8.random(in: 0xE1...0xEC, using: &random), continuation(&random)]
        case 5: return [0xF0, UInt8.random(in: 0x90...0xBF, using: &random), continuation(&random)]
        case 6: return [0xE0, UInt8.random(in: 0x80...0x9F, using: &random), continuation(&random)]  // overlong
        default:
            return random.chance(0.5)
                ? [0xED, UInt8.random(in: 0xA0...0xBF, using: &random), continuation(&random)]  // a surrogate
                : [0xF4, UInt8.random(in: 0x90...0xBF, using: &random), continuation(&random), continuation(&random)]
        }
    }

    /// The places in `bytes` (compact JSON text) where a character of a string or member name may start: after
    /// the opening quote, after each character and after each escape.
    static func characterBoundariesInStrings(_ bytes: [UInt8]) -> [Int] {
        var boundaries: [Int] = []
        var index = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if !inString {
                if byte == UInt8(ascii: "\"") {
                    inString = true
                    boundaries.append(index + 1)
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = false
                index += 1
                continue
            case UInt8(ascii: "\\"): index += bytes[index + 1] == UInt8(ascii: "u") ? 6 : 2
            case 0xF0...: index += 4
            case 0xE0...: index += 3
            case 0xC0...: index += 2
            default: index += 1
            }
            boundaries.append(index)
        }
        return boundaries
    }

    /// "byte 0x0F" or "bytes 0xE2 0x82": how the error names the bytes of a sequence, first byte first.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (byte < 0x10 ? "0" : "") + digits
    }

    @Test(arguments: SeededGenerator.seeds(300))
    func malformedUTF8IsReportedAtItsFirstByte(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var writer = JSONWriter()
        // An object, so that there is a member name even when the value has no string.
        writer.write(.object(["k" + GeneratedJSON.string(&random): GeneratedJSON.value(&random)]))
        var bytes = writer.bytes
        let place = random.pick(Self.characterBoundariesInStrings(bytes))
        let sequence = Self.malformedSequence(&random)
        bytes.insert(contentsOf: sequence, at: place)
        let shown = String(decoding: bytes, as: UTF8.self)
        let error = #expect(throws: JSONParseError.self, "seed \(seed): \(shown)") {
            try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in try JSONParser.parse(buffer) }
        }
        #expect(error?.line == 1, "seed \(seed)")
        #expect(error?.column == place + 1, "seed \(seed): \(shown): \(error.map { "\($0)" } ?? "")")
        #expect(error?.expected == "valid UTF-8 in the string", "seed \(seed)")
        let named = error?.found ?? ""
        #expect(
            named.hasPrefix("byte \(Self.hex(sequence[0])) (") || named.hasPrefix("bytes \(Self.hex(sequence[0])) "),
            "seed \(seed): \(named)"
        )

        // The same place with a well-formed character: no error, and the character is read.
        var control = writer.bytes
        let character = random.pick(["é", "€", "😀", "\u{10FFFF}", "\u{FEFF}"])
        control.insert(contentsOf: Array(character.utf8), at: place)
        let value = try control.withUnsafeBufferPointer { buffer throws(JSONParseError) in try JSONParser.parse(buffer)
        }
        #expect(
            Self.texts(in: value).contains { $0.unicodeScalars.contains(character.unicodeScalars.first!) },
            "seed \(seed)"
        )
    }

    /// Every string and member name in `value`.
    static func texts(in value: JSONValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .array(let elements): elements.flatMap { texts(in: $0) }
        case .object(let members): members.flatMap { [$0.key] + texts(in: $0.value) }
        default: []
        }
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func aMisspeltWordIsQuotedAtItsStartAsFarAsItGoes(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let word = random.pick(["true", "false", "null"])
        let kept = Int.random(in: 1..<word.count, using: &random)
        let written = String(word.prefix(kept))
        let (breaker, named): ([UInt8], String) = random.pick([
            (Array("}".utf8), "'}'"), (Array(" ".utf8), "' '"), (Array("x".utf8), "'x'"), ([0xFF], "byte 0xFF"),
            ([], "the end of the input"),
        ])
        let prefix = random.pick([#"{"a":"#, "[1,", "", #"{"a":[null,"#])
        let bytes = Array((prefix + written).utf8) + breaker
        let error = #expect(throws: JSONParseError.self, "seed \(seed)") {
            try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in try JSONParser.parse(buffer) }
        }
        #expect(error?.column == prefix.utf8.count + 1, "seed \(seed): \(error.map { "\($0)" } ?? "")")
        #expect(error?.expected == "'\(word)'", "seed \(seed)")
        #expect(error?.found == "'\(written)' then \(named)", "seed \(seed)")
    }

    /// Through a command stream, where later lines go to the fast decoder first: the same column on any line.
    @Test(arguments: SeededGenerator.seeds(60))
    func aStreamLineWithMalformedUTF8IsReportedAtTheByte(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let good = #"{"kind":"K","w":1,"note":"é ok"}"#
        var bad = Array(#"{"kind":"K","w":1,"note":"été \"x\" ok"}"#.utf8)
        let boundaries = Self.characterBoundariesInStrings(bad)
        let place = random.pick(boundaries)
        bad.insert(contentsOf: Self.malformedSequence(&random), at: place)
        let before = Int.random(in: 0...3, using: &random)
        let stream = Array(String(repeating: good + "\n", count: before).utf8) + bad + [UInt8(ascii: "\n")]
        let reader = CommandStreamReader(bytes: stream, name: "s.jsonl", schema: FieldSchema(names: ["w", "note"]))
        do {
            while try reader.next() != nil {}
            Issue.record("seed \(seed): the malformed line was accepted")
        } catch {
            #expect(error.line == before + 1, "seed \(seed): \(error)")
            #expect(error.column == place + 1, "seed \(seed): \(error)")
            #expect(error.expected == "valid UTF-8 in the string", "seed \(seed): \(error)")
        }
    }
}
