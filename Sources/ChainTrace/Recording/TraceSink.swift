/// A destination for finished traces: memory, a trace log, a tracing backend.
///
/// Implement this protocol to send traces somewhere new. The recorder calls ``record(_:)-(Trace)`` once per traced
/// command, on the thread that ran the chain, right after the command's last hop. Implementations must be
/// thread-safe and should be quick: the caller's chain waits for them.
///
/// Commands the sink's own code sends while it takes a trace or a chain change — forwarding the trace through a
/// traced chain, an analytics pipeline say — are not traced: their traces would come back to the sink, which would
/// forward them again, without end. Work the sink hands to another thread or task is traced as any other; run the
/// sends there inside `ChainTracing.withRecorder(.off) { … }` (instrumented chains, and chains with no recorder of
/// their own), or leave the forwarded commands out with the recorder's `filter`.
///
/// ```swift
/// struct CountingSink: TraceSink {
///     let counter: Counter
///     func record(_ trace: Trace) { counter.increment(trace.outcome) }
/// }
/// ```
public protocol TraceSink: Sendable {
    /// Takes one finished trace.
    func record(_ trace: Trace)

    /// Takes one change made to a chain whose recorder sends here, right after the change, on the thread that
    /// made it. The default does nothing; a trace log writes it, so the log says what chain it was recorded on.
    func record(_ edit: ChainEdit)
}

extension TraceSink {
    /// Ignores chain changes.
    public func record(_ edit: ChainEdit) {}
}

/// Hands every trace to several sinks, in order.
public struct FanOutTraceSink: TraceSink {
    /// The sinks that receive each trace.
    public let sinks: [any TraceSink]

    /// Creates a sink that forwards to each of `sinks`.
    public init(_ sinks: [any TraceSink]) {
        self.sinks = sinks
    }

    public func record(_ trace: Trace) {
        for sink in sinks { sink.record(trace) }
    }

    public func record(_ edit: ChainEdit) {
        for sink in sinks { sink.record(edit) }
    }
}
