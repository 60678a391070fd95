import ChainTrace
import ChainTraceAnalysis
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// The JSON summary of a profile against the profile itself: every handler's numbers as the profile gives them,
/// flags exactly where the rule puts them, and the same value back after encoding (with our encoder, whose text
/// Foundation's decoder reads) and decoding.
@Suite("Profile summaries")
struct ProfileSummaryTests {
    @Test(arguments: SeededGenerator.seeds(30))
    func summaryRestatesTheProfileAndSurvivesARoundTrip(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = ProfileModelTests.traces(&random)
        var profile = ChainProfile(traces)
        if random.chance(0.5) {
            profile.declare("Quarter", budgetNanoseconds: Int64.random(in: 1...10_000, using: &random))
        }
        let rule = random.pick([SlowHandlerRule.standard, SlowHandlerRule(clauses: [.over(.p50, nanoseconds: 2_000)])])
        let summary = ProfileSummary(profile: profile, rule: rule)

        let flagged = Set(rule.flags(in: profile).map(\.handler))
        #expect(summary.commands == Int64(profile.commands), "seed \(seed)")
        #expect(
            summary.outcomes.accepted + summary.outcomes.fellOffTheEnd + summary.outcomes.failed == summary.commands,
            "seed \(seed)"
        )
        #expect(summary.handlers.map(\.handler) == profile.handlers.map(\.handler), "seed \(seed)")
        for (row, handler) in zip(summary.handlers, profile.handlers) {
            #expect(
                row.seen == Int64(handler.seen) && row.accepted == Int64(handler.accepted)
                    && row.failed == Int64(handler.failed),
                "seed \(seed)"
            )
            #expect(row.selfP95Ns == Int64(handler.selfTime(atPercentile: 95)), "seed \(seed)")
            #expect(row.slow == flagged.contains(row.handler), "seed \(seed): \(row.handler)")
            #expect((row.slowBecause != nil) == row.slow, "seed \(seed): \(row.handler)")
            #expect(row.budgetNs == handler.budgetNanoseconds, "seed \(seed)")
        }

        let decoded = try JSONDecoder().decode(ProfileSummary.self, from: JSONEncoder().encode(summary))
        #expect(decoded == summary, "seed \(seed)")
        // What the CLI prints: our encoder leaves absent members out, as Foundation's does.
        guard case .object(let printed) = try JSONValue(encoding: summary), case .array(let rows)? = printed["handlers"]
        else {
            Issue.record("seed \(seed): the summary is not an object with a list of handlers")
            return
        }
        for (row, handler) in zip(rows, summary.handlers) {
            guard case .object(let members) = row else { continue }
            #expect((members["slowBecause"] != nil) == handler.slow, "seed \(seed)")
            #expect((members["registry"] != nil) == (handler.registry != nil), "seed \(seed)")
        }
    }
}
