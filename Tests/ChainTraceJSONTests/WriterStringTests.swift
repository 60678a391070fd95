import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// Strings through the JSON writer — any scalar: controls, quotes, backslashes, U+2028/2029, the BOM,
/// noncharacters, astral characters — come out as JSON text that Foundation's parser reads to the very same
/// string (it drops a raw U+FEFF at a string's start or after an escape, so that one is escaped), that holds no
/// raw control character (so one trace stays one log line, whatever a name holds), and that the strict parser
/// reads back too.
@Suite("The writer's strings")
struct WriterStringTests {
    static func string(_ random: inout SeededGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...24, using: &random) {
            let value: UInt32 =
                switch Int.random(in: 0..<6, using: &random) {
                case 0: UInt32.random(in: 0...0x1F, using: &random)
                case 1:
                    random.pick([0x22, 0x5C, 0x2F, 0x7F, 0x85, 0xA0, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF, 0x10FFFF])
                case 2: UInt32.random(in: 0x20...0x7E, using: &random)
                case 3: UInt32.random(in: 0x80...0xD7FF, using: &random)
                case 4: UInt32.random(in: 0xE000...0xFFFF, using: &random)
                default: UInt32.random(in: 0x10000...0x10FFFF, using: &random)
                }
            scalars.append(Unicode.Scalar(value) ?? "x")
        }
        return String(scalars)
    }

    @Test(arguments: SeededGenerator.seeds(200))
    func everyStringWritesAsJSONThatReadsBackExactly(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let text = Self.string(&random)
        var writer = JSONWriter()
        writer.write(text)
        let bytes = writer.bytes
        #expect(!bytes.contains { $0 < 0x20 }, "seed \(seed): a raw control byte")
        #expect(
            !String(decoding: bytes, as: UTF8.self).unicodeScalars.contains { $0.value == 0xFEFF },
            "seed \(seed): a raw U+FEFF"
        )
        #expect(try JSONDocument(bytes: bytes, file: "s.json").root == .string(text), "seed \(seed)")
        if !text.unicodeScalars.contains("\u{0}") {
            let foundation =
                try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) as? String
            #expect(foundation.map { Array($0.unicodeScalars) } == Array(text.unicodeScalars), "seed \(seed)")
        }
        // As a member name too.
        var object = JSONWriter()
        object.write(JSONValue.object([text: .integer(1)]))
        #expect(
            try JSONDocument(bytes: object.bytes, file: "o.json").root == .object([text: .integer(1)]),
            "seed \(seed)"
        )
    }
}
