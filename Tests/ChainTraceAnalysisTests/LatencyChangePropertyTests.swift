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
                Trace(
                    id: 0,
                    commandKind: "K",
                    entry: name,
                    chain: "c",
                    hops: [
                        Hop(
                            handler: name,
                            position: 0,
                            decision: .passed,
                            inclusiveDuration: value,
                            selfDuration: value
                        )
                    ],
                    outcome: .fellOffTheEnd,
                    duration: value
                )
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
            let times = (0..<Int.random(in: 20...60, using: &random)).map { _ in
                base + UInt64.random(in: 0...(base / 100), using: &random)
            }
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
            let expected: LatencyChange.Verdict =
                switch done[change.handler]! {
                case .slower: .slower
                case .faster: .faster
                case .same: .unchanged
                case .added: .new
                case .dropped: .gone
                }
            #expect(
                change.verdict == expected,
                "seed \(seed): \(change.handler) \(change.verdict), p95 \(change.p95Before) → \(change.p95After)"
            )
            #expect(
                change.seenBefore == (before[change.handler]?.count ?? 0)
                    && change.seenAfter == (after[change.handler]?.count ?? 0),
                "seed \(seed)"
            )
        }
        // The first run's handlers come first.
        let firstOnes = changes.prefix { before[$0.handler] != nil }.count
        #expect(changes.dropFirst(firstOnes).allSatisfy { before[$0.handler] == nil }, "seed \(seed)")
    }
}

/// The p95 ratio as `diff` and the diff diagram write it, for any two p95s from 1 ns to 2^64 − 1 ns: digits, one
/// point at most and `×` — no exponent — reading back to the ratio within the rounding of three significant
/// digits; below 0.001 it says so. (`String(ratio).prefix(4)` wrote 1e-05 as `1e-0×` and 123456.7 as `1234×`.)
@Suite("The p95 ratio as written")
struct RatioTextPropertyTests {
    @Test(arguments: SeededGenerator.seeds(200))
    func theRatioReadsBackToThreeSignificantDigits(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        func time() -> UInt64 {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: UInt64.random(in: 1...1_000, using: &random)
            case 1: UInt64.random(in: 1...1_000_000_000, using: &random)
            case 2: UInt64.max - UInt64.random(in: 0...1_000, using: &random)
            default: UInt64.random(in: 1...UInt64.max, using: &random)
            }
        }
        let (before, after) = (time(), time())
        let change = LatencyChange(
            handler: "H",
            seenBefore: 1,
            seenAfter: 1,
            p50Before: 0,
            p50After: 0,
            p95Before: before,
            p95After: after,
            verdict: .unchanged
        )
        let text = try #require(change.p95RatioText)
        let ratio = Double(after) / Double(before)
        #expect(text.hasSuffix("×") && !text.contains("e"), "seed \(seed): \(text)")
        if ratio < 0.001 {
            #expect(text == "<0.001×", "seed \(seed): \(ratio) as \(text)")
            return
        }
        let number = try #require(Double(text.dropLast()), "seed \(seed): \(text)")
        #expect(abs(number - ratio) <= ratio * 0.005 + 1e-12, "seed \(seed): \(ratio) as \(text)")
        let digits = text.dropLast().filter { (character: Character) in character.isNumber }.drop { $0 == "0" }
        #expect(digits.count <= max(3, String(UInt64(ratio.rounded())).count), "seed \(seed): \(text)")
    }

    @Test func eitherZeroHasNoRatio() {
        let change = LatencyChange(
            handler: "H",
            seenBefore: 1,
            seenAfter: 0,
            p50Before: 5,
            p50After: 0,
            p95Before: 5,
            p95After: 0,
            verdict: .gone
        )
        #expect(change.p95RatioText == nil)
    }
}
