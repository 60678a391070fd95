import ChainTrace
import ChainTraceAnalysis
import ChainTraceTestSupport
import Testing

/// Latency changes between two generated runs in which each handler was made slower, faster, left alone, added
/// or dropped: every handler gets the verdict of what was done to it — a p95 that moved by at least the threshold
/// and 100 ns is slower or faster, a small move is unchanged — listed once, first run's order first.
@Suite("Latency changes against what was done")
struct LatencyChangePropertyTests {
    enum Change: CaseIterable { case slower, faster, same, added, dropped }

    static func traces(_ times: [String: [UInt64]]) -> [Trace] {
        times.sorted { $0.key < $1.key }.flatMap { name, values in
            values.map { value in
                Trace(id: 0, commandKind: "K", entry: name, chain: "c",
                      hops: [Hop(handler: name, position: 0, decision: .passed, inclusiveDuration: value, selfDuration: value)],
                      outcome: .fellOffTheEnd, duration: value)
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(50))
    func everyHandlerGetsTheVerdictOfWhatWasDoneToIt(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var before: [String: [UInt64]] = [:]
        var after: [String: [UInt64]] = [:]
        var done: [String: Change] = [:]
        for index in 0..<Int.random(in: 1...8, using: &random) {
            let name = "H\(index)"
            let base = UInt64.random(in: 2_000...1_000_000, using: &random)
            let times = (0..<Int.random(in: 20...60, using: &random)).map { _ in base + UInt64.random(in: 0...(base / 100), using: &random) }
            let change = random.pick(Change.allCases)
            done[name] = change
            switch change {
            case .slower:
                before[name] = times
                after[name] = times.map { $0 * 2 }
            case .faster:
                before[name] = times
                after[name] = times.map { $0 / 2 }
            case .same:
                before[name] = times
                after[name] = times.shuffled(using: &random)
            case .added: after[name] = times
            case .dropped: before[name] = times
            }
        }
        let changes = LatencyChange.between(ChainProfile(Self.traces(before)), ChainProfile(Self.traces(after)))
        #expect(Set(changes.map(\.handler)) == Set(done.keys) && changes.count == done.count, "seed \(seed)")
        for change in changes {
            let expected: LatencyChange.Verdict = switch done[change.handler]! {
            case .slower: .slower
            case .faster: .faster
            case .same: .unchanged
            case .added: .new
            case .dropped: .gone
            }
            #expect(change.verdict == expected, "seed \(seed): \(change.handler) \(change.verdict), p95 \(change.p95Before) → \(change.p95After)")
            #expect(change.seenBefore == (before[change.handler]?.count ?? 0) && change.seenAfter == (after[change.handler]?.count ?? 0), "seed \(seed)")
        }
        // The first run's handlers come first.
        let firstOnes = changes.prefix { before[$0.handler] != nil }.count
        #expect(changes.dropFirst(firstOnes).allSatisfy { before[$0.handler] == nil }, "seed \(seed)")
    }
}
