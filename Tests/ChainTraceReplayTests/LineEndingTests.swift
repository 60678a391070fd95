import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// Files written on Windows, or by tools that mix line endings: a command stream or trace log with `\r\n` line
/// ends — on every line, or some, with blank lines between — reads exactly like the same file with `\n`, on both
/// decoders; line numbers in errors count the same.
@Suite("Line endings")
struct LineEndingTests {
    enum Reading: Equatable {
        case command(line: Int, kind: String, id: String?, fields: JSONValue)
        case other(line: Int)
        case error(line: Int, column: Int, expected: String)
    }

    static func readings(_ bytes: [UInt8]) -> [Reading] {
        let reader = CommandStreamReader(bytes: bytes, name: "s.jsonl", schema: FieldSchema(names: ["w"]))
        var out: [Reading] = []
        while out.count < 1_000 {
            do {
                guard let (line, item) = try reader.next() else { break }
                if case .command(let command) = item {
                    out.append(.command(line: line, kind: command.kind, id: command.id, fields: command.fields))
                } else {
                    out.append(.other(line: line))
                }
            } catch {
                out.append(.error(line: error.line, column: error.column, expected: error.expected))
            }
        }
        return out
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func crlfReadsExactlyLikeLF(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var lines: [String] = []
        for index in 0..<Int.random(in: 1...15, using: &random) {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: lines.append("")
            case 1: lines.append(#"{"kind":"K","w":"#)  // a bad line
            default: lines.append(#"{"kind":"K\#(index % 3)","id":"c\#(index)","w":\#(index),"note":"a\tb"}"#)
            }
        }
        let lf = Array((lines.joined(separator: "\n") + "\n").utf8)
        let crlf = Array(lines.map { $0 + (random.chance(0.7) ? "\r\n" : "\n") }.joined().utf8)
        #expect(Self.readings(crlf) == Self.readings(lf), "seed \(seed)")

        // A trace log likewise.
        let traces = (0..<Int.random(in: 1...6, using: &random)).map { index in
            Trace(
                id: UInt64(index),
                commandKind: "K",
                entry: "A",
                chain: "c",
                hops: [Hop(handler: "A", position: 0, decision: .accepted, inclusiveDuration: 1, selfDuration: 1)],
                outcome: .accepted(by: "A"),
                duration: 1
            )
        }
        let logLines = [TraceLogFormat.header] + traces.map(TraceLogFormat.encode)
        let logLF: [UInt8] = logLines.flatMap { line -> [UInt8] in line + [0x0A] }
        var logCRLF: [UInt8] = []
        for line in logLines { logCRLF += line + (random.chance(0.7) ? [0x0D, 0x0A] : [0x0A]) }
        #expect(
            try TraceLogReader(bytes: logCRLF).readAll().traces == TraceLogReader(bytes: logLF).readAll().traces,
            "seed \(seed)"
        )
    }
}
