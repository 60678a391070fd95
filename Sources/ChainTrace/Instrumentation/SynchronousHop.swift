import CChainTraceSupport
import ChainTraceFastPath

extension ChainTracing {
    /// What every synchronous `traceHop` runs: the hop's body inside the command's trace, or just the body when
    /// no recorder is in force anywhere (one atomic load). `onLoop` gives the value to return instead of running the
    /// body when the hop limit is reached (`nil` runs it untraced). `command` is called only by a hop that may start
    /// a trace: a hop nested in the thread's trace makes none. The body is told whether it runs as a hop open in the
    /// thread's trace, which an integration that notes more about each hop (the NIO probes) would otherwise ask the
    /// thread's state again for.
    @inlinable
    static func runHop<Command, Result>(
        _ handler: () -> String,
        command: () -> Command,
        chain: () -> String,
        role: HandlerRole,
        judge: (Result) -> HopReturn,
        onLoop: (() -> Result)?,
        _ body: (_ isInThreadTrace: Bool) throws -> Result
    ) rethrows -> Result {
        guard mayRecord else { return try body(false) }
        return try ThreadState.withCurrent { thread in
            let outer = thread.activeTrace
            if let outer,
                _fastPath(thread.activeCommandType == ObjectIdentifier(Command.self))
                    || outer.withObject({ $0.isOfChain(chain()) })
            {
                // A hop nested in this thread's trace — all but a command's first: joined here, inline, without the
                // call that decides whether a new command is traced, and without retaining the trace.
                return try outer.withObject {
                    try runNested(handler, in: $0, role: role, judge: judge, onLoop: onLoop, body)
                }
            }
            // A side call — a hop for a command of another type, naming another chain than the thread's trace (or
            // the task's): a handler that, while it handles its command, sends another through another chain (an
            // audit log) — starts a trace of its own if the recorder admits its command, as if nothing were open;
            // the trace it ran in is the thread's again once it is over. Its hops neither nest in that trace nor
            // change the decision of the hop they ran in; the time they took is that hop's own. The common case, a
            // command of the trace's own type, is told apart by one comparison with the type kept beside the
            // thread's trace, marked likely: about 1.5 ns a traced hop (`chaintrace-benchmarks`, "instrumented chain
            // (traceHop), traced").
            // A hop inside a command the recorder chose not to trace (sampled out, filtered out), where no task's
            // trace could take it: untraced, after one load.
            if outer == nil, thread.untracedOutsideTaskTraces > 0 { return try body(false) }
            let outerType = thread.activeCommandType
            if let outer {
                thread.activeTrace = nil
                outer.withObject { $0.noteSideCall(starting: true) }
            }
            defer {
                if let outer {
                    outer.withObject { $0.noteSideCall(starting: false) }
                    (thread.activeTrace, thread.activeCommandType) = (outer, outerType)
                }
            }
            // The task-local is read in `traceForHop`, not here: read in the caller's module, it looked up
            // `TaskLocal<TaskHops>`'s generic metadata each command (~350 instructions).
            guard
                let (trace, isOutermost) = traceForHop(
                    command: command(),
                    chain: chain,
                    isAsync: false,
                    thread: thread,
                    task: outer == nil ? nil : TaskHops.none
                )
            else {
                // The command is not traced: its nested hops must not trace it either.
                let outsideTaskTraces = enterUntraced(thread)
                defer { leaveUntraced(thread, outsideTaskTraces: outsideTaskTraces) }
                return try body(false)
            }
            guard isOutermost else {
                // The task's async trace, joined by a synchronous hop: out of line, as it is rare.
                return try runInTaskTrace(
                    handler,
                    in: trace,
                    command: command,
                    chain: chain,
                    thread: thread,
                    role: role,
                    judge: judge,
                    onLoop: onLoop,
                    body
                )
            }
            // `trace` is held by this frame until the `defer` below has cleared the thread's unretained reference.
            thread.activeTrace = UnretainedObject(trace)
            thread.activeCommandType = ObjectIdentifier(Command.self)
            defer {
                thread.activeTrace = nil
                finishSynchronous(trace, thread: thread)
            }
            return try runNested(handler, in: trace, role: role, judge: judge, onLoop: onLoop, body)
        }
    }

    /// Notes on `thread` that an instrumented synchronous hop runs its command untraced, and returns whether it
    /// began where no task's trace was open (see ``ThreadStateFields/untracedOutsideTaskTraces``). Out of line: it
    /// reads the task-local, once a command.
    @usableFromInline
    static func enterUntraced(_ thread: ThreadState) -> Bool {
        thread.untracedDepth += 1
        let outsideTaskTraces = taskHopsOfCaller.trace == nil
        if outsideTaskTraces { thread.untracedOutsideTaskTraces += 1 }
        return outsideTaskTraces
    }

