import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// Async instrumented hops that fan out — child tasks running instrumented handlers at once — get as self time the
/// part of their time that none of their children covered. Before, a hop's self time was its time less the sum of
/// its children's, which for children running at once is more than the hop's whole time: a gateway that waited on
/// three 8 ms services at once showed about its whole time as its own (the subtraction went below zero), and
/// `stats` flagged it as the slowest handler. Generated trees: each hop runs its children at once or one after the
/// other, each child waits a little, some nest further.
@Suite("Self time of hops that fan out")
struct FanOutSelfTimeTests {
    /// The length of the union of `intervals`, each clipped to `within`.
    static func covered(_ intervals: [(UInt64, UInt64)], within: (UInt64, UInt64)) -> UInt64 {
        let clipped = intervals.map { (max($0.0, within.0), min($0.1, within.1)) }.filter { $0.1 > $0.0 }.sorted {
            $0.0 < $1.0
        }
        var total: UInt64 = 0
        var current: (UInt64, UInt64)?
        for interval in clipped {
            if let open = current, interval.0 <= open.1 {
                current = (open.0, max(open.1, interval.1))
            } else {
                if let open = current { total += open.1 - open.0 }
                current = interval
            }
        }
        if let open = current { total += open.1 - open.0 }
        return total
    }

    @Test(arguments: SeededGenerator.seeds(16))
    func aHopsSelfTimeIsWhatNoneOfItsChildrenCovered(seed: UInt64) async throws {
        let root = HandlerTree.random(
            seed: seed,
            chain: "fan",
            leafDepth: 2,
            atOnce: 0.7,
            maximumWait: .microseconds(2_000)
        )
        let traces = await captureTraces { _ = await root.run() }
        let trace = try #require(traces.first)
        #expect(traces.count == 1, "seed \(seed)")
        let hops = Dictionary(trace.hops.map { ($0.handler, $0) }, uniquingKeysWith: { first, _ in first })
        root.visit { node in
            guard let hop = hops[node.name] else {
                Issue.record("seed \(seed): \(node.name) missing from \(trace.path)")
                return
            }
            #expect(hop.selfDuration <= hop.inclusiveDuration, "seed \(seed): \(node.name)")
            let children = node.children.compactMap { hops[$0.name] }
            let intervals = children.map { ($0.startOffset, $0.startOffset + $0.inclusiveDuration) }
            let expected =
                hop.inclusiveDuration
                - min(
                    hop.inclusiveDuration,
                    Self.covered(intervals, within: (hop.startOffset, hop.startOffset + hop.inclusiveDuration))
                )
            // Times are kept in clock ticks and converted one by one: each value may be 1 ns off.
            let slack = UInt64(2 * children.count + 2)
            let difference = hop.selfDuration > expected ? hop.selfDuration - expected : expected - hop.selfDuration
            #expect(
                difference <= slack,
                "seed \(seed): \(node.name) self \(hop.selfDuration) ns, expected \(expected) (children \(children.count), at once: \(node.atOnce))"
            )
        }
    }
}
