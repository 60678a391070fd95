public import ChainTrace
import Histogram

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
    private var selfTimes = Histogram<UInt64>(highestTrackableValue: 1 << 40, numberOfSignificantValueDigits: .two)
    /// Self times below ``exactSelfTimeLimit`` nanoseconds — most hops of fast handlers — counted here per
    /// value and folded into `selfTimes` later: a counter increment per hop instead of a histogram record. The
    /// histogram keeps those values exactly too (its first bucket has one-nanosecond steps up to 256), so
    /// folding changes no result. Empty until the first such time.
    private var pendingSelfTimes: [UInt32] = []
    /// How many times `pendingSelfTimes` holds.
    private var pendingSelfTimeCount: UInt32 = 0
    /// The sum of its inclusive times (its own and what it forwarded to).
    public internal(set) var totalInclusiveNanoseconds: UInt64 = 0

    /// Starts empty statistics for `handler`.
    public init(handler: String) {
        self.handler = handler
        selfTimes.autoResize = true
    }

    /// Counts one hop (the registry is noted apart, the first time only, so no name is copied per hop).
    mutating func add(_ hop: CompactHop) {
        seen &+= 1
        switch hop.decision {
        case .accepted: accepted &+= 1
        case .passed: passed &+= 1
        case .continued: continued &+= 1
        case .failed: failed &+= 1
        }
        totalSelfNanoseconds &+= hop.selfNanoseconds
        recordSelfTime(hop.selfNanoseconds)
        totalInclusiveNanoseconds &+= hop.inclusiveNanoseconds
    }

    /// Self times below this many nanoseconds are counted in `pendingSelfTimes`.
    static let exactSelfTimeLimit: UInt64 = 256

    @inline(__always)
    private mutating func recordSelfTime(_ nanoseconds: UInt64) {
        guard nanoseconds < Self.exactSelfTimeLimit else {
            selfTimes.record(nanoseconds)
            return
        }
        if pendingSelfTimes.isEmpty { pendingSelfTimes = Array(repeating: 0, count: Int(Self.exactSelfTimeLimit)) }
        pendingSelfTimes.withUnsafeMutableBufferPointer { $0[Int(nanoseconds)] &+= 1 }
        pendingSelfTimeCount &+= 1
        // Folded long before a count could overflow.
        if pendingSelfTimeCount == 1 << 30 { settle() }
    }

    /// Folds the pending self times into the histogram, so reads need not.
    mutating func settle() {
        guard pendingSelfTimeCount > 0 else { return }
        Self.fold(pendingSelfTimes, into: &selfTimes)
        for index in pendingSelfTimes.indices { pendingSelfTimes[index] = 0 }
        pendingSelfTimeCount = 0
    }

    /// Every self time recorded: the histogram, with any pending times folded into a copy.
    private var allSelfTimes: Histogram<UInt64> {
        guard pendingSelfTimeCount > 0 else { return selfTimes }
        var all = selfTimes
        Self.fold(pendingSelfTimes, into: &all)
        return all
    }

    private static func fold(_ counts: [UInt32], into histogram: inout Histogram<UInt64>) {
        for (value, count) in counts.enumerated() where count > 0 {
            histogram.record(UInt64(value), count: UInt64(count))
        }
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

    /// The self time at `percentile` (0–100), in nanoseconds; 0 before any hop.
    public func selfTime(atPercentile percentile: Double) -> UInt64 {
        seen == 0 ? 0 : allSelfTimes.valueAtPercentile(percentile)
    }

    /// The mean self time, in nanoseconds.
    public var meanSelfTime: Double { seen == 0 ? 0 : Double(totalSelfNanoseconds) / Double(seen) }

    /// The longest self time, in nanoseconds.
    public var maximumSelfTime: UInt64 { seen == 0 ? 0 : allSelfTimes.max }
}
