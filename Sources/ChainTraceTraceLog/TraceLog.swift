public import ChainTrace
import ChainTraceFiles
import ChainTraceJSON

/// A whole trace log read into memory.
public struct TraceLog: Sendable, Hashable {
    /// Every complete trace, in the order written.
    public var traces: [Trace]
    /// The incomplete last line, if the writer died mid-line.
    public var tornTail: TornTail?
}
