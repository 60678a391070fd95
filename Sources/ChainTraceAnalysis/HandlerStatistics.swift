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
    /// The sum of its inclusive times (its own and what it forwarded to).
    public internal(set) var totalInclusiveNanoseconds: UInt64 = 0

    /// Starts empty statistics for `handler`.
    public init(handler: String) {
        self.handler = handler
        selfTimes.autoResize = true
    }

    /// Counts one hop (the registry is noted apart, the first time only, so no name is copied per hop).
    mutating func add(_ hop: CompactHop) {
        seen += 1
        switch hop.decision {
        case .accepted: accepted += 1
        case .passed: passed += 1
        case .continued: continued += 1
        case .failed: failed += 1
        }
        totalSelfNanoseconds &+= hop.selfNanoseconds
        selfTimes.record(hop.selfNanoseconds)
        totalInclusiveNanoseconds &+= hop.inclusiveNanoseconds
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
        seen == 0 ? 0 : selfTimes.valueAtPercentile(percentile)
    }

    /// The mean self time, in nanoseconds.
    public var meanSelfTime: Double { seen == 0 ? 0 : Double(totalSelfNanoseconds) / Double(seen) }

    /// The longest self time, in nanoseconds.
    public var maximumSelfTime: UInt64 { seen == 0 ? 0 : selfTimes.max }
}
