import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// A command read from a stream keeps its line and parses its fields once, when first asked for (a rule on a field
/// the reader did not decode into a slot — one a `register` change brought — parsed the whole line again for
/// every rule tested). Differential: on generated streams read as a replay reads them (each command let go before
/// the next, so the reader refills its storage), `fields` asked for once, twice or not at all equals a fresh parse
/// of the line — never a kept parse of an earlier line; and tasks reading one command's fields at once all get
/// them whole.
@Suite("Stream commands parse their fields once", .tags(.concurrent))
struct StreamFieldsParsedOnceTests {
    /// The fields a line holds: its members but kind, id and entry, parsed afresh.
    static func expectedFields(_ line: String) throws -> JSONValue {
        guard case .object(var members) = try JSONParser.parse(line) else { return [:] }
        for key in ["kind", "id", "entry"] { members.removeValue(forKey: key) }
        return .object(members)
    }

    static func stream(_ random: inout SeededGenerator, count: Int) -> [String] {
        (0..<count).map { index in
            var members: [String: JSONValue] = [
                "kind": .string(random.pick(["Tap", "Coin"])), "id": .string("c\(index)"),
            ]
            for name in ["size", "screen", "note", "nested"] where random.chance(0.7) {
                members[name] =
                    random.chance(0.5) ? GeneratedJSON.value(&random) : .string(random.hostileName())
            }
            var writer = JSONWriter()
            writer.write(.object(members))
            return String(decoding: writer.bytes, as: UTF8.self)
        }
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func fieldsAreTheLinesWhateverWasAskedBefore(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let lines = Self.stream(&random, count: Int.random(in: 1...60, using: &random))
        let schema = random.chance(0.5) ? FieldSchema(names: ["size"]) : nil
        let reader = CommandStreamReader(
            bytes: Array((lines.joined(separator: "\n") + "\n").utf8),
            name: "s.jsonl",
            schema: schema
        )
        var index = 0
        while let (_, item) = try reader.next() {
            guard case .command(let command) = item else { continue }
            let expected = try Self.expectedFields(lines[index])
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                #expect(command.fields == expected, "seed \(seed), line \(index + 1)")
            }
            index += 1
        }
        #expect(index == lines.count, "seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(10))
    func tasksReadingOneCommandsFieldsAtOnceGetThemWhole(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let lines = Self.stream(&random, count: 2)
        let reader = CommandStreamReader(
            bytes: Array((lines.joined(separator: "\n") + "\n").utf8),
            name: "s.jsonl",
            schema: nil
        )
        _ = try reader.next()
        guard case .command(let command)? = try reader.next()?.item else {
            Issue.record("seed \(seed): no command")
            return
        }
        let expected = try Self.expectedFields(lines[1])
        let read = await withTaskGroup(of: JSONValue.self) { group in
            for _ in 0..<16 { group.addTask { command.fields } }
            var all: [JSONValue] = []
            for await fields in group { all.append(fields) }
            return all
        }
        #expect(read.count == 16 && read.allSatisfy { $0 == expected }, "seed \(seed)")
    }
}
