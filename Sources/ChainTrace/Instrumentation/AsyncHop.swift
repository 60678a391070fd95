import ChainTraceFastPath

/// What opening an async instrumented hop found, for the one async frame that runs its body (the public
/// `traceHop`): everything about the hop is decided and recorded by synchronous calls before and after the body,
/// so that the body is the only async call a hop makes. Each async frame in between cost the hop executor checks
/// (`swift_task_switch`) on its way in and out — `chaintrace-benchmarks`, "async instrumented chain" rows.
@usableFromInline
enum AsyncHopOpening {
    /// Nothing is traced here: run the body as it is.
    case untraced
    /// The command is not traced: run the body with ``TaskHops/skipping`` bound, so that its hops trace nothing.
    case skipping
    /// The hop limit is reached (the hop is recorded as a failure naming the loop): return the loop's value, or
    /// run the body untraced.
    case stopped
    /// The hop is open in the trace.
    case opened(OpenAsyncHop)
}

/// An async hop opened in its trace: what closing it needs.
@usableFromInline
struct OpenAsyncHop {
    /// The hop's trace, unretained: alive for the whole hop, held by the task-local binding the hop found it in —
    /// bound in a scope that encloses the hop, or inherited by the hop's task — or by ``owned``. Retaining it at
    /// every hop, and releasing it at its end, cost two atomic operations a hop (`chaintrace-benchmarks`, "async
    /// instrumented chain (traceHop), traced").
    @usableFromInline let trace: UnretainedObject<ActiveTrace>
    /// The trace the hop started, held until it delivers it when it ends; `nil` for a hop that joined one.
    @usableFromInline let owned: ActiveTrace?
    /// The task that opened it.
    @usableFromInline let task: Int
    /// Whether this hop binds the trace to ``ChainTracing/taskHops`` for its body, as `.tracing(trace, owner:
    /// task)`: it started the trace, or runs in another task than the one that bound it.
    @usableFromInline let bindsTask: Bool
}

extension ChainTracing {
    /// Opens an async hop for `handler`: joins the task's trace or starts one, or says why not. Synchronous, so
    /// that the caller's frame is the only async one. `bound` is where the task keeps its binding of
    /// ``taskHopsLocal`` (`nil`: none), read in place: the binding holds the trace for as long as this hop runs (see
    /// `OpenAsyncHop.trace`). `nameIdentity` is the identity of the name `handler` makes, taken in the caller's
    /// inlined code when the task has a trace to join (else ``StringIdentity/none``): a hop that joins it under the
    /// last trace's name at that hop opens by it (``ActiveTrace/beginFollowingName(_:task:)``), and `handler` is
    /// not called.
    ///
    /// A side call into another chain (see `runHop`) starts a trace of its own, bound to the task for its body;
    /// so does a hop whose task outlived the command whose trace it inherited (an unstructured `Task` started in
    /// one of its hops) once that trace was delivered, instead of being lost.
    @usableFromInline
    static func openAsyncHop<Command>(
        _ handler: () -> String,
        nameIdentity: StringIdentity,
        bound: TaskLocalBinding<TaskHops>?,
        command: Command,
        chain: () -> String
    ) -> AsyncHopOpening {
        guard let bound else { return openOutermost(handler, command: command, chain: chain) }
        if let (trace, owner) = bound.value.unretainedTrace {
            // Every hop of a command but its first: the task's trace is joined here, without the call that decides
            // whether a command is traced, and without a reference of its own to it.
            let task = currentTaskIdentity()
            let joined = trace.withObject { active -> JoiningHopOpening? in
                guard !active.isDelivered, active.tracesCommands(of: Command.self) || active.isOfChain(chain()),
                    ThreadState.withCurrent({ $0.sinkDepth == 0 })
                else { return nil }
                return active.beginFollowingName(nameIdentity, task: task)
            }
            switch joined {
            case .opened:
                return .opened(OpenAsyncHop(trace: trace, owned: nil, task: task, bindsTask: task != owner))
            case .needsName:
                return openHop(handler, in: trace, owned: nil, task: task, owner: owner)
            case nil:
                // A side call into another chain, or a task that outlived the command: a trace of its own.
                return openOutermost(handler, command: command, chain: chain)
            }
        }
        if case .skipping = bound.value { return .untraced }
        return openOutermost(handler, command: command, chain: chain)
    }

