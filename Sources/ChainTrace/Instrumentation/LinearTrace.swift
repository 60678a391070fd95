import ChainTraceFastPath

/// A command's trace for a framework integration whose hops run one inside the other in one task — a middleware
/// stack awaiting `next`, each link built by the integration — recorded as a synchronous chain's is: no lock, no
/// per-task bookkeeping. The integration starts it at the command's first hop, runs the rest inside
/// ``run(isolation:_:)`` or between ``bind()`` and ``unbind()`` (which bind it to the task), and each later hop finds
/// it with ``binding``.
///
/// Only the task that started it records into it: a hop in a child task or an unstructured task that inherited the
/// binding runs untraced (``binding`` says so), so the trace is never written from two threads at once. What it
/// buys: the shared trace's lock and task bookkeeping, the task-local's enum and its retains — with the links'
/// own awaits, a traced middleware hop went from +237 to +57–65 ns over untraced
/// (`chaintrace-http-benchmarks`, "TracingRouter, traced into memory").
package struct LinearTrace: Sendable {
    /// `nil` for a command that is not traced (no recorder in force, sampled or filtered out): bound all the same,
    /// so that its later hops do not decide again.
    let trace: ActiveTrace?
    /// The task that started it, the only one whose hops it records.
    package let owner: Int

    /// The trace bound to the running task, if any.
    static let local = TaskLocal<LinearTrace?>(wrappedValue: nil)

    /// What the running task has bound.
    package enum Binding {
        /// Nothing: a hop here is a command's first, and may start a trace.
        case none
        /// The trace of the command this task handles: a hop here is one of its hops.
        case running(BoundLinearTrace)
        /// A command that is not traced, or another task's trace, inherited (a child task, or an unstructured task
        /// started in a hop): a hop here is not recorded, and starts nothing.
        case untraced
    }

    /// What the running task has bound: one task-local read, in place (``BoundLinearTrace``).
    package static var binding: Binding {
        guard let binding = taskLocalBinding(of: local) else { return .none }
        // Read where the task keeps it: no copy of the binding, so no retain of its trace.
        guard let (trace, owner) = binding.value?.unretainedTrace, owner == currentTaskIdentity() else {
            return .untraced
        }
        return .running(BoundLinearTrace(trace))
    }

    /// Its trace, unretained — its binding holds it — and the task that started it; `nil` when it records nothing.
    private var unretainedTrace: (UnretainedObject<ActiveTrace>, Int)? {
        guard let trace else { return nil }
        return (UnretainedObject(trace), owner)
    }

    /// Starts a trace of `command` on chain `chain` for the running task — one that records nothing when the
    /// command is not to be traced (no recorder in force here, sampled or filtered out) or the caller runs in no
    /// task. Bind it (``run(isolation:_:)``, ``bind()``) either way, so that the command's later hops do not decide
    /// again.
    package static func start<Command>(command: Command, chain: String) -> LinearTrace {
        let task = currentTaskIdentity()
        guard ChainTracing.mayRecord, task != 0,
            let (trace, _) = ChainTracing.traceForHop(
                command: command,
                chain: { chain },
                isAsync: false,
                task: TaskHops.none
            )
        else { return LinearTrace(trace: nil, owner: task) }
        return LinearTrace(trace: trace, owner: task)
    }

    /// Whether it records the command's hops.
    package var isTracing: Bool { trace != nil }

    /// Runs `body` with this trace bound to the task, so that its hops find it with ``binding``.
    package func run<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> T {
        bind()
        defer { Self.unbind() }
        return try await body()
    }

    /// Binds this trace to the running task until ``unbind()``, which the caller makes in the same function on every
    /// path out of it (a throw too): ``run(isolation:_:)`` without its body's frame, for an integration that awaits
    /// the command's hops itself.
    package func bind() {
        pushTaskLocalBinding(Self.local, self)
    }

    /// Ends the binding ``bind()`` made, once the command's hops returned or threw.
    package static func unbind() {
        popTaskLocalBinding()
    }

    /// Opens the hop `handler` inside the innermost one open; `false` when it is not recorded (the hop limit is
    /// reached, which the trace records as a loop): run the handler all the same, and do not close it.
    package func open(_ handler: String) -> Bool {
        // Through optional chaining, which borrows the trace: a `guard let` copy of it was a retain and a release a
        // hop.
        trace?.beginNestedHop(handler) ?? false
    }

    /// Closes the innermost open hop as its handler returned (`error` `nil`) or threw `error`: for a responder,
    /// *accepted* if no hop opened inside it, *passed* if one did, *failed* (or passing a failure on), and *accepted*
    /// with the failure from below recovered if it returned after one; for an observer, *continued* or *failed*.
    package func close(threw error: (any Error)?, role: HandlerRole) {
        trace?.endNestedHop(threw: error, role: role)
    }

    /// ``close(threw:role:)`` for a responder's hop. An overload, not a default argument: a default argument from
    /// another module is a call of its own a hop.
    package func close(threw error: (any Error)?) {
        close(threw: error, role: .responder)
    }

    /// Closes the innermost open hop as a handler that answered the command itself with a refusal — an error response
    /// it made without going on (a gRPC interceptor returning a rejected response): *accepted*, with `reason` (the
    /// response's status) recorded as the hop's reason.
    package func closeAnswered(reason: String) {
        trace?.end(.judged(.accepted, reason), role: .responder)
    }

    /// Sets the command's kind, for a command whose kind is known only once its hops ran (a request whose route a
    /// router finds as it goes): the kind the trace is delivered with.
    package func setCommandKind(_ kind: String) {
        trace?.about.value.kind = kind
    }

    /// Hands `trace`'s trace to its recorder's sink, once, after its binding ended and its first hop
    /// closed, and empties `trace`; the finished trace is kept for the thread's next one when nothing else holds it.
    package static func finish(_ trace: inout LinearTrace?) {
        guard let finished = trace.take(), var object = finished.trace else { return }
        let thread = ThreadState.current
        _ = consume finished
        object.deliver(id: thread.makeTraceID(), thread: thread)
        keepForReuse(&object, on: thread)
    }

    /// Keeps `trace`'s trace, which ``finish(_:)`` delivered while something else held it too, for the thread's next
    /// one when nothing else holds it now, and empties `trace`: for an integration whose hops hold the trace until
    /// the last of them is gone, after the trace was delivered (gRPC's, whose response stream may outlive it).
    package static func recycle(_ trace: inout LinearTrace?) {
        guard let finished = trace.take(), var object = finished.trace else { return }
        _ = consume finished
        keepForReuse(&object, on: ThreadState.current)
    }

    /// Keeps `object`, a delivered trace, as `thread`'s spare if nothing else holds it.
    private static func keepForReuse(_ object: inout ActiveTrace, on thread: ThreadState) {
        guard isKnownUniquelyReferenced(&object) else { return }
        object.retire()
        thread.spareActiveTrace = object
    }

    /// This trace without a reference of its own, for hops that run while something else holds it (an integration's
    /// per-command object that holds this one); `nil` when it records nothing.
    package var unretained: BoundLinearTrace? {
        trace.map { BoundLinearTrace(UnretainedObject($0)) }
    }
}

