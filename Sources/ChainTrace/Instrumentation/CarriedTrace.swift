/// A command's trace that a framework integration carries with the command itself, for a framework whose hops of
/// one command run in different tasks and threads: Vapor runs each async middleware in a task of its own and the
/// rest on its event loop's futures, where no task-local of the request's first hop reaches. The integration keeps
/// this object with the request (in its storage) and opens and closes each hop on it.
///
/// The framework runs the hops of a command one inside the other — a hop opens after the hop it nests in opened,
/// and closes before it closes — though on different threads; the trace's lock orders their writes.
package final class CarriedTrace: Sendable {
    let trace: ActiveTrace

    /// The task every hop of a carried trace is recorded under: one task, so that its hops nest in the order they
    /// open whatever thread or task runs them. Not a task's identity (those are addresses, never odd).
    static let carrier = 1

    init(trace: ActiveTrace) {
        self.trace = trace
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
                isAsync: true,
                task: TaskHops.none
            )
        else { return nil }
        return CarriedTrace(trace: trace)
    }

    /// Opens the hop `handler`, nested in the innermost hop open; `false` when it is not recorded (the hop limit
    /// is reached, which the trace records as a loop, or the trace was delivered): call the handler all the same,
    /// and do not close it.
    package func open(_ handler: String) -> Bool {
        switch trace.begin(handler, task: Self.carrier, owner: Self.carrier) {
        case .opened: return true
        case .stopped, .traceIsOver: return false
        }
    }

    /// Closes the innermost open hop as its handler answered (`error` `nil`) or failed with `error`: *accepted* if no
    /// hop opened inside it, *passed* if one did, *failed* (or passing a failure on) if it failed, and *accepted*
    /// with the failure from below recovered if it answered after one.
    package func close(threw error: (any Error)?) {
        trace.end(error.map { .error($0) } ?? .value, role: .responder, task: Self.carrier)
    }

    /// Hands the trace to its recorder's sink; once only, after its last hop closed. A hop still open is recorded as
    /// open (the command ended while it ran).
    package func finish() {
        ChainTracing.finish(trace)
    }
}
