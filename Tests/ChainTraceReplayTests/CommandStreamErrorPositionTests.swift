import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// A stream line that is valid JSON but not a valid command or change is an error at the column of the value at
/// fault, on the first line (general decoder) and on later lines (fast decoder first) alike.
@Suite("Command stream errors name the column")
struct CommandStreamErrorPositionTests {
    @Test(arguments: SeededGenerator.seeds(40))
    func aMemberOfTheWrongTypeIsReportedWhereItIs(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let (member, wrong) = random.pick([
            ("kind", "7"), ("kind", "[1]"), ("id", "true"), ("id", "{}"), ("entry", "3.5"), ("entry", "[]"),
            ("fields", "1"), ("change", "7"), ("handler", "5"),
        ])
        var members = [#""kind":"K""#, #""w":1"#, #""nested":{"a":[1,2]}"#]
        if member == "handler" { members = [#""change":"remove""#] }
        members.shuffle(using: &random)
        members.removeAll { $0.hasPrefix("\"\(member)\"") }
        members.insert(
            "\"\(member)\":\(random.chance(0.5) ? " " : "")\(wrong)",
            at: Int.random(in: 0...members.count, using: &random)
        )
        let bad = "{" + members.joined(separator: random.pick([",", ", "])) + "}"
        let before = (0..<Int.random(in: 0...2, using: &random)).map { _ in #"{"kind":"K","w":1}"# }
        let stream = (before + [bad]).joined(separator: "\n") + "\n"
        let reader = CommandStreamReader(bytes: Array(stream.utf8), name: "s.jsonl", schema: FieldSchema(names: ["w"]))
        do {
            while try reader.next() != nil {}
            Issue.record("seed \(seed): \(bad) was accepted")
        } catch {
            #expect(error.line == before.count + 1, "seed \(seed): \(error)")
            let bytes = Array(bad.utf8)
            #expect(error.column >= 1 && error.column <= bytes.count, "seed \(seed): \(error)")
            let at = String(decoding: bytes[min(bytes.count - 1, max(0, error.column - 1))...], as: UTF8.self)
            #expect(at.hasPrefix(wrong), "seed \(seed): \(bad): column \(error.column) is at \(at)")
        }
    }
}
