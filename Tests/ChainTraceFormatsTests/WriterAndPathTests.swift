import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// The writer's object form and field paths, on generated values: objects are written with their keys in sorted
/// order, and what is read back writes to the very same bytes (so a trace is always the same line); a dotted
/// field path names the members it walks through, and reads exactly the value a walk by hand finds; the lint's
/// reasoning about `kind` and `in` rules is exact where it can be — a list of kinds implies another exactly when
/// it is a subset of it.
@Suite("Writer order, field paths, kind implication")
struct WriterAndPathTests {
    @Test(arguments: SeededGenerator.seeds(60))
    func objectsAreWrittenWithSortedKeysAndStableBytes(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let value = JSONParserPropertyTests.value(&random)
        var writer = JSONWriter()
        writer.write(value)
        var again = JSONWriter()
        again.write(try JSONDocument(bytes: writer.bytes, file: "v.json").root)
        #expect(again.bytes == writer.bytes, "seed \(seed): writing what was read gives other bytes")
        // Every object's keys appear in sorted order in the text: check the first object's directly.
        if case .object(let members) = value, members.count > 1 {
            let text = String(decoding: writer.bytes, as: UTF8.self)
            let sorted = members.keys.sorted()
            let positions = sorted.compactMap { key -> String.Index? in
                var keyWriter = JSONWriter()
                keyWriter.write(key)
                return text.range(of: String(decoding: keyWriter.bytes, as: UTF8.self) + ":")?.lowerBound
            }
            if positions.count == sorted.count { #expect(positions == positions.sorted(), "seed \(seed)") }
        }
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func fieldPathsReadWhatAWalkByHandFinds(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let value = JSONValue.object(["a": .object(["b": JSONParserPropertyTests.value(&random), "c": .object(["d": .integer(7)])]),
                                      "e": .array([.object(["f": .integer(1)])]), "g": .string("x")])
        for text in ["a", "a.b", "a.c", "a.c.d", "a.c.d.e", "e", "e.0", "e.f", "g", "g.h", "missing", "a.missing"] {
            let path = FieldPath(text)
            #expect(path.components == text.split(separator: ".").map(String.init), "seed \(seed): \(text)")
            var walked: JSONValue? = value
            for step in path.components {
                if case .object(let members)? = walked { walked = members[step] } else { walked = nil }
            }
            #expect(path.value(in: value) == walked, "seed \(seed): \(text)")
        }
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func kindListsImplyExactlyTheirSupersets(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let all = ["Tap", "Swipe", "Pan", "Pinch"]
        let first = Array(all.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))
        let second = Array(all.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))
        #expect(Rule.kind(first).implies(.kind(second)) == Set(first).isSubset(of: Set(second)), "seed \(seed): \(first) ⇒ \(second)")
        let values = first.map { JSONValue.string($0) }
        let field = FieldPath("kind")
        let one = random.pick(values)
        #expect(Rule.equals(field, one).implies(.oneOf(field, values)), "seed \(seed)")
    }
}
