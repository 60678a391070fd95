import ChainTrace
import ChainTraceFormats
import ChainTraceTestSupport
import Testing

/// A trace log cut at any byte — as a writer that died leaves it: cut inside its last line, every complete trace
/// before it reads and the cut line is reported as a torn tail (its line and size), never as a trace or an
/// error; cut just after a newline, or just before one, nothing is torn.
@Suite("Logs cut anywhere")
struct TornTailPropertyTests {
    static func traces(_ random: inout SeededGenerator) -> [Trace] {
        (0..<Int.random(in: 1...8, using: &random)).map { index in
            Trace(id: UInt64(index), commandKind: "K", commandID: "c\(index)", payload: ["n": .integer(Int64(index))], entry: "A",
                  chain: "c", hops: [Hop(handler: "A", position: 0, decision: .accepted, reason: random.hostileName(), inclusiveDuration: 2, selfDuration: 2)],
                  outcome: .accepted(by: "A"), duration: 2)
        }
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func everyCompleteTraceReadsAndTheCutLineIsReportedTorn(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = Self.traces(&random)
        let lines = traces.map(TraceLogFormat.encode)
        let whole = TraceLogFormat.header + [0x0A] + lines.flatMap { $0 + [0x0A] }
        // Cut somewhere after the header: inside a line, or right after a newline.
        let cut = Int.random(in: (TraceLogFormat.header.count + 1)...whole.count, using: &random)
        let bytes = Array(whole[..<cut])
        let log = try TraceLogReader(bytes: bytes, name: "cut.jsonl").readAll()

        // How many lines the cut left whole, and how many bytes of the next one.
        var complete = 0
        var offset = TraceLogFormat.header.count + 1
        while complete < lines.count, offset + lines[complete].count + 1 <= cut {
            offset += lines[complete].count + 1
            complete += 1
        }
        let leftover = cut - offset
        if leftover == 0 {
            #expect(log.traces == Array(traces.prefix(complete)), "seed \(seed): cut at \(cut)")
            #expect(log.tornTail == nil, "seed \(seed)")
        } else if leftover == lines[complete].count {
            // The line is all there but its newline: it reads like any other last line.
            #expect(log.traces == Array(traces.prefix(complete + 1)), "seed \(seed): cut at \(cut)")
            #expect(log.tornTail == nil, "seed \(seed)")
        } else {
            #expect(log.traces == Array(traces.prefix(complete)), "seed \(seed): cut at \(cut), \(log.traces.count) read, \(complete) whole")
            #expect(log.tornTail?.line == complete + 2, "seed \(seed): \(String(describing: log.tornTail))")
            #expect(log.tornTail?.byteCount == leftover, "seed \(seed)")
        }
    }
}
