import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// The two ways a stream line may give a command's fields — beside `kind`, `id` and `entry`, or inside `fields` —
/// read as the same command, on the first line and on later ones (the fast decoder); an integer id reads as its
/// digits and a `null` id or entry as none; a line mixing `fields` with other members is an error at `fields`.
@Suite("Command line forms")
struct CommandLineFormsTests {
    static func read(_ lines: [String]) -> [JSONCommand?] {
        let reader = CommandStreamReader(
            bytes: Array((lines.joined(separator: "\n") + "\n").utf8),
            name: "s.jsonl",
            schema: FieldSchema(names: ["size", "weight"])
        )
        var result: [JSONCommand?] = []
        while true {
            do {
                guard let (_, item) = try reader.next() else { break }
                if case .command(let command) = item { result.append(command) } else { result.append(nil) }
            } catch {
                result.append(nil)
            }
        }
        return result
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func flatAndNestedFieldsReadAsTheSameCommand(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var fields: [String: JSONValue] = [:]
        for name in ["size", "weight", "card", "note"] where random.chance(0.6) {
            fields[name] = random.pick([
                .string("M"), .integer(Int64.random(in: -99...99, using: &random)), .double(2.5), .null,
                .object(["type": .string("visa")]), .array([.bool(true)]),
            ])
        }
        var head: [String: JSONValue] = ["kind": .string(random.pick(["Tap", "Coin"]))]
        let idForm = Int.random(in: 0..<4, using: &random)
        switch idForm {
        case 0: head["id"] = .string("c7")
        case 1: head["id"] = .integer(7)
        case 2: head["id"] = .null
        default: break
        }
        if random.chance(0.3) { head["entry"] = random.chance(0.5) ? .string("Cell") : .null }
        let flat = CLILine.text(.object(head.merging(fields) { first, _ in first }))
        let nested = CLILine.text(.object(head.merging(["fields": .object(fields)]) { first, _ in first }))
        let warmUp = CLILine.text(.object(["kind": .string("Warm"), "size": .string("S")]))
        // First line (general decoder) and third line (fast decoder, keys remembered), each form.
        let commands = Self.read([flat, nested, warmUp, flat, nested])
        guard commands.count == 5, let first = commands[0] else {
            Issue.record("seed \(seed): \(commands)")
            return
        }
        for (index, command) in commands.enumerated() where index != 2 {
            #expect(
                command?.kind == first.kind && command?.id == first.id && command?.entry == first.entry,
                "seed \(seed): line \(index + 1)"
            )
            #expect(
                command?.fields == .object(fields),
                "seed \(seed): line \(index + 1): \(String(describing: command?.fields))"
            )
        }
        #expect(first.id == (idForm == 0 || idForm == 1 ? (idForm == 0 ? "c7" : "7") : nil), "seed \(seed)")
        #expect(first.entry == head["entry"]?.stringValue, "seed \(seed)")
    }

    @Test func fieldsBesideOtherMembersIsAnErrorAtFields() throws {
        let line = #"{"kind":"K","size":"M","fields":{"weight":2}}"#
        let reader = CommandStreamReader(bytes: Array((line + "\n").utf8), name: "s.jsonl")
        let error = try #require(throws: FormatError.self) { _ = try reader.next() }
        #expect(error.column == 33 && error.found.contains("\"size\" beside it"), "\(error)")
    }
}
