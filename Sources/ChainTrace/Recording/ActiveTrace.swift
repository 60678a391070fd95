import CChainTraceSupport
import ChainTraceFastPath
import ChainTraceJSON

/// The trace being built by an instrumented chain — handlers of your own that call `traceHop(_:command:chain:role:decide:_:)`.
///
/// The outermost hop creates it; hops that start while it is open nest inside it. Synchronous hops find it
/// through the thread, async hops through a task-local, so concurrent commands never share one.
///
/// `@unchecked Sendable` is sound: a trace started by an async hop is bound to a task-local, where child tasks
/// could reach it, so all its mutation goes through `lock` (a ``WordLock``: held only for a hop's bookkeeping,
/// never while other code runs). A trace started by a synchronous hop lives only in its thread's ``ThreadState``
/// and is never bound to a task, so only that thread ever touches it and it needs no lock.
@usableFromInline
final class ActiveTrace: @unchecked Sendable {
    /// A decision ``ChainTracing/decide(_:reason:)`` set for an open hop, by its record.
    struct Override {
        var record: Int
        var decision: Decision
        var reason: String?
    }

    /// What the trace is of: set when it starts, and again when a thread reuses this object for its next
    /// synchronous trace (see `reuse`); only read while it runs.
    struct About {
        /// `nil` while retired (see `retire`).
        var configuration: RecorderConfiguration?
        var chain: String
        var kind: String?
        var commandType = ""
        /// The command's type, by which a side call into another chain is told apart (see
        /// ``tracesCommands(of:)``).
        var commandTypeID: ObjectIdentifier?
        var commandID: String?
        var payload: JSONValue?
        var encodedPayload: (any EncodedPayload)?
        var start: UInt64 = 0
        var maximumHops: Int
    }

    /// In a cell, as `content` is: nine stored properties of the class were nine run-time exclusivity checks a
    /// command and three a hop (`chaintrace-benchmarks`, "instrumented chain" rows). Written only by `init`,
    /// `reuse` and `retire`, when no other thread can hold the trace.
    let about: UncheckedCell<About>
    var chain: String { about.value.chain }
    var start: UInt64 { about.value.start }
    var maximumHops: Int { about.value.maximumHops }
    private let usesCycleCounter = MonotonicClock.usesCycleCounter
    /// The identity of the name the next hop opened has if it is the last trace's name at that hop (names that
    /// follow the last trace's are not stored), else ``StringIdentity/none``. Read in line by the instrumented hop
    /// (`ChainTracing.runNested`), which then opens the hop with ``beginFollowingName()`` and passes no name: what
    /// that buys is in ``StringIdentity``. The lent names stay alive in `lastNames` while this is set. Only a trace
    /// of one thread keeps it; a shared trace's is always `none`.
    @usableFromInline let nextName = UncheckedCell.make(StringIdentity.none)
    /// Touched by one thread, or under `lock`: its accesses skip the run-time exclusivity check.
    let content = UncheckedCell.make(Content())
    /// Taken only by a shared trace's hops (``isShared``), but made for every trace: read from a property that is
    /// never `nil`, the lock is not retained and released around each critical section, as an optional one's was —
    /// two of each an async hop (`chaintrace-benchmarks`, "async instrumented chain (traceHop), traced").
    let lock = WordLock()
    /// Whether hops of this trace may run in several tasks at once (it was started by an async hop): then they
    /// open and close with ``begin(_:task:owner:)`` and ``end(_:role:task:)``, under ``lock``.
    let isShared: Bool
    /// ``isDelivered``: 1 once a shared trace has been handed to its sink. Set under the lock as the trace is
    /// built for its sink, so a hop opening under the lock sees it; published, so a hop can check it before.
    let delivered = PublishedCounter()

    /// Whether this shared trace has been handed to its sink: a hop of a task that outlived the command (an
    /// unstructured `Task` started in one of its hops inherits the trace's task-local) then starts a trace of its
    /// own instead of being added to this one and lost. One acquire load (a plain move on x86-64).
    @usableFromInline var isDelivered: Bool { delivered.value != 0 }

    init<Command>(
        command: Command,
        chain: String,
        configuration: RecorderConfiguration,
        maximumHops: Int,
        isShared: Bool,
        thread: ThreadState
    ) {
        self.isShared = isShared
        about = UncheckedCell.make(About(configuration: configuration, chain: chain, maximumHops: maximumHops))
        content.value.names.reserveCapacity(16)
        reuse(
            command: command,
            chain: chain,
            configuration: configuration,
            maximumHops: maximumHops,
            thread: thread
        )
    }

