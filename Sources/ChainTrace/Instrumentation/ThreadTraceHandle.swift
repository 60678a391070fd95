import ChainTraceFastPath

/// The trace a thread is recording, for an integration whose hops know they run nested in it (the NIO probes: every
/// handler an event of a channel reaches runs on the channel's event loop, inside the probe's hop that handed the
/// event on): its hops open and close on the trace directly, once they have checked that it is still the thread's
/// (``isThreadsTrace``), without deciding again whether they join it, as `traceHop` does at every hop.
///
/// Not retained: valid only while the hop it was read in is open (a thread's trace lives as long as its outermost
/// hop). What that buys: about 55 instructions a traced NIO handler-event (`chaintrace-nio-benchmarks`,
/// "traceEventsNow(), traced into memory"; callgrind).
@usableFromInline package struct ThreadTraceHandle {
    @usableFromInline let trace: UnretainedObject<ActiveTrace>

    @usableFromInline init(_ trace: UnretainedObject<ActiveTrace>) {
        self.trace = trace
    }

    /// The calling thread's trace, while a synchronous hop of it is open; `nil` outside one.
    @inlinable
    package static var current: ThreadTraceHandle? {
        ThreadState.withCurrent { $0.activeTrace.map(ThreadTraceHandle.init) }
    }

    /// Whether this is still the calling thread's trace: not while a side call inside one of its hops (a command
    /// of another chain, sent from a handler) records a trace of its own, whose hops do not nest in this one.
    /// Told by the trace itself, which counts the side calls running in its hops: no read of the thread's state.
    @inlinable @inline(__always)
    package var isThreadsTrace: Bool {
        trace.withObject { !$0.hasSideCallOpen }
    }

    /// Opens a hop named `name` inside the innermost open one, as an instrumented synchronous hop does; `false`
    /// when the trace's hop limit is reached (the hop is recorded as a failure naming the loop, and must not be
    /// closed).
    @inlinable @inline(__always)
    package func open(_ name: String) -> Bool {
        trace.withObject { trace in
            trace.nextName.value.matches(name) ? trace.beginFollowingName() : trace.begin(name)
        }
    }

    /// Sets the decision of the innermost open hop, as ``ChainTracing/decide(_:reason:)`` does from inside it.
    package func decide(_ decision: Decision, reason: String?) {
        trace.withObject { $0.override(decision, reason: reason) }
    }

    /// Closes the innermost open hop, which returned normally: its decision inferred (passed if the event went on
    /// from it, else accepted) unless ``decide(_:reason:)`` set one.
    @inlinable @inline(__always)
    package func close() {
        trace.withObject { $0.endReturned(accepted: true, role: .responder) }
    }
}
