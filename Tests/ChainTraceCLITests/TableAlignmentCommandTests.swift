import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// `stats` tables line up on a terminal whatever the handler names are written in — CJK (two columns a
/// character), emoji, combining accents (none), Latin: in every row the numbers end in the same terminal column.
@Suite("Tables line up on a terminal")
struct TableAlignmentCommandTests {
    /// Terminal columns, counted here on their own: wide CJK and emoji two, combining marks none.
    static func columns(_ text: Substring) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            if scalar.properties.generalCategory == .nonspacingMark { return total }
            switch scalar.value {
            case 0x4E00...0x9FFF, 0x3041...0x30FF, 0xAC00...0xD7A3, 0x1F300...0x1F64F, 0x1F900...0x1F9FF:
                return total + 2
            default: return total + 1
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(8))
    func numbersEndInTheSameColumnInEveryRow(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let pieces = ["中", "文", "名", "前", "한", "글", "🚀", "🧪", "e\u{301}", "a", "Z", "ß", "ä", "カ"]
        let names = (0..<Int.random(in: 2...6, using: &random)).map { index in
            (0..<Int.random(in: 1...7, using: &random)).map { _ in random.pick(pieces) }.joined()
                + "_\(Character(Unicode.Scalar(UInt8(65 + index))))"
        }
        let traces = (0..<10).map { id in
            let hops = names.enumerated().map { position, name in
                Hop(
                    handler: name,
                    position: position,
                    decision: position == names.count - 1 ? .accepted : .passed,
                    inclusiveDuration: UInt64.random(in: 1...99_999_999, using: &random),
                    selfDuration: UInt64.random(in: 1...99_999_999, using: &random)
                )
            }
            return Trace(
                id: UInt64(id),
                commandKind: "K",
                entry: names[0],
                chain: "wide",
                hops: hops,
                outcome: .accepted(by: names.last!),
                duration: 1
            )
        }
        let log = try CLI.write(
            TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] },
            named: "wide.jsonl",
            in: try CLI.temporaryDirectory()
        )
        let output = try CLI.run("stats", log)
        #expect(output.status == 0, "seed \(seed): \(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("  handler") }) else {
            Issue.record("seed \(seed): no table in \(output.standardOutput)")
            return
        }
        let table = lines[header...].prefix { !$0.isEmpty }
        #expect(table.count == names.count + 1, "seed \(seed)")
        // Where the second column ends: after the name (no spaces in it), its padding, and the right-aligned count.
        let ends = table.map { line -> Int in
            let body = line.dropFirst(2)
            guard let nameEnd = body.firstIndex(of: " ") else { return -1 }
            let rest = body[nameEnd...].drop { $0 == " " }
            let count = rest.prefix { $0 != " " }
            return 2 + Self.columns(body[..<nameEnd]) + (body[nameEnd...].count - rest.count) + count.count
        }
        #expect(
            Set(ends).count == 1,
            "seed \(seed): the counts end at columns \(ends)\n\(table.joined(separator: "\n"))"
        )
    }
}