extension ActiveTrace {
    /// Opens the hop `handler` of a trace whose hops nest one in the other (``LinearTrace``, ``CarriedTrace``).
    func beginNestedHop(_ handler: String) -> Bool {
        nextName.value.matches(handler) ? beginFollowingName() : begin(handler)
    }

    /// Closes the innermost open hop of such a trace as its handler returned (`error` `nil`) or threw `error`.
    func endNestedHop(threw error: (any Error)?, role: HandlerRole) {
        if let error {
            end(.error(error), role: role)
        } else {
            end(.value, role: role)
        }
    }
}

/// The trace bound to the running task, read where the task keeps it rather than copied out: a hop opens and closes
/// it with no reference counting. Valid while the binding is — inside ``LinearTrace/run(isolation:_:)`` or after
/// ``LinearTrace/bind()``, which encloses every hop of the command and holds the trace — or, taken with
/// ``LinearTrace/unretained``, while what holds that ``LinearTrace`` does (gRPC's per-RPC object, whose response stream
/// may outlive the RPC's trace: holding it twice kept the delivered trace from being reused,
/// `chaintrace-grpc-benchmarks`, "traced", 0 interceptors). What it buys: the generic
/// copy `TaskLocal.get()` made of the bound value, and the retains and releases of its trace as the hop held it: 177
/// instructions (2 456 → 2 279) and four reference-count operations a traced middleware hop
/// (`chaintrace-http-benchmarks`, "TracingRouter, traced into memory"; callgrind).
package struct BoundLinearTrace {
    let trace: UnretainedObject<ActiveTrace>

    init(_ trace: UnretainedObject<ActiveTrace>) {
        self.trace = trace
    }

    /// ``LinearTrace/open(_:)``.
    package func open(_ handler: String) -> Bool {
        trace.withObject { $0.beginNestedHop(handler) }
    }

    /// ``LinearTrace/close(threw:)``.
    package func close(threw error: (any Error)?) {
        close(threw: error, role: .responder)
    }

    /// ``LinearTrace/close(threw:role:)``.
    package func close(threw error: (any Error)?, role: HandlerRole) {
        trace.withObject { $0.endNestedHop(threw: error, role: role) }
    }

    /// ``LinearTrace/closeAnswered(reason:)``.
    package func closeAnswered(reason: String) {
        trace.withObject { $0.end(.judged(.accepted, reason), role: .responder) }
    }

    /// ``LinearTrace/keepDeepestContext(_:)``.
    @inline(__always)
    package func keepDeepestContext(_ read: () -> (any Sendable)?) {
        trace.withObject { $0.keepDeepestContext(read) }
    }
}
