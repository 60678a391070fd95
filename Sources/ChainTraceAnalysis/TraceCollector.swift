public import ChainTrace
public import ChainTraceTraceLog

/// Something that looks at every trace of a log while ``TraceLogProfiler`` profiles it, so that a second pass over
/// the log is not needed.
///
/// The profiler reads parts of a log on several threads at once: each part gets its own collector, made empty,
/// and the collectors are joined in log order — `append` is always given the collector of the traces that came
/// right after this one's. Joining must give what one collector adding every trace in order would.
public protocol TraceCollector: Sendable {
    /// Looks at the next trace of the log.
    mutating func add(_ trace: Trace)

    /// Takes in what `later` collected from the traces right after those this one saw.
    mutating func append(_ later: Self)
}

/// The collector of a plain profile: it keeps nothing.
public struct NoTraceCollector: TraceCollector {
    /// A collector that keeps nothing.
    public init() {}

    /// Does nothing.
    @inlinable public mutating func add(_ trace: Trace) {}

    /// Does nothing.
    @inlinable public mutating func append(_ later: NoTraceCollector) {}
}

/// Folded stacks summed on every core: each part of the log read at once sums its own, joined in log order.
extension FoldedStacksExport: TraceCollector {}
