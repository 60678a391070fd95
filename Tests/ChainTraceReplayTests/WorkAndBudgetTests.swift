import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceReplay
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// The `work` and `budget` members of generated definitions, in real replays: a handler with `work` takes at
/// least that long on every command it sees (its recorded self time is never less), and one whose work exceeds its
/// budget is flagged slow by the rule `replay` applies, with the budget named among the reasons.
@Suite("Work and budgets")
struct WorkAndBudgetTests {
    @Test(arguments: SeededGenerator.seeds(8))
    func workIsSpentAndBudgetsFlagWhatExceedsThem(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let workMicroseconds = Int.random(in: 20...200, using: &random)
        let budgetMicroseconds = max(1, workMicroseconds / Int.random(in: 2...10, using: &random))
        let text =
            #"{"chain":"w","handlers":[{"name":"Busy","work":"\#(workMicroseconds)us","budget":"\#(budgetMicroseconds)us","next":"Idle"},{"name":"Idle","accepts":{"kind":["K"]}}]}"#
        let definition = try ChainDefinition.load(bytes: Array(text.utf8), file: "w.json")
        #expect(definition.handler(named: "Busy")?.work == Int64(workMicroseconds) * 1_000, "seed \(seed)")
        var options = ReplaySession.Options()
        options.keptPaths = 20
        let session = try ReplaySession(definition: definition, options: options)
        let lines = (0..<20).map { #"{"kind":"K","id":"c\#($0)"}"# }.joined(separator: "\n") + "\n"
        let report = try session.run(CommandStreamReader(bytes: Array(lines.utf8), schema: session.schema))
        let busy = report.paths.flatMap(\.trace.hops).filter { $0.handler == "Busy" }
        #expect(busy.count == 20, "seed \(seed)")
        // Never less than the work asked for (allowing the clock's rounding of a nanosecond).
        #expect(
            busy.allSatisfy { $0.selfDuration + 1 >= UInt64(workMicroseconds) * 1_000 },
            "seed \(seed): \(busy.map(\.selfDuration).min() ?? 0) ns < \(workMicroseconds) µs"
        )
        let flags = SlowHandlerRule.standard.flags(in: report.profile)
        let flag = flags.first { $0.handler == "Busy" }
        #expect(flag != nil, "seed \(seed): a handler over its budget was not flagged")
        #expect(flag?.reasons.contains { $0.contains("budget") } == true, "seed \(seed): \(flag?.reasons ?? [])")
        #expect(
            report.profile.statistics(of: "Busy")?.budgetNanoseconds == Int64(budgetMicroseconds) * 1_000,
            "seed \(seed)"
        )
    }
}
