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
        let generated = try MultiChainLog(seed: seed)
        let (traces, chosen, log, alone) = (generated.traces, generated.chosen, generated.all, generated.alone)
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
