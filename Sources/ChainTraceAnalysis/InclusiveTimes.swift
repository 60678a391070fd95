public import ChainTrace
import Histogram

/// Each handler's inclusive times (its own and everything it forwarded to) and each command's whole time, as
/// histograms with two significant digits — what a ``ChainProfile`` sums but does not keep the spread of.
///
/// ```swift
/// var times = InclusiveTimes()
/// for trace in traces { times.add(trace) }
/// print(times.inclusiveTime(of: "Auth", atPercentile: 95))
/// ```
public struct InclusiveTimes: TraceCollector {
    /// Each handler's, by slot.
    private var histograms: [TimeDistribution] = []
    private var indexByName: [String: Int] = [:]
    private var commandTimes = Self.histogram()
    /// The handler slot of each name of the names last seen.
    private var slotByName = CompactNameMapping<Int>()

    /// No times yet.
    public init() {}

    /// The commands seen.
    public var commands: Int { Int(clamping: commandTimes.totalCount) }

    /// Adds a trace's hops and its whole time.
    public mutating func add(_ trace: Trace) {
        commandTimes.record(trace.duration)
        if !slotByName.isCurrent(for: trace) {
            // Taken out while `slot(of:)` adds slots.
            var mapping = slotByName
            slotByName = CompactNameMapping()
            mapping.update(for: trace) { slot(of: $0) }
            slotByName = mapping
        }
        let slots = slotByName.values
        trace.forEachCompactHop { hop in
            histograms[slots[hop.handler]].record(hop.inclusiveNanoseconds)
        }
    }

    /// Adds the times of the traces after this one's (histograms add exactly).
    public mutating func append(_ later: InclusiveTimes) {
        commandTimes.add(later.commandTimes)
        for (name, index) in later.indexByName {
            histograms[slot(of: name)].add(later.histograms[index])
        }
    }

    /// The handler's inclusive time at `percentile` (0–100) in nanoseconds; 0 if it never ran.
    public func inclusiveTime(of handler: String, atPercentile percentile: Double) -> UInt64 {
        guard let index = indexByName[handler], histograms[index].totalCount > 0 else { return 0 }
        return histograms[index].valueAtPercentile(percentile)
    }

    /// A command's whole time at `percentile` (0–100) in nanoseconds; 0 before any command.
    public func commandTime(atPercentile percentile: Double) -> UInt64 {
        commandTimes.totalCount == 0 ? 0 : commandTimes.valueAtPercentile(percentile)
    }

    private mutating func slot(of name: String) -> Int {
        if let index = indexByName[name] { return index }
        histograms.append(TimeDistribution())
        indexByName[name] = histograms.count - 1
        return histograms.count - 1
    }

    private static func histogram() -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(highestTrackableValue: 1 << 40, numberOfSignificantValueDigits: .two)
        histogram.autoResize = true
        return histogram
    }
}
