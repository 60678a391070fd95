import ChainTrace
import ChainTraceTestSupport
import Testing

@testable import ChainTraceAnalysis

/// The sample a report lists — every failure, the slowest, a uniform rest — against a plain model that sorts
/// every trace at once, however the traces are split into parts and joined; and the inclusive times against
/// exact percentiles, split or not.
@Suite("Trace sample and inclusive times")
struct TraceSampleTests {
    static func traces(_ random: inout SeededGenerator, count: Int) -> [Trace] {
        let handlers = (0..<Int.random(in: 1...6, using: &random)).map { "H\($0)" }
        return (0..<count).map { index in
            let length = Int.random(in: 1...handlers.count, using: &random)
            let hops = (0..<length).map { position in
                Hop(
                    handler: handlers[position],
                    position: position,
                    decision: position == length - 1 ? random.pick([.accepted, .passed, .failed]) : .passed,
                    startOffset: UInt64(position * 10),
                    inclusiveDuration: UInt64.random(in: 0...50_000, using: &random),
                    selfDuration: UInt64.random(in: 0...5_000, using: &random)
                )
            }
            let last = hops[length - 1]
            let outcome: Outcome =
                last.decision == .accepted
                ? .accepted(by: last.handler)
                : last.decision == .failed ? .failed(at: last.handler, error: "e") : .fellOffTheEnd
            // Durations repeat often, so ties between traces are tested too.
            let duration = random.chance(0.3) ? 100 : UInt64.random(in: 0...1_000_000, using: &random)
            return Trace(
                id: UInt64(index % 50),
                commandKind: random.pick(["A", "B"]),
                commandID: random.chance(0.5) ? "c\(index)" : nil,
                entry: handlers[0],
                chain: "c",
                startTime: Int64(index),
                hops: hops,
                outcome: outcome,
                duration: duration
            )
        }
    }

