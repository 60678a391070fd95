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
        let value = GeneratedJSON.value(&random)
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

    /// A path's steps walked by hand: a member of an object, or an element of an array by a step that is the
    /// decimal text of its index (as `String(index)` writes it: no sign, no leading zero).
    static func walk(_ value: JSONValue, _ steps: [String]) -> JSONValue? {
        var walked: JSONValue? = value
        for step in steps {
            switch walked {
            case .object(let members)?: walked = members[step]
            case .array(let elements)?:
                guard let index = Int(step), String(index) == step, elements.indices.contains(index) else { return nil }
                walked = elements[index]
            default: return nil
            }
        }
        return walked
    }

    /// Steps that lead somewhere in `value` (a member it has, an index within an array), now and then one that
    /// does not: a member it lacks, an index spelt another way (`01`, `+1`, `-1`, `1e0`) or past the end.
    static func steps(into value: JSONValue, _ random: inout SeededGenerator) -> [String] {
        var steps: [String] = []
        var current = value
        while random.chance(0.8) {
            if random.chance(0.15) {
                steps.append(
                    random.pick(["missing", "01", "+1", "-1", "1e0", " 0", "99999999999999999999999", "0x1", "٣"])
                )
                break
            }
            switch current {
            case .object(let members) where !members.isEmpty:
                let key = random.pick(Array(members.keys))
                steps.append(key)
                current = members[key]!
            case .array(let elements) where !elements.isEmpty:
                let index = Int.random(in: 0...elements.count, using: &random)  // sometimes one past the end
                steps.append(String(index))
                guard index < elements.count else { return steps }
                current = elements[index]
            default:
                if random.chance(0.5) { steps.append(String(Int.random(in: 0...3, using: &random))) }
                return steps
            }
        }
        return steps
    }

    @Test(arguments: SeededGenerator.seeds(200))
    func fieldPathsReadWhatAWalkByHandFinds(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let value = JSONValue.object([
            "a": .object(["b": GeneratedJSON.value(&random), "c": .object(["d": .integer(7)])]),
            "e": .array([.object(["f": .integer(1)]), .array([.string("g0"), .object(["0": .string("zero")])])]),
            "g": .string("x"), "h": GeneratedJSON.value(&random),
        ])
        for _ in 0..<30 {
            let steps = Self.steps(into: value, &random)
            guard !steps.isEmpty, !steps.contains(where: { $0.isEmpty || $0.contains(".") }) else { continue }
            let text = steps.joined(separator: ".")
            let path = FieldPath(text)
            #expect(path.components == steps, "seed \(seed): \(text)")
            #expect(path.value(in: value) == Self.walk(value, steps), "seed \(seed): \(text)")
        }
        // A step into an array by index, and into an object by a member named like one.
        #expect(FieldPath("e.1.0").value(in: value) == .string("g0"))
        #expect(FieldPath("e.1.1.0").value(in: value) == .string("zero"))
        #expect(FieldPath("e.01").value(in: value) == nil && FieldPath("e.2").value(in: value) == nil)
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func kindListsImplyExactlyTheirSupersets(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let all = ["Tap", "Swipe", "Pan", "Pinch"]
        let first = Array(all.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))
        let second = Array(all.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))
        #expect(
            Rule.kind(first).implies(.kind(second)) == Set(first).isSubset(of: Set(second)),
            "seed \(seed): \(first) ⇒ \(second)"
        )
        let values = first.map { JSONValue.string($0) }
        let field = FieldPath("kind")
        let one = random.pick(values)
        #expect(Rule.equals(field, one).implies(.oneOf(field, values)), "seed \(seed)")
    }
}