    /// Starts this trace for `command`: a new one, or a finished one that its thread reuses, keeping the memory
    /// its hops, names and frames had — an instrumented chain then allocates nothing per command for it. A
    /// finished trace is reused only by the thread that retired it, and only once nothing else holds it (see
    /// ``ChainTracing/recycle(_:)``).
    func reuse<Command>(
        command: Command,
        chain: String,
        configuration: consuming RecorderConfiguration,
        maximumHops: Int,
        thread: ThreadState
    ) {
        let capture = configuration.payloadCapture
        // Field by field, names only when they changed; a retired trace holds no recorder (`nil`) rather than a
        // placeholder whose reference count every thread would write once a command.
        let description = thread.withCommandTypeInfo(Command.self) { info in
            // Described first: the app's code it runs may send commands of this type (ReentrantDescriptionTests).
            let description = info.describe(command, capturing: capture)
            if about.value.commandType != info.typeName { about.value.commandType = info.typeName }
            return description
        }
        // Moved in, not copied: the caller's reference becomes the trace's (a retain and a release fewer).
        about.value.configuration = consume configuration
        if about.value.chain != chain { about.value.chain = chain }
        about.value.commandTypeID = ObjectIdentifier(Command.self)
        Self.replace(&about.value.kind, with: description.kind)
        Self.replace(&about.value.commandID, with: description.id)
        Self.replace(&about.value.payload, with: description.payload)
        Self.replace(&about.value.encodedPayload, with: description.encodedPayload)
        about.value.maximumHops = maximumHops
        // Nearly always empty: names that follow the last trace's are not stored.
        if !content.value.names.isEmpty { content.value.names.removeAll(keepingCapacity: true) }
        content.value.namesFollowLast = content.value.lastNames != nil
        content.value.records.removeAll()
        content.value.innermost = -1
        if !content.value.overrides.isEmpty { content.value.overrides.removeAll() }
        if !content.value.reasons.values.isEmpty { content.value.reasons = HopReasons() }
        if !content.value.tasks.isEmpty { content.value.tasks.removeAll() }
        content.value.rootTaskOnly = isShared
        content.value.failure = nil
        if !content.value.recovering.isEmpty { content.value.recovering.removeAll(keepingCapacity: true) }
        if !content.value.thrown.isEmpty { content.value.thrown.removeAll(keepingCapacity: true) }
        content.value.end = 0
        if content.value.keptDeepestContext { content.value.forgetDeepestContext() }
        if content.value.traceParent != nil { content.value.traceParent = nil }
        if isShared, delivered.value != 0 { delivered.store(0) }
        nextName.value = isShared ? .none : content.value.nextNameIdentity
        about.value.start = MonotonicClock.now()
    }

    /// Whether this trace is of a command of type `type`. A hop for a command of another type that names another
    /// chain (``isOfChain(_:)``), run inside one of this trace's hops, is a side call into that chain and starts a
    /// trace of its own; stages that hand each other commands of their own types under one chain's name are one
    /// trace.
    @usableFromInline
    func tracesCommands(of type: Any.Type) -> Bool {
        about.value.commandTypeID == ObjectIdentifier(type)
    }

    /// Whether a hop naming chain `name` (`""`: none) may be of this trace's chain.
    @usableFromInline
    func isOfChain(_ name: String) -> Bool {
        name.isEmpty || name == about.value.chain
    }

    /// Lets go of what this trace holds of its command and recorder, so that a finished trace kept for reuse
    /// keeps no sink, recorder or payload alive. Only for a trace nothing else holds.
    func retire() {
        // A shared trace was last written under its lock, perhaps on other threads: taking it once orders those
        // writes before this thread's (no other thread can take it now, so it need not be held).
        if isShared { lock.withLock {} }
        about.value.configuration = nil
        // Usually moved into the delivered trace already.
        Self.replace(&about.value.payload, with: nil)
        Self.replace(&about.value.encodedPayload, with: nil)
        Self.replace(&about.value.commandID, with: nil)
        Self.replace(&about.value.kind, with: nil)
        // Usually emptied by `describeFailures` already: a spare trace keeps none of the app's errors alive (and
        // `reuse` finds none).
        if !content.value.failureErrors.isEmpty { content.value.failureErrors.removeAll() }
        if !content.value.stoppedAtLimit.isEmpty { content.value.stoppedAtLimit.removeAll() }
        if content.value.keptDeepestContext { content.value.forgetDeepestContext() }
        if content.value.traceParent != nil { content.value.traceParent = nil }
    }