    /// What `chosen()` must return, by sorting every trace at once.
    static func model(_ traces: [Trace], limit: Int) -> [(number: Int, reason: TraceSample.Reason)] {
        var chosen: [Int: TraceSample.Reason] = [:]
        let numbered = traces.enumerated().map { (number: $0.offset + 1, trace: $0.element) }
        func take(_ number: Int, _ reason: TraceSample.Reason) {
            if chosen.count < limit, chosen[number] == nil { chosen[number] = reason }
        }
        let byKey = numbered.sorted {
            (TraceSample.key(of: $0.trace), $0.number) < (TraceSample.key(of: $1.trace), $1.number)
        }
        for item in byKey.filter({ $0.trace.outcome.failingHandler != nil }).prefix(max(1, limit / 2)) {
            take(item.number, .failed)
        }
        let slowest = numbered.sorted { ($0.trace.duration, $1.number) > ($1.trace.duration, $0.number) }
        for item in slowest.prefix(max(1, limit / 10)) { take(item.number, .slowest) }
        for item in byKey { take(item.number, .sampled) }
        return chosen.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func splitSampleAgreesWithTheModel(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let traces = Self.traces(&random, count: Int.random(in: 0...3_000, using: &random))
        let limit = random.pick([0, 1, 5, 37, 200, 5_000])
        // Cut into 1–8 parts at random places, each part sampled on its own, joined in order.
        var cuts = (0..<Int.random(in: 0...7, using: &random)).map { _ in
            Int.random(in: 0...traces.count, using: &random)
        }.sorted()
        cuts = [0] + cuts + [traces.count]
        var joined = TraceSample(limit: limit)
        for (from, to) in zip(cuts, cuts.dropFirst()) {
            var part = TraceSample(limit: limit)
            for trace in traces[from..<to] { part.add(trace) }
            joined.append(part)
        }
        var whole = TraceSample(limit: limit)
        for trace in traces { whole.add(trace) }
        let expected = Self.model(traces, limit: limit)
        for sample in [joined, whole] {
            let chosen = sample.chosen()
            #expect(chosen.map(\.number) == expected.map(\.number), "seed \(seed), limit \(limit)")
            #expect(chosen.map(\.reason) == expected.map(\.reason), "seed \(seed), limit \(limit)")
            #expect(
                chosen.allSatisfy { traces[$0.number - 1] == $0.trace },
                "seed \(seed): an entry holds another trace"
            )
            #expect(sample.count == traces.count)
            #expect(sample.failedCount == traces.filter { $0.outcome.failingHandler != nil }.count)
        }
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func inclusiveTimesSplitOrNotMatchExactPercentiles(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let traces = Self.traces(&random, count: Int.random(in: 1...2_000, using: &random))
        var whole = InclusiveTimes()
        for trace in traces { whole.add(trace) }
        var joined = InclusiveTimes()
        var part = InclusiveTimes()
        for trace in traces {
            part.add(trace)
            if random.chance(0.01) {
                joined.append(part)
                part = InclusiveTimes()
            }
        }
        joined.append(part)
        #expect(whole.commands == traces.count && joined.commands == traces.count)
        let byHandler = Dictionary(grouping: traces.flatMap(\.hops), by: \.handler)
        for (handler, hops) in byHandler {
            let sorted = hops.map(\.inclusiveDuration).sorted()
            for percentile in [50.0, 95, 99] {
                let exact = sorted[max(0, Int((percentile / 100 * Double(sorted.count)).rounded(.up)) - 1)]
                let read = whole.inclusiveTime(of: handler, atPercentile: percentile)
                #expect(
                    read == joined.inclusiveTime(of: handler, atPercentile: percentile),
                    "seed \(seed): split changed \(handler)"
                )
                // Two significant digits: within 1% (and the bucket's width for small values).
                #expect(
                    Double(read) >= Double(exact) * 0.99 - 1 && Double(read) <= Double(exact) * 1.01 + 1,
                    "seed \(seed): \(handler) p\(percentile) \(read) against exact \(exact)"
                )
            }
        }
        let durations = traces.map(\.duration).sorted()
        let exact = durations[max(0, Int((0.95 * Double(durations.count)).rounded(.up)) - 1)]
        let read = whole.commandTime(atPercentile: 95)
        #expect(Double(read) >= Double(exact) * 0.99 - 1 && Double(read) <= Double(exact) * 1.01 + 1, "seed \(seed)")
        #expect(whole.inclusiveTime(of: "nobody", atPercentile: 50) == 0)
    }

    /// Each handler's self-time limit is the line its flag is drawn by: with clauses on one statistic, a flagged
    /// handler's statistic is over its limit, and one over its limit is flagged unless only relative clauses are
    /// under it (which also ask for enough hops over their time); the limit is the lowest any clause names.
    @Test(arguments: SeededGenerator.seeds(30))
    func selfTimeLimitsDrawTheLineFlagsUse(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var profile = ChainProfile(Self.traces(&random, count: Int.random(in: 1...400, using: &random)))
        for handler in profile.handlers where random.chance(0.3) {
            profile.declare(handler.handler, budgetNanoseconds: Int64.random(in: 0...6_000, using: &random))
        }
        let rule = SlowHandlerRule(
            clauses: (0..<Int.random(in: 1...3, using: &random)).map { _ in
                random.chance(0.5)
                    ? .over(.p95, nanoseconds: Int64.random(in: 0...6_000, using: &random))
                    : .timesMedian(.p95, factor: Double.random(in: 0.5...3, using: &random))
            },
            checksBudgets: random.chance(0.7)
        )
        let flagged = Set(rule.flags(in: profile).map(\.handler))
        let limits = rule.selfTimeLimits(in: profile)
        for handler in profile.handlers where handler.seen > 0 {
            let p95 = Double(handler.selfTime(atPercentile: 95))
            let over = limits[handler.handler].map { p95 > $0.nanoseconds } ?? false
            let context =
                "seed \(seed): \(handler.handler) p95 \(p95), limit \(String(describing: limits[handler.handler]))"
            if flagged.contains(handler.handler) {
                #expect(over, "\(context)")
            } else if over {
                var absolute = rule.clauses.compactMap { clause -> Double? in
                    if case .over(_, let nanoseconds) = clause { Double(nanoseconds) } else { nil }
                }
                if rule.checksBudgets, let budget = handler.budgetNanoseconds { absolute.append(Double(budget)) }
                #expect(absolute.allSatisfy { p95 <= $0 }, "\(context)")
            }
        }
    }

    /// The bars of a self-time histogram: counted, never twice, adding up to every hop.
    @Test(arguments: SeededGenerator.seeds(20))
    func selfTimeCountsAreCumulative(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let profile = ChainProfile(Self.traces(&random, count: Int.random(in: 1...500, using: &random)))
        for handler in profile.handlers where handler.seen > 0 {
            var previous = 0
            for bound in stride(
                from: UInt64(0),
                through: handler.maximumSelfTime + 100,
                by: max(1, Int(handler.maximumSelfTime / 37))
            ) {
                let count = handler.selfTimeCount(atOrBelow: bound)
                #expect(count >= previous, "seed \(seed): counts fell")
                previous = count
            }
            #expect(handler.selfTimeCount(atOrBelow: handler.maximumSelfTime) == handler.seen, "seed \(seed)")
        }
    }
}
