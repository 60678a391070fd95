import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// Line numbers, which every error and every replayed path points with: in logs and streams with blank lines,
/// whitespace-only lines (a stray carriage return included: it is JSON whitespace, so such a line is blank, not an
/// error) and CRLF scattered between, each trace's and command's reported line is the line it is on; an error
/// inside a JSON text given a first line number counts from it.
@Suite("Line numbers")
struct LineNumberTests {
    static func filler(_ random: inout SeededGenerator) -> [String] {
        (0..<Int.random(in: 0...2, using: &random)).map { _ in random.pick(["", "  ", "\t", " \r"]) }
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func everyItemReportsTheLineItIsOn(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var lines = [String(decoding: TraceLogFormat.header, as: UTF8.self)]
        var traceLines: [Int] = []
        for index in 0..<Int.random(in: 1...10, using: &random) {
            lines += Self.filler(&random)
            let trace = Trace(
                id: UInt64(index),
                commandKind: "K",
                commandID: "c\(index)",
                payload: ["n": .integer(Int64(index))],
                entry: "A",
                chain: "c",
                hops: [],
                outcome: .fellOffTheEnd,
                duration: 0
            )
            lines.append(String(decoding: TraceLogFormat.encode(trace), as: UTF8.self))
            traceLines.append(lines.count)
        }
        let bytes = Array((lines.joined(separator: random.chance(0.5) ? "\n" : "\r\n") + "\n").utf8)
        let reader = TraceLogReader(bytes: bytes)
        var reported: [Int] = []
        while try reader.next() != nil { reported.append(reader.line) }
        #expect(reported == traceLines, "seed \(seed): \(reported) vs \(traceLines)")

        // The same file as a command stream: each command at its line.
        let stream = CommandStreamReader(bytes: bytes, name: "s")
        var commandLines: [Int] = []
        while let (line, _) = try stream.next() { commandLines.append(line) }
        #expect(commandLines == traceLines, "seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func errorsCountFromTheFirstLineGiven(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let first = Int.random(in: 1...10_000, using: &random)
        let breaks = Int.random(in: 0...5, using: &random)
        let text = "{\"a\":" + String(repeating: "\n", count: breaks) + "}"
        do {
            _ = try JSONDocument(bytes: Array(text.utf8), file: "f.json", firstLine: first)
            Issue.record("seed \(seed): accepted \(text.debugDescription)")
        } catch {
            #expect(error.line == first + breaks && error.column == (breaks == 0 ? 6 : 1), "seed \(seed): \(error)")
        }
    }
}
