import ChainTrace
import ChainTraceAnalysis
import Testing

@Suite("The slow-handler rule and comparisons")
struct SlowHandlerRuleTests {
    /// A trace of `hops` (handler, self ns), accepted by the last.
    func trace(_ hops: [(String, UInt64)], id: String? = nil, outcome: Outcome? = nil) -> Trace {
        var offset: UInt64 = 0
        let total = hops.reduce(0) { $0 + $1.1 }
        let made = hops.enumerated().map { index, hop -> Hop in
            defer { offset += hop.1 }
            return Hop(
                handler: hop.0,
                position: index,
                decision: index == hops.count - 1 ? .accepted : .passed,
                startOffset: offset,
                inclusiveDuration: total - offset,
                selfDuration: hop.1
            )
        }
        return Trace(
            id: 1,
            commandKind: "Tap",
            commandID: id,
            payload: nil,
            entry: hops[0].0,
            chain: "c",
            chainVersion: 0,
            startTime: 0,
            hops: made,
            outcome: outcome ?? .accepted(by: hops.last!.0),
            duration: total
        )
    }

    @Test func parsesClausesAndStatesThemInTheLegend() throws {
        let rule = try SlowHandlerRule.parse("p99>250us, share>30%, 3x-median")
        #expect(rule.clauses == [.over(.p99, nanoseconds: 250_000), .share(over: 0.3), .timesMedian(.p95, factor: 3)])
        #expect(
            rule.description
                == "slow when p99 self time > 250µs, or share of chain time > 30%, or p95 self time > 3× the median handler's on enough of its hops, or over its budget"
        )
        #expect(throws: RuleSyntaxError.self) { try SlowHandlerRule.parse("p95<1ms") }
        #expect(throws: RuleSyntaxError.self) { try SlowHandlerRule.parse("share>130%") }
    }

    @Test func flagsByAbsoluteRelativeShareAndBudgetWithTheNumbers() throws {
        var profile = ChainProfile()
        profile.declare("B", budgetNanoseconds: 500)
        for _ in 0..<100 { profile.add(trace([("A", 1_000), ("B", 1_000), ("C", 1_000), ("D", 20_000)])) }
        let flags = SlowHandlerRule(clauses: [.timesMedian(.p95, factor: 5)]).flags(in: profile)
        #expect(flags.map(\.handler) == ["B", "D"])
        #expect(flags[0].reasons == ["p95 1µs > budget 500ns"])
        #expect(flags[1].reasons == ["p95 20µs = 20× the median 1µs > 5× (100 of 100 hops over 5µs)"])
        let share = SlowHandlerRule(clauses: [.share(over: 0.5)], checksBudgets: false).flags(in: profile)
        #expect(share.map(\.handler) == ["D"])
        #expect(share[0].reasons == ["87% of chain time > 50%"])
        #expect(
            SlowHandlerRule(clauses: [.over(.p50, nanoseconds: 10_000)], checksBudgets: false).flags(in: profile).map(
                \.handler
            ) == ["D"]
        )
        #expect(profile.edges[ChainProfile.Edge(from: "A", to: "B")] == 100)
        #expect(profile.edges[ChainProfile.Edge(from: nil, to: "A")] == 100)
    }

    @Test func matcherClassifiesDivergencesAndPairsOutOfOrderCommands() throws {
        var matcher = TraceMatcher()
        matcher.add(first: (trace([("A", 1)], id: "1"), 2), second: (trace([("A", 1), ("B", 1)], id: "1"), 2))
        matcher.add(first: (trace([("A", 1), ("B", 1)], id: "2"), 3), second: (trace([("A", 1)], id: "3"), 3))
        matcher.add(
            first: (trace([("A", 1)], id: "3"), 4),
            second: (trace([("A", 1), ("B", 1)], id: "2", outcome: .fellOffTheEnd), 4)
        )
        matcher.add(first: (trace([("A", 1)], id: "4"), 5), second: nil)
        matcher.finish()
        #expect(matcher.compared == 3)
        #expect(matcher.divergences.map(\.kind) == [.differentHandler, .newlyUnhandled, .missing])
        #expect(matcher.divergences.map(\.command) == ["1", "2", "4"])
    }
}
