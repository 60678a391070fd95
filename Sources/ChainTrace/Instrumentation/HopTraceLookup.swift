import CChainTraceSupport
import ChainTraceFastPath

/// What instrumented hops call: the hop itself, its trace, and the decision it records.
extension ChainTracing {
    /// What the async instrumented hops of the current task (and its children) are part of: nothing yet, a trace
    /// (the outermost hop's), or a command the recorder chose not to trace, whose nested hops must not start a
    /// trace for it. One task-local, so a hop learns all of it with one lookup — each lookup is a walk of the
    /// task's bindings, and an untraced async chain paid four a hop with them kept apart (`chaintrace-benchmarks`,
    /// "async instrumented chain" rows).
    @usableFromInline static let taskHopsLocal = TaskLocal(wrappedValue: TaskHops.none)

    /// ``taskHopsLocal``'s value in the calling task.
    static var taskHops: TaskHops { taskHopsLocal.get() }

    /// ``taskHops`` as the caller sees it, read only inside a task: the task-local is bound only by async hops
    /// (`runUntraced`, `observeBound`), which always run in one, so outside any task it is `.none`. What it buys:
    /// a synchronous chain's first hop reads no task-local — a lookup that walks the task's bindings, and outside a
    /// task the thread's: about 115 instructions a command fewer (callgrind, the traced `traceHop` row's chain);
    /// asking for the current task is one thread-local load.
    @usableFromInline
    static var taskHopsOfCaller: TaskHops {
        currentTaskIdentity() == 0 ? .none : taskHops
    }

    /// Sets the decision of the instrumented hop this code runs in, replacing the one the recorder would infer.
    ///
    /// ```swift
    /// func handle(_ event: Event) -> Bool {
    ///     traceHop("Analytics", command: event) {
    ///         analytics.log(event)
    ///         ChainTracing.decide(.continued, reason: "logged")
    ///         return next?.handle(event) ?? false
    ///     }
    /// }
    /// ```
    public static func decide(_ decision: Decision, reason: String? = nil) {
        runningTrace?.override(decision, reason: reason)
    }

    /// The trace of the instrumented hop this code runs in: the thread's, else the task's; `nil` outside any.
    static var runningTrace: ActiveTrace? {
        ThreadState.current.activeTrace?.object ?? taskHopsOfCaller.trace
    }

    /// The active trace a new hop joins — the task's (a synchronous caller has found no trace of its thread's to
    /// join) — or a new one if the command is to be traced. `isOutermost` tells the caller it owns the trace. A trace started by an async
    /// hop is shared with the task's children, so it locks; one started by a synchronous hop is the thread's.
    ///
    /// A hop inside one of a command the recorder chose not to trace (sampled out, filtered out) starts nothing:
    /// deciding again for the same command would trace it from the middle, and count it twice for sampling.
    ///
    /// - Parameters:
    ///   - task: The task's ``taskHops``, when the caller has read it already; `.none` for a hop that starts a
    ///     trace of its own whatever is open (a side call, see `runHop`).
    @usableFromInline
    static func traceForHop<Command>(
        command: Command,
        chain: () -> String,
        isAsync: Bool,
        thread: ThreadState = .current,
        task: TaskHops? = nil
    ) -> (trace: ActiveTrace, isOutermost: Bool)? {
        // A sink's own sends are not traced, and do not join a trace open around the sink (see
        // `ThreadStateFields.sinkDepth`).
        if thread.sinkDepth > 0 { return nil }
        // Outside any task, no task-local of ours is bound (see `taskHopsOfCaller`, `scopedRecorder(thread:)`):
        // asked once here for both.
        let inTask = currentTaskIdentity() != 0
        switch task ?? (inTask ? taskHops : .none) {
        case .tracing(let active, _):
            // Unless this hop is a side call into another chain, which starts its own (see `runHop`; an async
            // caller has told it apart already).
            if isAsync || active.tracesCommands(of: Command.self) || active.isOfChain(chain()) {
                return (active, false)
            }
        case .skipping: return nil
        case .none: break
        }
        if thread.untracedDepth > 0 { return nil }
        refreshCache(thread)
        guard
            let configuration = (scopedRecorder(thread: thread, inTask: inTask) ?? thread.cachedRecorder).configuration
                ?? UnscopedTraces.configuration(chain: chain),
            isAsync
                ? configuration.admitsInTask(command, thread: thread) : configuration.admits(command, thread: thread)
        else {
            return nil
        }
        if isAsync, let spare = thread.spareSharedTrace {
            thread.spareSharedTrace = nil
            spare.reuse(
                command: command,
                chain: chain(),
                configuration: configuration,
                maximumHops: thread.cachedMaximumHops,
                thread: thread
            )
            return (spare, true)
        }
        if !isAsync, let spare = thread.spareActiveTrace {
            thread.spareActiveTrace = nil
            spare.reuse(
                command: command,
                chain: chain(),
                configuration: configuration,
                maximumHops: thread.cachedMaximumHops,
                thread: thread
            )
            return (spare, true)
        }
        let trace = ActiveTrace(
            command: command,
            chain: chain(),
            configuration: configuration,
            maximumHops: thread.cachedMaximumHops,
            isShared: isAsync,
            thread: thread
        )
        return (trace, true)
    }
}
