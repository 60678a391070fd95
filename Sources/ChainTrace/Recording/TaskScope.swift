/// What a task's scopes say about recording: the innermost `withRecorder(_:operation:)` scope's recorder, and
/// what the task's async instrumented hops are part of.
///
/// One task-local (``ChainTracing/taskScope``) rather than two: each read of a task-local walks the task's (or
/// thread's) bindings, and a traced instrumented command's first hop needs both facts. Kept apart, the two reads
/// were ~310 instructions a traced command (callgrind, `chaintrace-benchmarks` "instrumented chain (traceHop),
/// traced"), one read ~155.
@usableFromInline
struct TaskScope: Sendable {
    /// The innermost `withRecorder(_:operation:)` scope's recorder, if any.
    @usableFromInline var recorder: Recorder?
    /// What the task's async instrumented hops are part of.
    @usableFromInline var hops: TaskHops

    @usableFromInline
    init(recorder: Recorder?, hops: TaskHops) {
        self.recorder = recorder
        self.hops = hops
    }
}

/// What the async instrumented hops of a task (and its children) are part of: nothing yet, a trace (the outermost
/// hop's), or a command the recorder chose not to trace, whose nested hops must not start a trace for it.
@usableFromInline
enum TaskHops: Sendable {
    /// No instrumented hop is running in the task: the next one may start a trace.
    case none
    /// Hops join this trace.
    case tracing(ActiveTrace)
    /// The command is not traced: hops run their bodies and record nothing.
    case skipping

    /// The trace hops join, if any.
    @usableFromInline var trace: ActiveTrace? {
        if case .tracing(let trace) = self { return trace }
        return nil
    }

    @usableFromInline var isSkipping: Bool {
        if case .skipping = self { return true }
        return false
    }
}
