import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// The strict JSON parser against generated documents: what the writer writes reads back to the same value,
/// and on documents both accept it agrees with Foundation's `JSONSerialization` (an independent parser) on every
/// string, number and structure; cut short anywhere, a document is an error inside it, never a crash or a value.
@Suite("JSON parser, generated documents")
struct JSONParserPropertyTests {
    static func string(_ random: inout SeededGenerator) -> String { GeneratedJSON.string(&random) }

    static func value(_ random: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        GeneratedJSON.value(&random, depth: depth)
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var writer = JSONWriter()
        writer.write(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Whether a string or member name in `value` holds U+0000, which Foundation's parser refuses.
    static func holdsNUL(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): text.unicodeScalars.contains("\u{0}")
        case .array(let elements): elements.contains(where: holdsNUL)
        case .object(let members): members.contains { $0.key.unicodeScalars.contains("\u{0}") || holdsNUL($0.value) }
        default: false
        }
    }

    /// Whether Foundation's reading of a document is the same as ours.
    static func same(_ ours: JSONValue, _ theirs: Any) -> Bool {
        switch ours {
        case .null: return theirs is NSNull
        case .bool(let flag): return (theirs as? Bool) == flag
        case .integer(let number): return (theirs as? NSNumber)?.int64Value == number
        case .double(let number):
            guard let other = (theirs as? NSNumber)?.doubleValue else { return false }
            return abs(other - number) <= abs(number) * 1e-15
        case .string(let text): return (theirs as? String) == text
        case .array(let elements):
            guard let others = theirs as? [Any], others.count == elements.count else { return false }
            return zip(elements, others).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let others = theirs as? [String: Any], others.count == members.count else { return false }
            return members.allSatisfy { key, value in others[key].map { same(value, $0) } ?? false }
        }
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func writtenDocumentsReadBackAndAgreeWithFoundation(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let value = Self.value(&random)
        var writer = JSONWriter()
        writer.write(value)
        let bytes = writer.bytes
        let read = try JSONDocument(bytes: bytes, file: "doc.json").root
        #expect(read == value, "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
        // Foundation reads the same document the same way (where its own rules accept it: it refuses NUL and
        // lone surrogates, which JSON allows escaped).
        let theirs = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        if let theirs {
            #expect(Self.same(read, theirs), "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
        } else {
            #expect(Self.holdsNUL(value), "seed \(seed): Foundation refused \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func aDocumentCutShortIsAnErrorInsideIt(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let value = JSONValue.object(["k": Self.value(&random), "z": .array([Self.value(&random)])])
        var writer = JSONWriter()
        writer.write(value)
        let bytes = writer.bytes
        for cut in Set((0..<8).map { _ in Int.random(in: 0..<bytes.count, using: &random) }) {
            let prefix = Array(bytes[..<cut])
            do {
                _ = try JSONDocument(bytes: prefix, file: "cut.json")
                Issue.record("seed \(seed): a document cut at \(cut) of \(bytes.count) read as a value")
            } catch {
                #expect(
                    error.line == 1 && error.column >= 1 && error.column <= cut + 1,
                    "seed \(seed), cut \(cut): \(error)"
                )
            }
        }
    }
}
