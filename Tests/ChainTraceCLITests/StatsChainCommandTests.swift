import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// `stats --chain NAME` on a log holding several chains whose handlers share names (a side call into an audit
/// chain, say): its table is exactly the table of a log of that chain's traces alone; without it, the text says
/// that one table adds the chains up.
@Suite("stats --chain")
struct StatsChainCommandTests {
    @Test(arguments: SeededGenerator.seeds(5))
    func oneChainsTableIsThatOfItsTracesAlone(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let chains = ["orders", "audit", "metrics"].prefix(Int.random(in: 2...3, using: &random))
        let traces = (0..<Int.random(in: 5...60, using: &random)).map { index in
            let path = Array(["Logger", "Check", "Store"].prefix(Int.random(in: 1...3, using: &random)))
            let hops = path.enumerated().map { position, name in
                Hop(
                    handler: name,
                    position: position,
                    decision: position == path.count - 1 ? .accepted : .passed,
                    inclusiveDuration: UInt64.random(in: 100...90_000, using: &random),
                    selfDuration: UInt64.random(in: 100...90_000, using: &random)
                )
            }
            return Trace(
                id: UInt64(index),
                commandKind: "K",
                commandID: "c\(index)",
                entry: path[0],
                chain: random.pick(Array(chains)),
                hops: hops,
                outcome: .accepted(by: path.last!),
                duration: 1
            )
        }
        let directory = try CLI.temporaryDirectory()
        func write(_ traces: [Trace], _ name: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            var options = TraceLogSink.Options()
            options.writesInBackground = false
            let sink = try TraceLogSink(path: path, options: options)
            for trace in traces { sink.record(trace) }
            try sink.close()
            return path
        }
        let log = try write(traces, "all.jsonl")
        let chosen = random.pick(Array(chains))
        let alone = try write(traces.filter { $0.chain == chosen }, "alone.jsonl")
        let filtered = try CLI.run("stats", log, "--chain", chosen, "--format", "json", "--threads", "2")
        let expected = try CLI.run("stats", alone, "--format", "json")
        #expect(filtered.status == 0, "seed \(seed): \(filtered.standardError)")
        let (found, wanted) = (try CLI.json(filtered), try CLI.json(expected))
        #expect(
            (found["handlers"] as? NSArray)?.isEqual(to: wanted["handlers"] as? [Any] ?? []) == true,
            "seed \(seed)"
        )
        #expect(found["commands"] as? Int == traces.filter { $0.chain == chosen }.count, "seed \(seed)")

        let text = try CLI.run("stats", log)
        let used = Set(traces.map(\.chain)).count
        #expect(
            text.standardOutput.contains("\(used) chains in one table") == (used > 1),
            "seed \(seed): \(text.standardOutput)"
        )
        let none = try CLI.run("stats", log, "--chain", "nowhere")
        #expect(none.standardError.contains("no trace of nowhere is in the log"), "seed \(seed): \(none.standardError)")
    }
}