    /// Undoes ``enterUntraced(_:)`` when its hop ends.
    @inlinable
    static func leaveUntraced(_ thread: ThreadState, outsideTaskTraces: Bool) {
        thread.untracedDepth -= 1
        if outsideTaskTraces { thread.untracedOutsideTaskTraces -= 1 }
    }

    /// Runs a synchronous hop in the task's async trace, `trace` — or, if that trace has been delivered (the task
    /// outlived the command: an unstructured `Task` started in one of its hops), in a trace of its own.
    @usableFromInline @inline(never)
    static func runInTaskTrace<Command, Result>(
        _ handler: () -> String,
        in trace: ActiveTrace,
        command: () -> Command,
        chain: () -> String,
        thread: ThreadState,
        role: HandlerRole,
        judge: (Result) -> HopReturn,
        onLoop: (() -> Result)?,
        _ body: (_ isInThreadTrace: Bool) throws -> Result
    ) rethrows -> Result {
        let task = currentTaskIdentity()
        let name = handler()
        switch trace.begin(name, task: task, owner: taskHops.owner ?? task) {
        case .opened:
            return try runOpened(in: trace, task: task, role: role, judge: judge, body)
        case .stopped:
            if let onLoop { return onLoop() }
            return try body(false)
        case .traceIsOver:
            guard
                let (own, _) = traceForHop(
                    command: command(),
                    chain: chain,
                    isAsync: false,
                    thread: thread,
                    task: TaskHops.none
                )
            else {
                let outsideTaskTraces = enterUntraced(thread)
                defer { leaveUntraced(thread, outsideTaskTraces: outsideTaskTraces) }
                return try body(false)
            }
            thread.activeTrace = UnretainedObject(own)
            thread.activeCommandType = ObjectIdentifier(Command.self)
            defer {
                thread.activeTrace = nil
                finishSynchronous(own, thread: thread)
            }
            return try runNested({ name }, in: own, role: role, judge: judge, onLoop: onLoop, body)
        }
    }

    /// Runs a synchronous hop in `trace`, the thread's open trace or the one this hop just started.
    @inlinable
    static func runNested<Result>(
        _ handler: () -> String,
        in trace: ActiveTrace,
        role: HandlerRole,
        judge: (Result) -> HopReturn,
        onLoop: (() -> Result)?,
        _ body: (_ isInThreadTrace: Bool) throws -> Result
    ) rethrows -> Result {
        // Nearly every hop has the name the last trace had here: compared in line, and not passed on, the name the
        // autoclosure made is not retained and released around the call (see `StringIdentity`).
        let name = handler()
        let opened = trace.nextName.value.matches(name) ? trace.beginFollowingName() : trace.begin(name)
        guard opened else {
            if let onLoop { return onLoop() }
            return try body(false)
        }
        do {
            let result = try body(true)
            trace.end(judge(result), role: role)
            return result
        } catch {
            trace.end(.error(error), role: role)
            throw error
        }
    }

    /// Runs the body of a synchronous hop opened in the task's async trace, `trace`, in task `task`'s own nesting
    /// (see ``run(_:isOutermost:task:owner:role:judge:_:)``). Not bound to the task-local again for the body, as an
    /// async hop's is: synchronous code starts no child tasks. The hop is the task's, not the thread's: the body is
    /// told so.
    @inlinable
    static func runOpened<Result>(
        in trace: ActiveTrace,
        task: Int,
        role: HandlerRole,
        judge: (Result) -> HopReturn,
        _ body: (_ isInThreadTrace: Bool) throws -> Result
    ) rethrows -> Result {
        do {
            let result = try body(false)
            trace.end(judge(result), role: role, task: task)
            return result
        } catch {
            trace.end(.error(error), role: role, task: task)
            throw error
        }
    }

    /// Delivers a finished outermost synchronous trace to its sink, then keeps it for the thread's next one: a
    /// synchronous trace lives only in this thread's state and the hop that started it (no task holds it, and the
    /// sink was handed a `Trace` copied out of it), so nothing else can see it reused.
    @usableFromInline
    static func finishSynchronous(_ trace: consuming ActiveTrace, thread: ThreadState) {
        trace.deliver(id: thread.makeTraceID(), thread: thread)
        trace.retire()
        thread.spareActiveTrace = consume trace
    }

    /// Delivers a finished outermost trace to its sink.
    @usableFromInline
    static func finish(_ trace: ActiveTrace) {
        let thread = ThreadState.current
        trace.deliver(id: thread.makeTraceID(), thread: thread)
    }
}
