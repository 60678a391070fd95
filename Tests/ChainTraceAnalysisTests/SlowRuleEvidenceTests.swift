import ChainTrace
import ChainTraceTestSupport
import Testing

@testable import ChainTraceAnalysis

/// The relative clause of the slow-handler rule (`5x-median`) flags a handler only when more of its hops are over
/// k × the median handler's than chance puts past the percentile — so a short replay's one slow hop flags nothing,
/// while a handler slow on every hop is flagged from two hops on.
///
/// Generated profiles of 3–8 handlers with 1–60 hops each, self times of 1–250 ns (times the histogram holds
/// exactly), against a plain model of the clause: the nearest-rank percentile of each handler's times, the median
/// of those, and the chance of that many hops over k × it worked out on Pascal's triangle.
@Suite("The slow rule's relative clause asks for evidence")
struct SlowRuleEvidenceTests {
    /// A profile of one-hop traces: `times[handler]` are the self times of that handler's hops.
    static func profile(_ times: [(handler: String, times: [UInt64])]) -> ChainProfile {
        var profile = ChainProfile()
        for (handler, handlerTimes) in times {
            for time in handlerTimes {
                profile.add(
                    Trace(
                        id: 1,
                        commandKind: "Tap",
                        commandID: nil,
                        payload: nil,
                        entry: handler,
                        chain: "c",
                        chainVersion: 0,
                        startTime: 0,
                        hops: [
                            Hop(
                                handler: handler,
                                position: 0,
                                decision: .accepted,
                                startOffset: 0,
                                inclusiveDuration: time,
                                selfDuration: time
                            )
                        ],
                        outcome: .accepted(by: handler),
                        duration: time
                    )
                )
            }
        }
        return profile
    }

    /// The nearest-rank percentile of `times`.
    static func percentile(_ percentile: Double, of times: [UInt64]) -> Double {
        let sorted = times.sorted()
        let rank = max(1, Int((percentile / 100 * Double(sorted.count)).rounded(.up)))
        return Double(sorted[min(rank, sorted.count) - 1])
    }

    /// The handlers the model flags: p`percentile` over `factor` × the median handler's, with more hops over that
    /// than a 1 − percentile/100 chance a hop gives at p < 0.01.
    static func modelFlags(_ times: [(handler: String, times: [UInt64])], percentile: Double, factor: Double)
        -> [String]
    {
        guard times.count >= 3 else { return [] }
        let values = times.map { Self.percentile(percentile, of: $0.times) }
        let sorted = values.sorted()
        let median =
            sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        let limit = factor * median
        return zip(times, values).compactMap { handler, value in
            guard value > limit, value > 0 else { return nil }
            let over = handler.times.filter { Double($0) > limit }.count
            let terms = BinomialTailTests.distribution(trials: handler.times.count, each: 1 - percentile / 100)
            let chance = over == 0 ? 1 : terms[over...].reduce(0, +)
            return chance < 0.01 ? handler.handler : nil
        }
    }

    @Test(arguments: SeededGenerator.seeds(400))
    func flagsAsThePlainModelDoes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let typical = UInt64.random(in: 1...20, using: &random)
        let times = (0..<Int.random(in: 3...8, using: &random)).map { index -> (handler: String, times: [UInt64]) in
            let hops = random.pick([1, 2, 3, 5, 10, 20, 30, Int.random(in: 1...60, using: &random)])
            // Alike handlers with now and then a slow hop, and some slow on a share of their hops.
            let slowShare = random.pick([0, 0, 0.05, 0.2, 0.5, 1])
            return (
                "H\(index)",
                (0..<hops).map { _ in
                    random.chance(slowShare) || random.chance(0.05)
                        ? UInt64.random(in: (typical * 5)...250, using: &random)
                        : UInt64.random(in: 1...(typical + 2), using: &random)
                }
            )
        }
        let percentile = random.pick([95.0, 90, 99, 50])
        let factor = random.pick([5.0, 2, 3.5])
        let rule = SlowHandlerRule(
            clauses: [.timesMedian(.percentile(percentile), factor: factor)],
            checksBudgets: false
        )
        let flags = rule.flags(in: Self.profile(times))
        #expect(
            flags.map(\.handler) == Self.modelFlags(times, percentile: percentile, factor: factor),
            "seed \(seed): \(times)"
        )
        // Each flag says how many hops were over the time, of how many.
        for flag in flags {
            let handler = times.first { $0.handler == flag.handler }!
            #expect(flag.reasons.count == 1)
            #expect(flag.reasons[0].contains(" of \(handler.times.count) hops over "), "seed \(seed): \(flag.reasons)")
        }
    }

    /// One slow hop among up to 20 is never evidence at p95 (the chance of one or more is at least 1 − 0.95^20),
    /// however slow; every hop slow is, from two hops on.
    @Test(arguments: SeededGenerator.seeds(100))
    func oneSlowHopIsNoEvidenceEverySlowHopIs(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let hops = Int.random(in: 1...20, using: &random)
        let others = (0..<Int.random(in: 2...9, using: &random)).map { index in
            (handler: "Alike\(index)", times: (0..<hops).map { _ in UInt64.random(in: 40...60, using: &random) })
        }
        var outlier = (0..<hops).map { _ in UInt64.random(in: 40...60, using: &random) }
        outlier[Int.random(in: 0..<hops, using: &random)] = UInt64.random(in: 1_000...10_000_000, using: &random)
        let slow = (0..<hops).map { _ in UInt64.random(in: 1_000...10_000_000, using: &random) }
        let rule = SlowHandlerRule(clauses: [.timesMedian(.p95, factor: 5)], checksBudgets: false)
        #expect(rule.flags(in: Self.profile(others + [("Outlier", outlier)])).isEmpty, "seed \(seed)")
        let flagged = rule.flags(in: Self.profile(others + [("Slow", slow)])).map(\.handler)
        #expect(flagged == (hops >= 2 ? ["Slow"] : []), "seed \(seed): \(hops) hops")
        // The absolute clause still judges the percentile alone.
        let absolute = SlowHandlerRule(clauses: [.over(.p95, nanoseconds: 500)], checksBudgets: false)
        #expect(
            absolute.flags(in: Self.profile(others + [("Outlier", outlier)])).map(\.handler)
                == (hops < 20 ? ["Outlier"] : []),
            "seed \(seed)"
        )
    }
}
