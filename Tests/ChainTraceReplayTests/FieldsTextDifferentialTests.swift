import ChainTrace
import ChainTraceDefinitions
import ChainTraceFastPath
import ChainTraceFiles
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// A command's fields kept as its line's text (how a replay logs payloads) mean exactly the fields parsed into a
/// value: on generated lines — keys in any order, escapes, every kind of number, nested values — the text, parsed,
/// is `fields`, and a trace given the text as its payload says so.
@Suite("Fields as text against fields as a value")
struct FieldsTextDifferentialTests {
    @Test(arguments: SeededGenerator.seeds(60))
    func theTextParsesToTheFields(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        // Now and then with white space inside and around the braces, which the text must not take for a member.
        let lines = (0..<40).map { _ in
            let line = StreamDecoderDifferentialTests.line(&random)
            guard random.chance(0.3) else { return line }
            return random.pick([" ", "\t", ""]) + "{" + random.pick([" ", "\t ", ""]) + line.dropFirst().dropLast()
                + random.pick([" ", " \t", ""]) + "}" + random.pick([" ", ""])
        }
        // Behind a first line, so that the rest go through the fast decoder, which keeps fields in the line.
        let reader = CommandStreamReader(
            bytes: Array((#"{"kind":"First"}"# + "\n" + lines.joined(separator: "\n") + "\n").utf8)
        )
        var checked = 0
        while true {
            let next: (line: Int, item: CommandStreamReader.Item)?
            do { next = try reader.next() } catch { continue }
            guard let next else { break }
            guard case .command(let command) = next.item else { continue }
            guard let text = command.fieldsText(keepingID: random.chance(0.5)).payload else { continue }
            #expect(
                text.value == command.fields,
                "seed \(seed) line \(next.line): \(String(decoding: text.text ?? [], as: UTF8.self))"
            )
            // What the log writer copies, read in place, is the same text.
            #expect(
                text.withKeptText({ Array($0) }) != nil && text.withKeptText({ Array($0) }) == text.text,
                "seed \(seed) line \(next.line)"
            )
            var trace = Trace(
                id: 1,
                commandKind: command.kind,
                entry: "A",
                chain: "c",
                hops: [],
                outcome: .fellOffTheEnd,
                duration: 0
            )
            trace.attach(text)
            #expect(trace.payload == command.fields, "seed \(seed)")
            checked += 1
        }
        #expect(checked > 0, "seed \(seed): no line kept its fields as text")
    }
}
