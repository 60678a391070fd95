import ChainTraceFastPath

/// A command's trace that a framework integration carries with the command itself, for a framework whose hops of
/// one command run on different threads and in different tasks: Vapor runs its middleware on its event loop's
/// futures and each async middleware in a task of its own, where no task-local of the request's first hop reaches.
/// The integration keeps this object with the request (in its storage) and opens and closes each hop on it.
///
/// The framework runs the hops of a command one inside the other — a hop opens after the hop it nests in opened,
/// and closes before it closes — though perhaps on different threads; this object's lock orders their writes, so
/// the trace inside needs no bookkeeping of tasks: one lock a hop's opening and one its closing.
///
/// A hop whose handler answers with something that completes later (a future) closes when that completes
/// (``closeHop(whenDone:)``); the hops that hand on the very future they were given close with it, with no callback
/// of their own.
///
/// `@unchecked Sendable`: `state` is only touched under `lock`.
package final class CarriedTrace: @unchecked Sendable {
    /// What the hops change, under `lock`.
    private struct State {
        /// `nil` once delivered: a hop after that (of a task that outlived the request) is not recorded.
        var trace: ActiveTrace?
        /// The hops waiting on the last thing a hop's handler answered with that was not complete.
        var awaited: AwaitedHops?
        /// `awaited`'s handle's identity (which it holds, so no other object takes it while it is kept).
        var awaitedHandle: ObjectIdentifier?
    }

    private let lock = WordLock()
    /// In a cell, read through its address: a hop reads the awaited hops in place. As stored `var`s of this class,
    /// each read was a retain and a release (`chaintrace-vapor-benchmarks`, "traceRequests(), traced").
    private let state = UncheckedCell.make(State())
    /// `state.trace`, lent unretained to the hops: alive while `state.trace` holds it, which a hop checks under the
    /// lock before it uses this (``withTrace(_:)``); only `finish` lets go of it, under the same lock. A trace read
    /// from `state` was retained and released around each call into it, two of each a hop.
    private let lent: UnretainedObject<ActiveTrace>

    init(trace: ActiveTrace) {
        lent = UnretainedObject(trace)
        state.value.trace = trace
    }

    /// Runs `body` on the trace, unretained, unless it has been delivered; call with the lock held.
    @inline(__always)
    private func withTrace<T>(_ body: (ActiveTrace) -> T) -> T? {
        guard state.value.trace != nil else { return nil }
        return lent.withObject(body)
    }

    /// Starts a trace of `command` on chain `chain`, or returns `nil` when it is not to be traced: no recorder in
    /// force, or the recorder's sampling or filter leaves it out. The recorder is the one in force where this is
    /// called — a `captureTraces` or `withRecorder` scope of the calling task, else the one bootstrapped.
    package static func start<Command>(command: Command, chain: String) -> CarriedTrace? {
        // A trace of its own whatever the calling task runs (`TaskHops.none`): the request is a command of its own.
        guard ChainTracing.mayRecord,
            let (trace, _) = ChainTracing.traceForHop(
                command: command,
                chain: { chain },
                isAsync: false,
                task: TaskHops.none
            )
        else { return nil }
        return CarriedTrace(trace: trace)
    }

    /// Opens the hop `handler`, nested in the innermost hop open; `false` when it is not recorded (the hop limit
    /// is reached, which the trace records as a loop, or the trace was delivered): call the handler all the same,
    /// and do not close it.
    package func open(_ handler: String) -> Bool {
        lock.withLock {
            withTrace { $0.beginNestedHop(handler) } ?? false
        }
    }

    /// Closes the innermost open hop as its handler answered (`error` `nil`) or failed with `error`: *accepted* if no
    /// hop opened inside it, *passed* if one did, *failed* (or passing a failure on) if it failed, and *accepted*
    /// with the failure from below recovered if it answered after one.
    package func close(threw error: (any Error)?) {
        lock.withLock { closeInnermost(threw: error) }
    }

    /// Closes the innermost open hop, unless the trace has been delivered; call with the lock held.
    private func closeInnermost(threw error: (any Error)?) {
        withTrace { $0.endNestedHop(threw: error, role: .responder) }
    }

    /// Closes the innermost open hop when `handle` — what its handler answered with, a future — completes. Returns
    /// what to complete when it does, or `nil` when nothing is left to do: `handle` is what the hop inside answered
    /// with, handed on as it was, so this hop closes with that one (at once, if it has completed). The caller hands
    /// the returned hops to `handle`'s completion (``AwaitedHops/complete(threw:context:)``).
    package func closeHop(whenDone handle: AnyObject) -> AwaitedHops? {
        lock.withLock {
            guard state.value.trace != nil else { return nil }
            // Compared by identity first, so that the common case, a hop handing on its inner hop's future, retains
            // nothing.
            if state.value.awaitedHandle == ObjectIdentifier(handle), state.value.awaited != nil {
                switch state.value.awaited?.completion {
                case .pending?: state.value.awaited?.joined += 1
                case .returned?: closeInnermost(threw: nil)
                case .threw(let error)?: closeInnermost(threw: error)
                case nil: break
                }
                return nil
            }
            let hops = AwaitedHops(trace: self, handle: handle)
            state.value.awaited = hops
            state.value.awaitedHandle = ObjectIdentifier(handle)
            return hops
        }
    }

    /// Closes `hops`, which completed with `error` (`nil`: an answer), and keeps `context()` for the trace's
    /// delivery if no hop closed before.
    fileprivate func complete(_ hops: AwaitedHops, threw error: (any Error)?, context: () -> (any Sendable)?) {
        let keepsContext = lock.withLock {
            hops.completion = error.map { .threw($0) } ?? .returned
            guard let trace = state.value.trace else { return false }
            for _ in 0...hops.joined { closeInnermost(threw: error) }
            return !trace.content.value.keptDeepestContext
        }
        guard keepsContext else { return }
        let kept = context()
        lock.withLock { state.value.trace?.keepDeepestContext { kept } }
    }

    /// What the first hops to close kept (``AwaitedHops/complete(threw:context:)``): the context to deliver the trace in.
    package var deepestContext: (any Sendable)? {
        lock.withLock { state.value.trace?.deepestContext }
    }

    /// Notes the span the command ran under (see ``ActiveTrace/setTraceParent(_:)``), before ``finish()``.
    package func setTraceParent(_ parent: TraceParent?) {
        lock.withLock { state.value.trace?.setTraceParent(parent) }
    }

    /// Hands the trace to its recorder's sink; once only, after its last hop closed. A hop still open is recorded as
    /// open (the command ended while it ran); a hop opened after this is not recorded. The finished trace is kept
    /// for the thread's next one when nothing else holds it.
    package func finish() {
        // Taken out under the lock, which orders every hop's writes before the delivery's reads.
        guard
            var finished = lock.withLock({ () -> ActiveTrace? in
                state.value.awaited = nil
                state.value.awaitedHandle = nil
                return state.value.trace.take()
            })
        else { return }
        let thread = ThreadState.current
        finished.deliver(id: thread.makeTraceID(), thread: thread)
        guard isKnownUniquelyReferenced(&finished) else { return }
        finished.retire()
        thread.spareActiveTrace = finished
    }
}

/// Hops of a ``CarriedTrace`` that close when what the innermost of them answered with completes: that hop, and
/// those around it that handed the same on (``CarriedTrace/closeHop(whenDone:)``).
///
/// `@unchecked Sendable`: its variables are only touched under its trace's lock.
package final class AwaitedHops: @unchecked Sendable {
    /// Whether what the hops wait on has completed, and how.
    enum Completion {
        case pending
        case returned
        case threw(any Error)
    }

    private let trace: CarriedTrace
    /// What the innermost hop answered with; held, so that no other object takes its address while this waits.
    let handle: AnyObject
    /// The hops around the innermost that close with it.
    var joined = 0
    var completion = Completion.pending

    init(trace: CarriedTrace, handle: AnyObject) {
        self.trace = trace
        self.handle = handle
    }

    /// Closes the hops as what they waited on completed with `error` (`nil`: an answer), innermost first; the first
    /// of the command's hops to close keeps `context()` — the context the framework's request runs in there — for
    /// the trace's delivery (see ``CarriedTrace/deepestContext``).
    package func complete(threw error: (any Error)?, context: () -> (any Sendable)?) {
        trace.complete(self, threw: error, context: context)
    }
}
