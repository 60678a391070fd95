import ChainTrace
import ChainTraceAnalysis
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// A profile against a plain recount of the same traces — per-handler decisions, totals, the links commands went
/// along and where they entered, outcomes, and self-time percentiles within the histogram's 1% — built from traces
/// in memory and, identically, streamed back from a trace log (several chains, registries, every outcome).
@Suite("Profiles against a recount")
struct ProfileModelTests {
    static func traces(_ random: inout SeededGenerator) -> [Trace] {
        let chains = [
            "coins": ["Counter", "Penny", "Dime", "Quarter"], "screens": ["Detail", "Registry", "Search", "App"],
        ]
        return (0..<Int.random(in: 1...120, using: &random)).map { id in
            let chain = random.pick(chains.keys.sorted())
            let names = chains[chain]!
            let start = Int.random(in: 0..<2, using: &random)
            let length = Int.random(in: 1...(names.count - start), using: &random)
            let ending = random.pick([Decision.accepted, .failed, .passed])
            let hops = (0..<length).map { position -> Hop in
                let name = names[start + position]
                let decision: Decision = position < length - 1 ? random.pick([.passed, .continued]) : ending
                let selfTime = UInt64.random(in: 0...(random.chance(0.1) ? 5_000_000 : 4_000), using: &random)
                return Hop(
                    handler: name,
                    position: position,
                    decision: decision,
                    reason: decision == .failed ? "e" : nil,
                    registry: chain == "screens" && name == "Search" ? "Registry" : nil,
                    startOffset: 0,
                    inclusiveDuration: selfTime &+ 10,
                    selfDuration: selfTime
                )
            }
            let last = hops.last!.handler
            let outcome: Outcome =
                ending == .accepted
                ? .accepted(by: last) : ending == .failed ? .failed(at: last, error: "e") : .fellOffTheEnd
            return Trace(
                id: UInt64(id),
                commandKind: "K",
                entry: names[start],
                chain: chain,
                hops: hops,
                outcome: outcome,
                duration: hops.reduce(0) { $0 &+ $1.selfDuration }
            )
        }
    }

    /// The value at `percentile` of `values` as HDR histograms define it: the smallest value with at least that
    /// share of values at or below it.
    static func percentile(_ percentile: Double, of values: [UInt64]) -> UInt64 {
        let sorted = values.sorted()
        let rank = max(1, Int((percentile / 100 * Double(sorted.count)).rounded(.up)))
        return sorted[min(sorted.count, rank) - 1]
    }

    static func check(_ profile: ChainProfile, against traces: [Trace], seed: UInt64, how: String) {
        #expect(profile.commands == traces.count, "seed \(seed) \(how)")
        #expect(profile.accepted == traces.filter { $0.outcome.acceptingHandler != nil }.count, "seed \(seed) \(how)")
        #expect(profile.failed == traces.filter { $0.outcome.failingHandler != nil }.count, "seed \(seed) \(how)")
        #expect(profile.fellOffTheEnd == traces.filter { $0.outcome == .fellOffTheEnd }.count, "seed \(seed) \(how)")
        var chains: [String] = []
        for trace in traces where !chains.contains(trace.chain) { chains.append(trace.chain) }
        #expect(profile.chains == chains, "seed \(seed) \(how)")
        let hops = traces.flatMap(\.hops)
        for name in Set(hops.map(\.handler)) {
            let mine = hops.filter { $0.handler == name }
            guard let statistics = profile.statistics(of: name) else {
                Issue.record("seed \(seed) \(how): no statistics for \(name)")
                continue
            }
            #expect(statistics.seen == mine.count, "seed \(seed) \(how): \(name)")
            for decision in Decision.allCases {
                #expect(
                    statistics.count(of: decision) == mine.filter { $0.decision == decision }.count,
                    "seed \(seed) \(how): \(name) \(decision)"
                )
            }
            #expect(
                statistics.totalSelfNanoseconds == mine.reduce(0) { $0 + $1.selfDuration },
                "seed \(seed) \(how): \(name)"
            )
            #expect(statistics.registry == mine.first?.registry, "seed \(seed) \(how): \(name)")
            let times = mine.map(\.selfDuration)
            #expect(statistics.maximumSelfTime == times.max()!, "seed \(seed) \(how): \(name)")
            for percentile in [50.0, 90, 95, 99] {
                let exact = Double(Self.percentile(percentile, of: times))
                let reported = Double(statistics.selfTime(atPercentile: percentile))
                #expect(
                    abs(reported - exact) <= max(1, exact * 0.01),
                    "seed \(seed) \(how): \(name) p\(percentile) \(reported) vs \(exact)"
                )
            }
        }
        // Links: every step between consecutive hops, and every entry, counted.
        var edges: [ChainProfile.Edge: Int] = [:]
        for trace in traces {
            if let first = trace.hops.first { edges[ChainProfile.Edge(from: nil, to: first.handler), default: 0] += 1 }
            for (from, to) in zip(trace.hops, trace.hops.dropFirst()) {
                edges[ChainProfile.Edge(from: from.handler, to: to.handler), default: 0] += 1
            }
        }
        #expect(profile.edges == edges, "seed \(seed) \(how)")
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func aProfileIsItsTracesRecountedInMemoryAndFromALog(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = Self.traces(&random)
        Self.check(ChainProfile(traces), against: traces, seed: seed, how: "in memory")
        let log = TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] }
        let streamed = try ChainProfile(reading: TraceLogReader(bytes: log, payloads: false))
        Self.check(streamed, against: traces, seed: seed, how: "from a log")
    }
}
