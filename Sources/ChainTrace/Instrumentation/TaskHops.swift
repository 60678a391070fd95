import ChainTraceFastPath

/// What the async instrumented hops of a task are part of (see ``ChainTracing/taskHops``).
@usableFromInline
enum TaskHops: Sendable {
    /// No instrumented hop is running in the task: the next one may start a trace.
    case none
    /// Hops join this trace; `owner` is the task whose hop bound it here (see
    /// ``ChainTracing/run(_:isOutermost:task:owner:role:judge:_:)``).
    case tracing(ActiveTrace, owner: Int)
    /// The command is not traced: hops run their bodies and record nothing.
    case skipping

    /// Whether hops join a trace (``tracing(_:owner:)``): read in place by the async hop's inlined code, which then
    /// takes its name's identity (see ``ChainTracing/openAsyncHop(_:nameIdentity:bound:command:chain:)``).
    @inlinable var isTracing: Bool {
        if case .tracing = self { return true }
        return false
    }

    /// The trace hops join, if any.
    @usableFromInline var trace: ActiveTrace? {
        if case .tracing(let trace, _) = self { return trace }
        return nil
    }

    /// The trace hops join, unretained, and the task whose hop bound it: `nil` unless ``tracing(_:owner:)``.
    /// Borrowing: read in place through ``ChainTracing/taskHopsLocal``'s address, the trace is not retained (see
    /// `OpenAsyncHop.trace`).
    @inline(__always)
    var unretainedTrace: (trace: UnretainedObject<ActiveTrace>, owner: Int)? {
        if case .tracing(let trace, let owner) = self { return (UnretainedObject(trace), owner) }
        return nil
    }

    /// The task whose hop bound the trace, if any.
    @usableFromInline var owner: Int? {
        if case .tracing(_, let owner) = self { return owner }
        return nil
    }
}
