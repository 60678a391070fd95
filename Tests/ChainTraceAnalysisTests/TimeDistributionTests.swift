import ChainTraceTestSupport
import Histogram
import Testing

@testable import ChainTraceAnalysis

/// A ``TimeDistribution`` answers as the histogram every profile used to keep for each handler: generated times —
/// few and many, recorded one by one and by the count, distributions added together at any size — against a plain
/// HDR histogram (two significant digits, made for 2^40 ns and growing) given the same times. Totals, percentiles
/// (0, 100 and any between) and counts at or below a time must be equal.
@Suite("Time distributions")
struct TimeDistributionTests {
    static func plain() -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(highestTrackableValue: 1 << 40, numberOfSignificantValueDigits: .two)
        histogram.autoResize = true
        return histogram
    }

    static func time(_ random: inout SeededGenerator) -> UInt64 {
        switch Int.random(in: 0...4, using: &random) {
        case 0: UInt64.random(in: 0...10, using: &random)
        case 1: UInt64.random(in: 0...5_000, using: &random)
        case 2: UInt64.random(in: 0...50_000_000, using: &random)
        case 3: UInt64.random(in: 0...(1 << 45), using: &random)  // past the histogram's first size
        default: random.pick([0, 1, 99, 100, 255, 256, 1 << 40, (1 << 40) + 1])
        }
    }

    /// Some times into both, one by one or by the count.
    static func fill(
        _ distribution: inout TimeDistribution,
        _ histogram: inout Histogram<UInt64>,
        _ random: inout SeededGenerator
    ) {
        for _
            in 0..<random.pick([
                0, 1, 5, TimeDistribution.fewest - 1, TimeDistribution.fewest, TimeDistribution.fewest + 1, 200,
                TimeDistribution.fewest * 2,
            ])
        {
            let time = time(&random)
            let count = random.chance(0.2) ? UInt64.random(in: 1...40, using: &random) : 1
            distribution.record(time, count: count)
            histogram.record(time, count: count)
        }
    }

    @Test(arguments: SeededGenerator.seeds(300))
    func answersAsAHistogramWould(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var distribution = TimeDistribution()
        var histogram = Self.plain()
        Self.fill(&distribution, &histogram, &random)
        // Others added in, as profiles of a log's parts are.
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            var other = TimeDistribution()
            var otherHistogram = Self.plain()
            Self.fill(&other, &otherHistogram, &random)
            distribution.add(other)
            histogram.add(otherHistogram)
        }
        #expect(distribution.totalCount == histogram.totalCount, "seed \(seed)")
        guard histogram.totalCount > 0 else { return }
        for percentile in [0, 100, 50, 95, 99, 99.9, Double.random(in: 0...100, using: &random)] {
            #expect(
                distribution.valueAtPercentile(percentile) == histogram.valueAtPercentile(percentile),
                "seed \(seed): p\(percentile)"
            )
        }
        for _ in 0..<5 {
            let bound = Self.time(&random)
            #expect(
                distribution.count(atOrBelow: bound) == histogram.count(within: 0...bound),
                "seed \(seed): at or below \(bound)"
            )
        }
    }
}
