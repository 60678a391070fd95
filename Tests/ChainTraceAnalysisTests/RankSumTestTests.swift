import ChainTrace
import ChainTraceTestSupport
import Testing

@testable import ChainTraceAnalysis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The rank test `diff` asks before it calls a handler slower or faster, against plain references: the exact
/// p-value against counting every ordering of small samples, the normal approximation against the textbook's
/// average ranks; and as a test — samples of one distribution seldom differ (about one time in twenty, as a
/// p-value of 0.05 means), samples of a distribution and of the same made half as slow again nearly always do,
/// and two runs of one generated chain seldom show a handler slower or faster while a handler made slower does.
@Suite("The rank test behind slower and faster")
struct RankSumTestTests {
    /// The test of `first` against `second`, its exact distributions worked out afresh.
    static func test(_ first: RankSumTest.Counts, _ second: RankSumTest.Counts) -> RankSumTest {
        var distributions = RankSumTest.Distributions()
        return RankSumTest(first, second, distributions: &distributions)
    }

    static func counts(_ times: [UInt64]) -> RankSumTest.Counts {
        var counts: RankSumTest.Counts = []
        for time in times.sorted() {
            if counts.last?.value == time { counts[counts.count - 1].count += 1 } else { counts.append((time, 1)) }
        }
        return counts
    }

    /// U of the second sample, counted pair by pair: a tie is half.
    static func u(_ first: [UInt64], _ second: [UInt64]) -> Double {
        var u = 0.0
        for y in second { for x in first { u += x < y ? 1 : x == y ? 0.5 : 0 } }
        return u
    }

    /// Every way to choose which `first` of the pooled times are the first sample's.
    static func choices(of first: Int, from total: Int) -> [[Int]] {
        guard first > 0 else { return [[]] }
        guard total >= first else { return [] }
        return choices(of: first - 1, from: total - 1).map { $0 + [total - 1] } + choices(of: first, from: total - 1)
    }

    @Test(arguments: SeededGenerator.seeds(120))
    func exactPValueCountsEveryOrdering(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let (n1, n2) = (Int.random(in: 1...7, using: &random), Int.random(in: 1...7, using: &random))
        // Distinct times: no ties.
        let pool = Array(Set((0..<200).map { _ in UInt64.random(in: 1...1_000_000, using: &random) })).prefix(n1 + n2)
            .shuffled(using: &random)
        let first = Array(pool.prefix(n1))
        let second = Array(pool.dropFirst(n1))
        let test = Self.test(Self.counts(first), Self.counts(second))
        let mean = Double(n1 * n2) / 2
        let observed = abs(Self.u(first, second) - mean)
        let sorted = pool.sorted()
        var extreme = 0
        let all = Self.choices(of: n1, from: n1 + n2)
        for choice in all {
            let chosen = Set(choice)
            let a = sorted.indices.filter { chosen.contains($0) }.map { sorted[$0] }
            let b = sorted.indices.filter { !chosen.contains($0) }.map { sorted[$0] }
            if abs(Self.u(a, b) - mean) >= observed - 1e-9 { extreme += 1 }
        }
        let expected = Double(extreme) / Double(all.count)
        #expect(abs(test.pValue - expected) < 1e-9, "seed \(seed): \(test.pValue) against \(expected)")
        #expect(test.secondIsLarger == (Self.u(first, second) > mean), "seed \(seed)")
    }

