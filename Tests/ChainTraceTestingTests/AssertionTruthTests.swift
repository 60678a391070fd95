import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// Every `verify…` assertion on generated traces and generated expectations: it passes (returns `nil`) exactly
/// when the expectation holds of the trace, worked out here from the trace's parts; when it fails, its message
/// names what was expected and lists the hops. Latency budgets of any size, up to `Duration`'s largest, never trap.
@Suite("Assertions pass exactly when their expectation holds")
struct AssertionTruthTests {
    static let names = ["Cell", "List", "Analytics", "Window", "App"]

    static func trace(_ random: inout SeededGenerator) -> Trace {
        let path = Array(names.shuffled(using: &random).prefix(Int.random(in: 0...names.count, using: &random)))
        let ending = random.pick([Decision.accepted, .failed, .passed, .continued])
        let hops = path.enumerated().map { position, name in
            Hop(
                handler: name,
                position: position,
                decision: position == path.count - 1 ? ending : random.pick([.passed, .continued]),
                inclusiveDuration: UInt64.random(in: 0...10_000, using: &random),
                selfDuration: UInt64.random(in: 0...10_000, using: &random)
            )
        }
        let outcome: Outcome =
            switch (path.last, ending) {
            case (let last?, .accepted): .accepted(by: last)
            case (let last?, .failed): .failed(at: last, error: "Username is already in use. (AuthError.taken)")
            default: .fellOffTheEnd
            }
        return Trace(
            id: 1,
            commandKind: "K",
            entry: path.first ?? "Cell",
            chain: "c",
            hops: hops,
            outcome: outcome,
            duration: hops.reduce(0) { $0 + $1.selfDuration }
        )
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func eachVerifierIsTrueExactlyWhenItsExpectationHolds(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let trace = Self.trace(&random)
        let handler = random.pick(Self.names)
        let hop = trace.hops.first { $0.handler == handler }

        let handled = verifyHandled(trace, by: handler)
        #expect((handled == nil) == (trace.outcome == .accepted(by: handler)), "seed \(seed)")

        let guess = random.chance(0.5) ? trace.path : Array(Self.names.shuffled(using: &random).prefix(2))
        #expect((verifyPath(trace, guess) == nil) == (guess == trace.path), "seed \(seed)")

        #expect((verifyVisited(trace, handler) == nil) == (hop != nil), "seed \(seed)")
        #expect((verifyVisited(trace, handler, false) == nil) == (hop == nil), "seed \(seed)")

        let decision = random.pick(Decision.allCases)
        #expect((verifyDecision(trace, handler, decision) == nil) == (hop?.decision == decision), "seed \(seed)")

        #expect((verifyUnhandled(trace) == nil) == (trace.outcome == .fellOffTheEnd), "seed \(seed)")

        let text = random.pick(["Username is already in use.", "AuthError", "taken", "nothing like it"])
        let failsHere = trace.outcome.failingHandler == handler
        #expect((verifyFailed(trace, at: handler) == nil) == failsHere, "seed \(seed)")
        #expect(
            (verifyFailed(trace, at: handler, error: text) == nil) == (failsHere && text != "nothing like it"),
            "seed \(seed)"
        )

        // A failing message says what was expected and lists every hop.
        if let message = verifyDecision(trace, handler, decision) {
            #expect(message.contains("Expected \"\(handler)\" to decide \(decision.rawValue)"), "seed \(seed)")
            for hop in trace.hops { #expect(message.contains(hop.handler), "seed \(seed)") }
        }

        // Budgets: the largest self time decides, at any size of budget.
        let largest = trace.hops.map(\.selfDuration).max() ?? 0
        let budget = UInt64.random(in: 0...12_000, using: &random)
        let verdict = verifyNoHandlerSlower(than: .nanoseconds(Int64(budget)), in: [trace])
        #expect((verdict == nil) == (largest <= budget), "seed \(seed): largest \(largest), budget \(budget)")
        #expect(verifyNoHandlerSlower(than: .seconds(Int64.max), in: [trace]) == nil, "seed \(seed)")
        // A negative budget is a budget of zero.
        #expect(
            verifyNoHandlerSlower(than: .seconds(Int64.min), in: [trace])
                == verifyNoHandlerSlower(than: .zero, in: [trace]),
            "seed \(seed)"
        )
    }
}
