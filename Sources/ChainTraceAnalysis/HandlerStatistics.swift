public import ChainTrace
import ChainTraceFastPath

/// What one handler did over many commands: how often it decided each way, and how long it took.
///
/// Times are in nanoseconds. Percentiles come from an HDR histogram with two significant digits (within 1%).
public struct HandlerStatistics: Sendable {
    /// The handler's name.
    public let handler: String
    /// The registry it ran in, if any.
    public internal(set) var registry: String?
    /// Commands it got.
    public internal(set) var seen = 0
    /// Commands it accepted.
    public internal(set) var accepted = 0
    /// Commands it passed on.
    public internal(set) var passed = 0
    /// Commands it observed and let continue.
    public internal(set) var continued = 0
    /// Commands it failed on.
    public internal(set) var failed = 0
    /// The sum of its self times.
    public internal(set) var totalSelfNanoseconds: UInt64 = 0
    /// Its budget from the chain definition, when one was given.
    public internal(set) var budgetNanoseconds: Int64?
    /// Self times, except those a profile still holds as pending (see ``HopCounters``).
    /// The longest self time recorded, exactly.
    private var largestSelfTime: UInt64 = 0
    private var selfTimes = TimeDistribution()
    /// The sum of its inclusive times (its own and what it forwarded to).
    public internal(set) var totalInclusiveNanoseconds: UInt64 = 0

    /// Starts empty statistics for `handler`.
    public init(handler: String) {
        self.handler = handler
    }

    /// Takes the counts a profile keeps apart.
    mutating func take(_ row: HopCounters.Row) {
        seen = row.seen
        accepted = row.accepted
        passed = row.passed
        continued = row.continued
        failed = row.failed
        totalSelfNanoseconds = row.totalSelfNanoseconds
        totalInclusiveNanoseconds = row.totalInclusiveNanoseconds
    }

    /// Records one self time in the histogram.
    mutating func record(selfTime nanoseconds: UInt64) {
        selfTimes.record(nanoseconds)
        largestSelfTime = max(largestSelfTime, nanoseconds)
    }

    /// Records self times counted per value: `counts[value]` times each.
    mutating func fold(_ counts: UnsafeBufferPointer<UInt32>) {
        for (value, count) in counts.enumerated() where count > 0 {
            selfTimes.record(UInt64(value), count: UInt64(count))
            largestSelfTime = max(largestSelfTime, UInt64(value))
        }
    }

    /// Adds another profile's self-time histogram of the same handler (exactly: the buckets add up), and its
    /// registry and budget when this one has none.
    mutating func merge(timesOf other: HandlerStatistics) {
        selfTimes.add(other.selfTimes)
        largestSelfTime = max(largestSelfTime, other.largestSelfTime)
        if registry == nil { registry = other.registry }
        if budgetNanoseconds == nil { budgetNanoseconds = other.budgetNanoseconds }
    }

    /// The count of one decision.
    public func count(of decision: Decision) -> Int {
        switch decision {
        case .accepted: accepted
        case .passed: passed
        case .continued: continued
        case .failed: failed
        }
    }

    /// Its self times by histogram bucket, for a rank test between runs.
    var selfTimeCounts: RankSumTest.Counts { selfTimes.bucketCounts }

    /// The self time at `percentile` (0–100), in nanoseconds; 0 before any hop.
    public func selfTime(atPercentile percentile: Double) -> UInt64 {
        // A histogram bucket reports its highest value; none is above the longest time seen.
        seen == 0 ? 0 : min(selfTimes.valueAtPercentile(percentile), largestSelfTime)
    }

    /// How many self times were at most `nanoseconds`, to the histogram's precision (two significant digits: a
    /// time in the same bucket as `nanoseconds` counts). The difference of two such counts is the bar of a
    /// histogram of this handler's self times; bars made so never count a time twice and add up to ``seen``.
    public func selfTimeCount(atOrBelow nanoseconds: UInt64) -> Int {
        seen == 0 ? 0 : Int(clamping: selfTimes.count(atOrBelow: nanoseconds))
    }

    /// The mean self time, in nanoseconds.
    public var meanSelfTime: Double { seen == 0 ? 0 : Double(totalSelfNanoseconds) / Double(seen) }

    /// The longest self time, in nanoseconds: exact, not a histogram bucket's.
    public var maximumSelfTime: UInt64 { seen == 0 ? 0 : largestSelfTime }
}