    /// Stores `value` in `slot` unless both are `nil`: most commands have no kind, id or payload of their own, and
    /// storing `nil` over `nil` still calls the runtime to release the old value. Skipping those calls took a
    /// traced 10-hop `traceHop` command from 6 247 to 6 027 instructions (callgrind, `chaintrace-benchmarks`).
    @inline(__always)
    static func replace<Value>(_ slot: inout Value?, with value: Value?) {
        if case .none = slot, case .none = value { return }
        slot = value
    }

    func now() -> UInt64 {
        usesCycleCounter ? chaintrace_read_cycle_counter() : MonotonicClock.monotonicNanoseconds()
    }

    /// Notes that a side call starts (`true`) or ends inside one of this trace's hops, while it is its thread's:
    /// the thread records the side call's trace instead. Out of line: rare.
    @usableFromInline
    func noteSideCall(starting: Bool) {
        content.value.sideCallsOpen += starting ? 1 : -1
    }

    /// Whether a side call is running inside one of this trace's hops (see ``noteSideCall(starting:)``).
    @usableFromInline
    var hasSideCallOpen: Bool { content.value.sideCallsOpen != 0 }

    func withContent<T>(_ body: (inout Content) -> T) -> T {
        guard isShared else { return body(&content.value) }
        return lock.withLock { body(&content.value) }
    }

    /// Opens a hop for `handler` in a trace of one thread (a shared trace's hops open with
    /// ``begin(_:task:owner:)``); returns `false` (and records a loop failure) if the hop limit is reached.
    @usableFromInline
    func begin(_ handler: String) -> Bool {
        assert(!isShared, "a shared trace's hops open with begin(_:task:owner:)")
        let startOffset = startOffset(first: content.value.records.isEmpty)
        guard content.value.records.count < maximumHops else { return stopAtLimit(handler, startOffset: startOffset) }
        // The common case, within the limit: no loop to report, so no string is made: with the same in `end`, about
        // 7 ns a hop (`chaintrace-benchmarks`, "instrumented chain (traceHop), traced").
        content.value.open(handler, startOffset: startOffset)
        nextName.value = content.value.nextNameIdentity
        return true
    }

    /// ``begin(_:)`` for a hop whose name ``nextName`` matched: the last trace's name at this hop, which is not
    /// stored again.
    @usableFromInline
    func beginFollowingName() -> Bool {
        assert(!isShared, "a shared trace's hops open with begin(_:task:owner:)")
        let startOffset = startOffset(first: content.value.records.isEmpty)
        guard content.value.records.count < maximumHops else {
            return stopAtLimit(
                content.value.lastNames?.names[content.value.records.count] ?? "",
                startOffset: startOffset
            )
        }
        content.value.openNamed(startOffset: startOffset)
        nextName.value = content.value.nextNameIdentity
        return true
    }

    /// ``begin(_:)`` at the hop limit: out of line, so that the common case needs no stack guard.
    @inline(never)
    private func stopAtLimit(_ handler: String, startOffset: UInt64) -> Bool {
        _ = recordLoop(handler, startOffset: startOffset, enclosing: content.value.innermost, in: &content.value)
        return false
    }

    /// Records `handler`'s hop, the one past the hop limit, as a failure naming the loop — closed as it is made,
    /// inside `enclosing` (-1 at the top), a record no hop is open in — and returns its record.
    func recordLoop(_ handler: String, startOffset: UInt64, enclosing: Int, in content: inout Content) -> Int {
        let index = content.records.count
        content.addName(handler)
        content.records.append(
            HopRecord(
                handler: Int32(truncatingIfNeeded: index),
                registry: -1,
                decision: .failed,
                parent: Int32(truncatingIfNeeded: enclosing),
                startOffset: startOffset,
                inclusiveDuration: 0,
                selfDuration: 0
            )
        )
        content.stoppedAtLimit.append(index)
        content.failure = content.failure ?? index
        content.end = start &+ startOffset
        if !isShared { nextName.value = content.nextNameIdentity }
        return index
    }

    /// When a hop opening now starts, from the trace's start: the first starts with the trace, with no second
    /// clock read.
    @inline(__always)
    func startOffset(first: Bool) -> UInt64 {
        first ? 0 : now() &- start
    }