    /// The exact distributions, kept by sample sizes across tests (as a diff keeps them across handlers), give the
    /// p-values worked out afresh.
    @Test func keptDistributionsGiveTheSamePValues() {
        var distributions = RankSumTest.Distributions()
        var random = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            let (n1, n2) = (Int.random(in: 1...12, using: &random), Int.random(in: 1...12, using: &random))
            let pool = Array(Set((0..<100).map { _ in UInt64.random(in: 1...1_000_000, using: &random) })).prefix(
                n1 + n2
            )
            let (first, second) = (Self.counts(Array(pool.prefix(n1))), Self.counts(Array(pool.dropFirst(n1))))
            let kept = RankSumTest(first, second, distributions: &distributions)
            let fresh = Self.test(first, second)
            #expect(kept.pValue == fresh.pValue && kept.secondIsLarger == fresh.secondIsLarger, "\(n1) × \(n2)")
        }
    }

    @Test(arguments: SeededGenerator.seeds(120))
    func approximationIsTheTextbooks(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        // Many ties (few distinct times), or many times.
        let distinct = UInt64.random(in: 1...(random.chance(0.5) ? 6 : 5_000), using: &random)
        let first = (0..<Int.random(in: 1...80, using: &random)).map { _ in
            100 * UInt64.random(in: 1...distinct, using: &random)
        }
        let second = (0..<Int.random(in: 21...80, using: &random)).map { _ in
            100 * UInt64.random(in: 1...distinct, using: &random)
        }
        let test = Self.test(Self.counts(first), Self.counts(second))
        // Average ranks of the pooled times.
        let pooled = (first.map { ($0, false) } + second.map { ($0, true) }).sorted { $0.0 < $1.0 }
        var rankSum = 0.0
        var tieTerm = 0.0
        var start = 0
        while start < pooled.count {
            var end = start
            while end < pooled.count, pooled[end].0 == pooled[start].0 { end += 1 }
            let average = Double(start + 1 + end) / 2
            rankSum += Double(pooled[start..<end].filter(\.1).count) * average
            let tied = Double(end - start)
            tieTerm += tied * tied * tied - tied
            start = end
        }
        let (n1, n2) = (Double(first.count), Double(second.count))
        let u = rankSum - n2 * (n2 + 1) / 2
        #expect(abs(u - Self.u(first, second)) < 1e-6, "seed \(seed)")
        // Without ties and with few pairs, the p-value is the exact one (checked above).
        guard tieTerm > 0 || n1 * n2 > Double(RankSumTest.exactLimit) else { return }
        let n = n1 + n2
        let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        let expected =
            variance > 0
            ? min(1, erfc(max(0, abs(u - n1 * n2 / 2) - 0.5) / variance.squareRoot() / 2.0.squareRoot())) : 1
        #expect(abs(test.pValue - expected) < 1e-9, "seed \(seed): \(test.pValue) against \(expected)")
    }

    /// Times a handler might take: a floor, a spread, now and then a slow one.
    static func times(_ random: inout SeededGenerator, count: Int, scale: Double = 1) -> [UInt64] {
        (0..<count).map { _ in
            let base =
                2_000 + Double.random(in: 0...600, using: &random)
                + (random.chance(0.05) ? Double.random(in: 0...20_000, using: &random) : 0)
            return UInt64(base * scale)
        }
    }

    /// The test of two generated samples for each of `count` seeds, the second's times `scale` times as long.
    static func tests(_ count: Int, sizes: ClosedRange<Int>, scale: Double) -> [RankSumTest] {
        SeededGenerator.seeds(count).map { seed in
            var random = SeededGenerator(seed: seed)
            let first = times(&random, count: Int.random(in: sizes, using: &random))
            let second = times(&random, count: Int.random(in: sizes, using: &random), scale: scale)
            return test(counts(first), counts(second))
        }
    }

    @Test func samplesOfOneDistributionSeldomDiffer() {
        let tests = Self.tests(400, sizes: 4...60, scale: 1)
        let significant = tests.filter { $0.pValue < LatencyChange.significance }.count
        #expect(significant <= tests.count * 8 / 100, "\(significant) of \(tests.count)")
    }

    @Test func slowerSamplesNearlyAlwaysDiffer() {
        let tests = Self.tests(200, sizes: 10...60, scale: 1.5)
        let missed = tests.filter { $0.pValue >= LatencyChange.significance || !$0.secondIsLarger }.count
        #expect(missed <= tests.count / 50, "\(missed) of \(tests.count)")
    }

    static func profile(_ times: [String: [UInt64]]) -> ChainProfile {
        ChainProfile(LatencyChangePropertyTests.traces(times))
    }

    @Test func runsOfTheSameHandlersSeldomChange() {
        var changed = 0
        var compared = 0
        for seed in SeededGenerator.seeds(60) {
            var random = SeededGenerator(seed: seed)
            var before: [String: [UInt64]] = [:]
            var after: [String: [UInt64]] = [:]
            for index in 0..<Int.random(in: 1...8, using: &random) {
                before["H\(index)"] = Self.times(&random, count: Int.random(in: 3...40, using: &random))
                after["H\(index)"] = Self.times(&random, count: Int.random(in: 3...40, using: &random))
            }
            for change in LatencyChange.between(Self.profile(before), Self.profile(after)) {
                compared += 1
                if change.verdict != .unchanged { changed += 1 }
            }
        }
        #expect(changed <= compared * 8 / 100, "\(changed) of \(compared)")
    }
}
