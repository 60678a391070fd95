import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
@_spi(Benchmarks) import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// A trace log's commands that entered at a handler the definition lacks (added by a change made while recording)
/// go in at the chain's entry, counted in `ReplayReport.commandsWithUnknownEntry` — reading ahead or in line, the
/// same report: the same paths as the same commands sent with no entry.
@Suite("Replayed commands whose recorded entry the definition lacks")
struct ReplayUnknownEntryTests {
    static let definition =
        #"{"chain":"c","handlers":[{"name":"A","accepts":{"kind":["K"]},"next":"B"},{"name":"B","accepts":{"field":"n","max":5}}]}"#

    @Test(arguments: SeededGenerator.seeds(8))
    func theyGoInAtTheChainsEntryReadingAheadOrInLine(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var bytes = TraceLogFormat.header + [0x0A]
        var unknown = 0
        let count = Int.random(in: 1...3_000, using: &random)
        for index in 0..<count {
            let ghost = random.chance(0.3)
            if ghost { unknown += 1 }
            let entry = ghost ? "Ghost" : "A"
            let trace = Trace(
                id: UInt64(index),
                commandKind: random.pick(["K", "L"]),
                commandID: "c\(index)",
                payload: ["n": .integer(Int64.random(in: 0...9, using: &random))],
                entry: entry,
                chain: "c",
                hops: [Hop(handler: entry, position: 0, decision: .accepted, inclusiveDuration: 1, selfDuration: 1)],
                outcome: .accepted(by: entry),
                duration: 1
            )
            bytes += TraceLogFormat.encode(trace) + [0x0A]
        }
        var reports: [[String]] = []
        for readsAhead in [true, false] {
            var options = ReplaySession.Options()
            options.readsInLine = !readsAhead
            options.keptPaths = .max
            options.readAheadBatchSize = Int.random(in: 1...64, using: &random)
            options.readAheadBatchBytes = nil
            let session = try ReplaySession(
                definition: try ChainDefinition.load(bytes: Array(Self.definition.utf8), file: "c.json"),
                options: options
            )
            let report = try session.run(session.openStream(bytes: bytes, name: "ghost.jsonl"))
            #expect(report.commands == count, "seed \(seed), ahead \(readsAhead)")
            #expect(report.commandsWithUnknownEntry == unknown, "seed \(seed), ahead \(readsAhead)")
            reports.append(report.paths.map { "\($0.line) \($0.trace.entry) \($0.trace.path) \($0.trace.outcome)" })
        }
        #expect(reports[0] == reports[1], "seed \(seed)")
        #expect(!reports[0].contains { $0.contains(" Ghost ") }, "seed \(seed)")
    }
}
