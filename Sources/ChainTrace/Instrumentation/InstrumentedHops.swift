import ChainTraceFastPath
import CChainTraceSupport

/// What instrumented hops call: the hop itself, its trace, and the decision it records.
extension ChainTracing {
    /// Set while an async instrumented hop of a command the recorder chose not to trace runs: its nested hops
    /// (in this task and its children) must not start a trace for the same command.
    @usableFromInline @TaskLocal static var skipsCommand = false

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
        (ThreadState.current.activeTrace ?? ActiveTrace.current)?.override(decision, reason: reason)
    }

    /// The active trace a new hop joins — the thread's (synchronous hops only) or the task's — or a new one if the
    /// command is to be traced. `isOutermost` tells the caller it owns the trace. A trace started by an async
    /// hop is shared with the task's children, so it locks; one started by a synchronous hop is the thread's.
    ///
    /// A hop inside one of a command the recorder chose not to trace (sampled out, filtered out) starts nothing:
    /// deciding again for the same command would trace it from the middle, and count it twice for sampling.
    @usableFromInline
    static func traceForHop<Command>(
        command: Command,
        chain: () -> String,
        isAsync: Bool,
        thread: ThreadState = .current
    ) -> (trace: ActiveTrace, isOutermost: Bool)? {
        if !isAsync, let active = thread.activeTrace { return (active, false) }
        if let active = ActiveTrace.current { return (active, false) }
        if thread.untracedDepth > 0 || skipsCommand { return nil }
        refreshCache(thread)
        guard let configuration = (scopedRecorder ?? thread.cachedRecorder).configuration ?? UnscopedTraces.configuration,
            isAsync ? configuration.admitsInTask(command, thread: thread) : configuration.admits(command, thread: thread)
        else {
            return nil
        }
        if !isAsync, let spare = thread.spareActiveTrace {
            thread.spareActiveTrace = nil
            spare.reuse(command: command, chain: chain(), configuration: configuration, maximumHops: thread.cachedMaximumHops, thread: thread)
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

    /// Runs a synchronous hop's body inside the command's trace; `onLoop` gives the value to return instead of
    /// running the body when the hop limit is reached (`nil` runs it untraced).
    @inlinable
    static func runHop<Command, Result>(
        _ handler: () -> String,
        command: Command,
        chain: () -> String,
        role: HandlerRole,
        judge: (Result) -> HopReturn,
        onLoop: (() -> Result)?,
        _ body: () throws -> Result
    ) rethrows -> Result {
        let thread = ThreadState.current
        guard let (trace, isOutermost) = traceForHop(command: command, chain: chain, isAsync: false, thread: thread) else {
            // The command is not traced: its nested hops must not trace it either.
            thread.untracedDepth += 1
            defer { thread.untracedDepth -= 1 }
            return try body()
        }
        guard trace.begin(handler()) else {
            if let onLoop { return onLoop() }
            return try body()
        }
        if isOutermost { thread.activeTrace = trace }
        defer {
            if isOutermost {
                thread.activeTrace = nil
                finishSynchronous(trace, thread: thread)
            }
        }
        do {
            let result = try body()
            trace.end(judge(result), role: role)
            return result
        } catch {
            trace.end(.error(error), role: role)
            throw error
        }
    }

    /// Delivers a finished outermost synchronous trace to its sink, then keeps it for the thread's next one: a
    /// synchronous trace lives only in this thread's state and the hop that started it (no task holds it, and the
    /// sink was handed a `Trace` copied out of it), so nothing else can see it reused.
    @usableFromInline
    static func finishSynchronous(_ trace: ActiveTrace, thread: ThreadState) {
        finish(trace)
        trace.retire()
        thread.spareActiveTrace = trace
    }

    /// Delivers a finished outermost trace to its sink.
    @usableFromInline
    static func finish(_ trace: ActiveTrace) {
        trace.configuration.sink.record(trace.trace(id: ThreadState.current.makeTraceID()))
    }
}

extension ChainTracing {
    /// Runs an async hop's body for a command that is not traced, so that its nested hops do not trace it.
    @usableFromInline
    static func runUntraced<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        if skipsCommand { return try await body() }
        return try await $skipsCommand.withValue(true, operation: body)
    }

    /// Runs an async hop's body inside `trace`, binding the trace to the task when this hop started it.
    @usableFromInline
    static func run<Result>(
        _ trace: ActiveTrace,
        isOutermost: Bool,
        role: HandlerRole,
        judge: (Result) -> HopReturn,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        guard isOutermost else { return try await observe(trace, role: role, judge: judge, body) }
        defer { finish(trace) }
        return try await ActiveTrace.$current.withValue(trace) {
            try await observe(trace, role: role, judge: judge, body)
        }
    }

    private static func observe<Result>(
        _ trace: ActiveTrace,
        role: HandlerRole,
        judge: (Result) -> HopReturn,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        do {
            let result = try await body()
            trace.end(judge(result), role: role)
            return result
        } catch {
            trace.end(.error(error), role: role)
            throw error
        }
    }
}