    /// Closes the innermost hop. `returned` says how the handler came back: normally, with the "nothing" of an
    /// Optional result, with an error, or judged by the caller's `decide` closure.
    /// For a trace of one thread (a shared trace's hops close with ``end(_:role:task:)``).
    ///
    /// Inlinable, so that the instrumented hop, which knows which case it has when it has no `decide` closure,
    /// calls the plain case's function directly: passed to one call, the return was destroyed after it through a
    /// call for its payloads; about 24 instructions a hop fewer (callgrind, the traced `traceHop` row's chain).
    @inlinable
    func end(_ returned: HopReturn, role: HandlerRole) {
        switch returned {
        case .value: endReturned(accepted: true, role: role)
        case .nothing: endReturned(accepted: false, role: role)
        case .judged, .error: endJudged(returned, role: role)
        }
    }

    /// ``end(_:role:)`` for a hop that returned normally (`accepted`) or with the "nothing" of an Optional result.
    @usableFromInline
    func endReturned(accepted: Bool, role: HandlerRole) {
        assert(!isShared, "a shared trace's hops close with end(_:role:task:)")
        closeInnermostReturned(accepted: accepted, role: role, at: now())
    }

    /// Closes the innermost hop of one thread's hops — a trace of one thread's, or a shared trace's while only its
    /// root task has opened hops (``Content/rootTaskOnly``, under the lock) — as it returned normally at `now`.
    @inline(__always)
    func closeInnermostReturned(accepted: Bool, role: HandlerRole, at now: UInt64) {
        guard content.value.overrides.isEmpty else {
            return closeInnermost(accepted ? .value : .nothing, role: role, at: now)
        }
        // The common case, a hop that returned normally and was not overridden: no reason to set, so no string is
        // touched. A hop that forwarded (the command went on from it past observers) did not take it; an observer
        // continued.
        let record = content.value.innermost
        guard record >= 0 else { return }
        var decision = HopDecisionInference.returnedNormally(
            accepted: accepted,
            role: role,
            wentOn: content.value.wentOn(from: record)
        )
        // Returned a value while the trace has a failure: perhaps one it caught.
        if accepted, content.value.failure != nil { decision = recovered(record, role: role, decision: decision) }
        content.value.close(record, as: decision, at: now, traceStart: start)
    }

    /// The decision of hop `record`, which came back with a value while the trace has a failure: as
    /// ``HopDecisionInference`` infers it if the hop caught a failure from inside it (which then no longer ends the
    /// command), else `decision`. Out of line: rare. Called through the cell from a function of this object, taking
    /// and returning a plain decision: made in `endReturned` itself, its common path ran 5 more instructions a hop,
    /// and with an optional returned 3 more (`chaintrace-benchmarks`, "instrumented chain (traceHop), traced").
    @inline(never)
    func recovered(_ record: Int, role: HandlerRole, decision: Decision) -> Decision {
        let (recovered, acceptedInside) = content.value.recoverFailures(inside: record)
        guard recovered else { return decision }
        return HopDecisionInference.decide(.init(returned: .value, role: role, wentOn: true, caught: acceptedInside))
            .decision
    }

    /// ``end(_:role:)`` for a hop that threw or whose return the caller's `decide` closure judged.
    @usableFromInline
    func endJudged(_ returned: HopReturn, role: HandlerRole) {
        assert(!isShared, "a shared trace's hops close with end(_:role:task:)")
        closeInnermost(returned, role: role, at: now())
    }

    /// Closes the innermost hop of one thread's hops (see ``closeInnermostReturned(accepted:role:at:)``) as it
    /// `returned` at `now`, with every case: judged, failed or overridden.
    func closeInnermost(_ returned: HopReturn, role: HandlerRole, at now: UInt64) {
        let record = content.value.innermost
        guard record >= 0 else { return }
        // Looked for only when the hop failed.
        let failedInside: Bool
        switch returned {
        case .error, .judged(.failed, _): failedInside = content.value.failed(inside: record)
        default: failedInside = false
        }
        let (decision, reason, _) = Self.decision(
            for: returned,
            role: role,
            wentOn: content.value.wentOn(from: record),
            failedInside: failedInside,
            record: record,
            content: &content.value
        )
        content.value.close(record, as: decision, at: now, traceStart: start)
        // Nothing set this record's reason before (a loop's record is closed as it is made).
        if let reason { content.value.reasons.set(reason, at: record) }
    }

    /// The innermost open hop: of task `task` in a shared trace, else of the thread's; -1 when none is open.
    func innermostOpenHop(_ content: borrowing Content, task: Int) -> Int {
        guard isShared else { return content.innermost }
        if content.rootTaskOnly { return task == content.rootTask ? content.innermost : -1 }
        return content.tasks.innermost(of: task) ?? -1
    }
}