    /// Opens a hop that may start a trace: one where the task has none to join.
    private static func openOutermost<Command>(
        _ handler: () -> String,
        command: Command,
        chain: () -> String
    ) -> AsyncHopOpening {
        guard let (trace, _) = traceForHop(command: command, chain: chain, isAsync: true, task: TaskHops.none) else {
            return .skipping
        }
        return openHop(handler, in: UnretainedObject(trace), owned: trace, task: currentTaskIdentity(), owner: nil)
    }

    /// Opens `handler`'s hop in `trace`, whose hops in this task nest in those of `owner`, the task that bound it
    /// (`nil`: this one, which starts the trace and holds it, `owned`).
    @inline(__always)
    private static func openHop(
        _ handler: () -> String,
        in trace: UnretainedObject<ActiveTrace>,
        owned: consuming ActiveTrace?,
        task: Int,
        owner: Int?
    ) -> AsyncHopOpening {
        let owner = owner ?? task
        switch trace.withObject({ $0.begin(handler(), task: task, owner: owner) }) {
        case .opened:
            // The trace is bound for the body by the hop that started it, and again by a hop of another task than
            // the one that bound it (a child task's): the hops of that task's children then nest in this task's
            // hops, not in its parent's. A sequential chain, all in one task, binds once a command.
            let bindsTask = owned != nil || task != owner
            return .opened(OpenAsyncHop(trace: trace, owned: owned, task: task, bindsTask: bindsTask))
        case .stopped:
            return .stopped
        case .traceIsOver:
            // A hop of a task that outlived the command started just as its trace was delivered (after the check
            // above): untraced.
            return .untraced
        }
    }

    /// Closes `hop` as its body `returned`; the hop that started the trace delivers it, and keeps it for the
    /// thread's next async command when nothing else holds it.
    @usableFromInline
    static func closeAsyncHop(_ hop: consuming OpenAsyncHop, returned: HopReturn, role: HandlerRole) {
        let task = hop.task
        hop.trace.withObject { $0.end(returned, role: role, task: task) }
        guard var trace = hop.owned else { return }
        _ = consume hop
        finish(trace)
        recycle(&trace)
    }

    /// Keeps a finished async trace for the next one this thread starts, when nothing else holds it: the task's
    /// binding is gone and its child tasks are done, but an unstructured task started inside it keeps it (and
    /// may yet add hops to it), and then it is left alone. What it buys: a trace shared with child tasks is
    /// eight allocations — the object, its lock, its hops, frames and names — a command
    /// (`chaintrace-benchmarks`, "async instrumented chain (traceHop), traced").
    static func recycle(_ trace: inout ActiveTrace) {
        guard isKnownUniquelyReferenced(&trace) else { return }
        trace.retire()
        ThreadState.current.spareSharedTrace = trace
    }

    /// What every async `traceHop` runs: the hop's body in the command's trace, or just the body when no
    /// recorder is in force anywhere (one atomic load). `onLoop` gives the value to return instead of running
    /// the body when the hop limit is reached (`nil` runs it untraced). Always inlined into the public
    /// `traceHop`, so that a hop is one async frame around its body.
    @inlinable @inline(__always)
    static func runAsyncHop<Command, Result>(
        _ handler: () -> String,
        command: Command,
        chain: () -> String,
        role: HandlerRole,
        judge: (Result) -> HopReturn,
        onLoop: (() -> Result)?,
        isolation: isolated (any Actor)?,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        guard mayRecord else { return try await body() }
        let bound = taskHopsBinding(of: taskHopsLocal)
        // The name's identity, taken here where the optimiser sees `handler`'s string is only compared: passed to
        // the call as a string, it was retained and released around it (see `ActiveTrace.beginFollowingName`).
        // Only a hop with a trace to join makes it; a hop that may start one calls `handler` once it does.
        let nameIdentity = bound?.value.isTracing == true ? StringIdentity(of: handler()) : .none
        switch openAsyncHop(handler, nameIdentity: nameIdentity, bound: bound, command: command, chain: chain) {
        case .untraced:
            return try await body()
        case .skipping:
            return try await taskHopsLocal.withValue(.skipping, operation: body, isolation: isolation)
        case .stopped:
            if let onLoop { return onLoop() }
            return try await body()
        case .opened(let hop):
            let result: Result
            do {
                if hop.bindsTask {
                    result = try await taskHopsLocal.withValue(
                        .tracing(hop.trace.object, owner: hop.task),
                        operation: body,
                        isolation: isolation
                    )
                } else {
                    result = try await body()
                }
            } catch {
                closeAsyncHop(hop, returned: .error(error), role: role)
                throw error
            }
            closeAsyncHop(hop, returned: judge(result), role: role)
            return result
        }
    }
}
