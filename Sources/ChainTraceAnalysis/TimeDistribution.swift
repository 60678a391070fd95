import Histogram

/// Times in nanoseconds, kept as an HDR histogram with two significant digits — but, while there are only a few,
/// as the times themselves. A histogram spans every bucket up to its largest time, kilobytes however few times it
/// holds (35 KB when made for 2^40 ns, as they once were), and a profile holds one or two for every handler it
/// saw, a report three: a log whose handlers are named per instance
/// (`Screen#4711`, a responder registered and gone again) made `stats` hold 6.5 GB for 90 000 handlers. Every
/// answer is the histogram's: a question about a few times is answered with the histogram's bucket arithmetic on
/// the times themselves (`TimeDistributionTests` compares the two on generated times).
struct TimeDistribution: Sendable {
    /// The times, while there are at most ``fewest`` and no histogram.
    private var few: [UInt64] = []
    private var histogram: Histogram<UInt64>?
    /// Whether ``histogram`` is made: asked instead of comparing the optional with `nil`, which copies the
    /// histogram (see ``record(_:count:)``).
    private var promoted = false

    /// The most times kept one by one (2 KB). With 32, `chaintrace report` of a log of 10 000 handler names, about
    /// a hundred hops each, peaked at 516 MB and took 5.9 s, `stats` 173 MB and 2.2 s; with 256, 397 MB and 2.7 s,
    /// 110 MB and 1.1 s (`stats` of the benchmark's log of a million traces of ten handlers: 1.06–1.14 s either way).
    static var fewest: Int { 256 }

    /// How many times were recorded.
    var totalCount: UInt64 { promoted ? histogram!.totalCount : UInt64(few.count) }

    /// Records a time, `count` times. On every hop of a replay whose self time is past the profile's exact
    /// counters, so the histogram is mutated where it lies: comparing the optional with `nil` copied it (and its
    /// counts' reference) on every call, and a replay of 100 000 commands ran 56% more instructions (callgrind).
    mutating func record(_ nanoseconds: UInt64, count: UInt64 = 1) {
        if promoted {
            if count == 1 { histogram!.record(nanoseconds) } else { histogram!.record(nanoseconds, count: count) }
            return
        }
        if few.count &+ Int(clamping: count) <= Self.fewest {
            for _ in 0..<Int(count) { few.append(nanoseconds) }
            return
        }
        promote()
        histogram!.record(nanoseconds, count: count)
    }

    /// Moves the times into a histogram.
    private mutating func promote() {
        histogram = Self.histogram(of: few)
        promoted = true
        few = []
    }

    /// Adds `other`'s times (exactly, as histograms add).
    mutating func add(_ other: TimeDistribution) {
        if other.promoted {
            if !promoted { promote() }
            histogram!.add(other.histogram!)
        } else {
            for time in other.few { record(time) }
        }
    }

    /// The time at `percentile` (0–100), as the histogram gives it: the highest time of its bucket.
    func valueAtPercentile(_ percentile: Double) -> UInt64 {
        if promoted { return histogram!.valueAtPercentile(percentile) }
        // What the histogram's walk over its buckets finds, worked out on the times themselves: the bucket of the
        // k-th smallest, k the count at the percentile; clamped as it clamps, between the least and the largest.
        guard !few.isEmpty else { return 0 }
        let sorted = few.sorted()
        let least = sorted[0]
        let largest = sorted[sorted.count - 1]
        if percentile == 0 { return least }
        if percentile >= 100 { return largest }
        let requested = min(max(percentile.nextDown, 0), 100)
        let countAtPercentile = max(1, Int((requested * Double(sorted.count) / 100).rounded(.up)))
        let kth = sorted[min(countAtPercentile, sorted.count) - 1]
        return max(min(Self.layout.highestEquivalentForValue(kth), largest), least)
    }

    /// How many times are at most `nanoseconds`, to the histogram's precision (a time in its bucket counts). (Not
    /// any range: the histogram traps on one that starts past its largest bucket.)
    func count(atOrBelow nanoseconds: UInt64) -> UInt64 {
        if promoted { return histogram!.count(within: 0...nanoseconds) }
        let bucket = Self.layout.lowestEquivalentForValue(nanoseconds)
        return UInt64(few.count { Self.layout.lowestEquivalentForValue($0) <= bucket })
    }

    /// How many times fell in each bucket, by the bucket's lowest value, in increasing order: the times as a rank
    /// test compares them (times in one bucket are ties).
    var bucketCounts: RankSumTest.Counts {
        if promoted {
            return histogram!.recordedValues().map { (Self.layout.lowestEquivalentForValue($0.value), $0.count) }
        }
        var counts: RankSumTest.Counts = []
        for time in few.map(Self.layout.lowestEquivalentForValue).sorted() {
            if let last = counts.last, last.value == time {
                counts[counts.count - 1].count += 1
            } else {
                counts.append((time, 1))
            }
        }
        return counts
    }

    /// A histogram of the profiles' precision, for the bucket arithmetic alone, which depends on the precision and
    /// not on the histogram's size or counts.
    private static let layout = Histogram<UInt64>(highestTrackableValue: 2, numberOfSignificantValueDigits: .two)

    /// The histogram every profile uses, holding `times`: sized for the largest of them, and growing.
    private static func histogram(of times: [UInt64]) -> Histogram<UInt64> {
        // The bucket layout depends on the precision alone, so a histogram made small and grown answers as one
        // made for 2^40 ns would.
        var histogram = Histogram<UInt64>(
            highestTrackableValue: max(2, times.max() ?? 2),
            numberOfSignificantValueDigits: .two
        )
        histogram.autoResize = true
        for time in times { histogram.record(time) }
        return histogram
    }
}
