#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The Mann–Whitney U test (the Wilcoxon rank-sum test): whether two samples of times come from distributions of
/// which one tends to be larger, without assuming any shape — what `benchstat` asks of two sets of benchmark
/// runs before it calls a change a change.
///
/// Samples are given as counts of times by value (a profile keeps its times in histogram buckets: equal bucket
/// values are ties). With no ties and few times (at most ``exactLimit`` pairs) the p-value is exact; otherwise it
/// is the normal approximation, corrected for ties and for continuity.
struct RankSumTest: Sendable {
    /// How many times of each value, in increasing value order.
    typealias Counts = [(value: UInt64, count: UInt64)]

    /// The two-sided p-value: the chance of rank sums at least this far apart if both samples came from one
    /// distribution. 1 when either sample is empty.
    let pValue: Double
    /// Whether the second sample tends to be the larger (its rank sum is above what no difference gives).
    let secondIsLarger: Bool

    /// The most pairs (first count × second count) whose p-value is worked out exactly.
    static let exactLimit = 400

    /// How many orderings of two samples give each U, by the samples' sizes: they depend on the sizes alone, so a
    /// comparison of thousands of handlers with the same few hops each works them out once (each is
    /// first × second × (first × second) additions).
    struct Distributions {
        fileprivate var bySizes: [Int: [Double]] = [:]

        init() {}
    }

    /// Tests `first` against `second`, with the exact distributions worked out so far.
    init(_ first: Counts, _ second: Counts, distributions: inout Distributions) {
        let firstCount = first.reduce(0.0) { $0 + Double($1.count) }
        let secondCount = second.reduce(0.0) { $0 + Double($1.count) }
        guard firstCount > 0, secondCount > 0 else {
            (pValue, secondIsLarger) = (1, false)
            return
        }
        // U of the second sample: for each of its times, the first's times below it, and half those equal.
        var u = 0.0
        var firstBelow = 0.0
        var tieTerm = 0.0
        var ties = false
        var (i, j) = (0, 0)
        while i < first.count || j < second.count {
            let value = min(i < first.count ? first[i].value : .max, j < second.count ? second[j].value : .max)
            var inFirst = 0.0
            var inSecond = 0.0
            while i < first.count, first[i].value == value {
                inFirst += Double(first[i].count)
                i += 1
            }
            while j < second.count, second[j].value == value {
                inSecond += Double(second[j].count)
                j += 1
            }
            u += inSecond * (firstBelow + inFirst / 2)
            firstBelow += inFirst
            let tied = inFirst + inSecond
            if tied > 1 {
                tieTerm += tied * tied * tied - tied
                ties = true
            }
        }
        let mean = firstCount * secondCount / 2
        secondIsLarger = u > mean
        if !ties, firstCount * secondCount <= Double(Self.exactLimit) {
            let sizes = (first: Int(firstCount), second: Int(secondCount))
            let key = sizes.first << 32 | sizes.second
            let counts = distributions.bySizes[key] ?? Self.orderings(first: sizes.first, second: sizes.second)
            distributions.bySizes[key] = counts
            pValue = Self.exactPValue(u: u, counts: counts)
            return
        }
        let total = firstCount + secondCount
        let variance = firstCount * secondCount / 12 * ((total + 1) - tieTerm / (total * (total - 1)))
        guard variance > 0 else {
            // Every time the same: nothing tells the samples apart.
            pValue = 1
            return
        }
        let z = max(0, abs(u - mean) - 0.5) / variance.squareRoot()
        pValue = min(1, erfc(z / 2.0.squareRoot()))
    }

    /// The exact two-sided p-value of `u`, given how many orderings give each U (``orderings(first:second:)``): how
    /// many of the equally likely orderings of the times give a U at least as far from the mean, over all of them.
    static func exactPValue(u: Double, counts: [Double]) -> Double {
        let all = counts.reduce(0, +)
        let mean = Double(counts.count - 1) / 2
        let distance = abs(u - mean)
        var extreme = 0.0
        for k in counts.indices where abs(Double(k) - mean) >= distance - 1e-9 { extreme += counts[k] }
        return min(1, extreme / all)
    }

    /// How many orderings of `first` and `second` times with no ties give each U (0 … first × second).
    static func orderings(first: Int, second: Int) -> [Double] {
        let most = first * second
        // orderings[m][k]: orderings of m times of the first sample and the second's so far with U = k, built up one
        // time of the second sample at a time.
        var orderings = [[Double]](repeating: [Double](repeating: 0, count: most + 1), count: first + 1)
        for m in 0...first { orderings[m][0] = 1 }
        for n in 1...second {
            var next = [[Double]](repeating: [Double](repeating: 0, count: most + 1), count: first + 1)
            next[0][0] = 1
            for m in 1...first {
                for k in 0...(m * n) {
                    // The largest time is the second sample's (it adds m to U) or the first's (it adds nothing).
                    let secondLargest = k >= m ? orderings[m][k - m] : 0
                    let firstLargest = next[m - 1][k]
                    next[m][k] = secondLargest + firstLargest
                }
            }
            orderings = next
        }
        return orderings[first]
    }
}
