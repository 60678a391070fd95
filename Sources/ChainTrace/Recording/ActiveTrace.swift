import ChainTraceJSON
import ChainTraceFastPath
import CChainTraceSupport

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

    struct Content: ~Copyable {
        /// The hops' handler names, when they differ from `lastNames`'s; while `namesFollowLast`, the names are
        /// `lastNames`'s first `records.count`, and nothing is stored per hop.
        var names: [String] = []
        var namesFollowLast = false
        /// The names of the last trace this object built, kept so that the next trace with the same names (nearly
        /// every trace of a chain) shares them instead of allocating its own.
        var lastNames: HandlerNameTable?
        /// `lastNames`'s names' identities, by hop (see `nextName`).
        var lastNameIdentities: [StringIdentity] = []
        /// The hops opened so far. An open hop's record is also its frame: `selfDuration` sums the inclusive time
        /// of the hops nested in it so far, and `parent` holds the record of the hop it is nested in (which it keeps
        /// when closed, for the trace) — so opening and closing a hop appends one record and writes two, with no
        /// stack of frames beside them (a second append and pop a hop; the numbers are in Docs/Performance.md).
        var records = PlainValueBuffer<HopRecord>()
        var reasons = HopReasons()
        /// Errors hops failed with, by record, whose text (``FailureText``) is made when the trace is delivered,
        /// after every hop's time was read: made as a hop closed, the app's `description` of its error (and the
        /// runtime's casts) ran while the hops around it were still timed, and counted as their own time — once a
        /// hop, since each hop the error went up through made it again. Nearly always empty.
        var failureErrors: [(record: Int, error: any Error)] = []
        /// Records of hops stopped at the hop limit, whose text — the loop, named — is made when the trace is
        /// delivered, for the same reason: made as the hop was stopped, a replay's first loop charged the hop it ran
        /// in 55–165 µs. Nearly always empty.
        var stoppedAtLimit: [Int] = []
        /// The record of the innermost open hop, or -1.
        var innermost = -1
        var overrides: [Override] = []
        /// The trace's first failure that no hop recovered from: the hop its outcome names.
        var failure: Int?
        /// Hops that returned normally after a hop inside them threw (they caught the error): every failure inside
        /// them is recovered from. Nearly always empty.
        var recovering: [Int] = []
        /// Hops that failed by throwing. Only a thrown failure can be caught: a hop that returns normally after
        /// one inside it failed by returning its error (judged by `decide`) may be handing that error up as its
        /// own return, as a validator chain that returns errors does. Nearly always empty.
        var thrown: [Int] = []
        var end: UInt64 = 0
        /// In a shared trace, hops of one command run in several tasks at once (a handler's child tasks), so no
        /// one hop is "the innermost": each task has its own, and each record notes its task, what went on inside
        /// it, and whether it is still open. Empty in a trace of one thread.
        var tasks = TaskHopState()

        /// The names of the hops opened so far.
        var currentNames: [String] {
            guard namesFollowLast, let lastNames else { return names }
            return Array(lastNames.names[..<records.count])
        }

        /// The handler name of hop `index` (below `records.count`).
        func name(at index: Int) -> String {
            guard namesFollowLast, let lastNames else { return names[index] }
            return lastNames.names[index]
        }

        /// Notes `handler` as the name of the hop about to be opened (the `records.count`th). The common case —
        /// the same name as the last trace's at this hop — is inlined into `begin`, the rest is a call: as one
        /// call, with `begin`'s shared-trace path in line too, the traced `traceHop` row was 3.5 ns a hop slower
        /// (eight interleaved runs, medians 49.8 and 46.3 ns).
        @inline(__always)
        mutating func addName(_ handler: String) {
            if namesFollowLast, let lastNames {
                let index = records.count
                if index < lastNames.names.count, lastNames.names[index] == handler { return }
            }
            addDifferentName(handler)
        }

        /// ``addName(_:)`` for a name the last trace's names do not have at this hop.
        @inline(never)
        mutating func addDifferentName(_ handler: String) {
            if namesFollowLast {
                names = currentNames
                namesFollowLast = false
            }
            names.append(handler)
        }

        /// Opens a hop for `handler`, `startOffset` after the trace's start, nested in the innermost open one (in a
        /// trace of one thread).
        /// Always inlined, as `close` is: left to the optimiser, the two made the traced `traceHop` row about
        /// 4 ns a hop slower (ten interleaved runs).
        @inline(__always)
        mutating func open(_ handler: String, startOffset: UInt64) {
            addName(handler)
            openNamed(startOffset: startOffset)
        }

        /// ``open(_:startOffset:)`` for a hop whose name has been noted already, or is the last trace's at this hop
        /// while the names follow it.
        @inline(__always)
        mutating func openNamed(startOffset: UInt64) {
            let index = records.count
            records.append(
                HopRecord(
                    handler: Int32(truncatingIfNeeded: index), registry: -1, decision: .passed,
                    parent: Int32(truncatingIfNeeded: innermost), startOffset: startOffset, inclusiveDuration: 0,
                    selfDuration: 0))
            innermost = index
        }

        /// The identity of the name the next hop would have if it follows the last trace's names, else
        /// ``StringIdentity/none``.
        @inline(__always)
        var nextNameIdentity: StringIdentity {
            let next = records.count
            return namesFollowLast && next < lastNameIdentities.count ? lastNameIdentities[next] : .none
        }

        /// Whether the command went on from open hop `record`, the innermost of a trace of one thread: a hop that
        /// did more than continue ran inside it (the next handler's, past any observers), so it did not take the
        /// command. Every record after the innermost open one was opened inside it, and is closed; they are read
        /// from the first until one did more than continue — nearly always the first. Read here rather than
        /// noted in the enclosing hop as each hop closes: noted, `traceHop` traced was ~4 ns a hop slower
        /// (`chaintrace-benchmarks`, interleaved runs).
        @inline(__always)
        func wentOn(from record: Int) -> Bool {
            var nested = record &+ 1
            while nested < records.count {
                if records[nested].decision != .continued { return true }
                nested &+= 1
            }
            return false
        }

        /// Whether a hop inside open hop `record`, the innermost of a trace of one thread, failed: an error it
        /// throws was then most likely handed up from there.
        func failed(inside record: Int) -> Bool {
            var nested = record &+ 1
            while nested < records.count {
                if records[nested].decision == .failed, !isRecovered(nested) { return true }
                nested &+= 1
            }
            return false
        }

        /// Whether failed hop `hop` is inside a hop that recovered from it (see ``recoverFailures(inside:)``).
        func isRecovered(_ hop: Int) -> Bool {
            !recovering.isEmpty && recovering.contains { isInside(hop, $0) }
        }

        /// Whether `hop` was opened inside `ancestor` (at any depth): its parents are followed up, each an earlier
        /// record.
        func isInside(_ hop: Int, _ ancestor: Int) -> Bool {
            var node = Int(records[hop].parent)
            while node > ancestor { node = Int(records[node].parent) }
            return node == ancestor
        }

        /// For hop `record`, returning normally while the trace has a failure: whether a hop inside it threw that
        /// no hop inside it recovered from — then it caught the error and recovered, every failure inside it no
        /// longer ends the command, and the trace's failure becomes the first (in time) of those no hop recovered
        /// from — and whether a hop inside it accepted (else it handled the command itself). Rare: only when some
        /// hop failed.
        mutating func recoverFailures(inside record: Int) -> (recovered: Bool, acceptedInside: Bool) {
            var failedInside = false
            var acceptedInside = false
            for hop in (record &+ 1)..<records.count where isInside(hop, record) {
                switch records[hop].decision {
                case .failed: if thrown.contains(hop), !isRecovered(hop) { failedInside = true }
                case .accepted: acceptedInside = true
                default: break
                }
            }
            guard failedInside else { return (false, acceptedInside) }
            recovering.append(record)
            var first: (end: UInt64, hop: Int)?
            for hop in 0..<records.count where records[hop].decision == .failed {
                guard !isRecovered(hop) else { continue }
                let end = records[hop].startOffset &+ records[hop].inclusiveDuration
                if first.map({ end < $0.end }) ?? true { first = (end, hop) }
            }
            failure = first?.hop
            return (true, acceptedInside)
        }

        /// Whether every failure inside `record` that still ends the command was thrown as a `CancellationError`,
        /// while `record` throws `error`, which is none: the hops inside it were cancelled by it (a timeout that won
        /// a race, a task group it cancelled), and the failure is its own. Out of line: only for a hop that threw
        /// after one inside it failed.
        @inline(never)
        func failedOnlyByCancellation(inside record: Int, throwing error: any Error) -> Bool {
            guard !(error is CancellationError) else { return false }
            var cancelled = false
            for hop in (record &+ 1)..<records.count where isInside(hop, record) && records[hop].decision == .failed {
                guard thrown.contains(hop), !isRecovered(hop) else { continue }
                guard let inner = failureErrors.first(where: { $0.record == hop }), inner.error is CancellationError else {
                    return false
                }
                cancelled = true
            }
            return cancelled
        }

        /// The decision of hop `record`, which came back with a value (or was judged to accept) while the trace has a
        /// failure, if it caught one (``recoverFailures(inside:)``): *accepted*, *passed* when a hop inside it
        /// accepted (a retry that worked), an observer's *continued*; `nil` when it caught none. Out of line: rare.
        @inline(never)
        mutating func decisionRecovering(_ record: Int, role: HandlerRole) -> Decision? {
            let (recovered, acceptedInside) = recoverFailures(inside: record)
            guard recovered else { return nil }
            return role == .observer ? .continued : acceptedInside ? .passed : .accepted
        }

        /// Closes the innermost open hop, `record`, as `decision` at `now`; the hop it was nested in becomes the
        /// innermost, and its nested time grows by this one's.
        @inline(__always)
        mutating func close(_ record: Int, as decision: Decision, at now: UInt64, traceStart: UInt64) {
            let opened = records[record]
            let inclusive = now &- (traceStart &+ opened.startOffset)
            // Open, `selfDuration` summed the nested hops' time.
            Self.fill(&records[record], decision: decision, inclusive: inclusive, nested: opened.selfDuration)
            let enclosing = Int(opened.parent)
            innermost = enclosing
            if enclosing >= 0 { records[enclosing].selfDuration &+= inclusive }
            end = now
        }

        /// Sets closed hop `record`'s self time (of a shared trace) to the part of its time that none of the hops
        /// opened directly inside it covered — the latency it added itself. Hops of child tasks run at once, so
        /// their times overlap: their sum (what `close` subtracts) can exceed the hop's whole time, and a stage that
        /// fans out to three services for 8 ms each in a 9 ms hop added 1 ms, not -15 (which wrapped, and was read
        /// as its whole time). For hops run one after the other, the same as the sum. Only for hops with later
        /// children: it reads the records after this one. A child still open (no time yet) covers nothing.
        mutating func subtractChildrenCovering(_ record: Int) {
            let enclosing = records[record]
            let (from, to) = (enclosing.startOffset, enclosing.startOffset &+ enclosing.inclusiveDuration)
            var intervals: [(start: UInt64, end: UInt64)] = []
            var child = record &+ 1
            while child < records.count {
                if Int(records[child].parent) == record, !tasks.records[child].isOpen {
                    let start = max(records[child].startOffset, from)
                    let end = min(records[child].startOffset &+ records[child].inclusiveDuration, to)
                    if end > start { intervals.append((start, end)) }
                }
                child &+= 1
            }
            intervals.sort { $0.start < $1.start }
            var covered: UInt64 = 0
            var current: (start: UInt64, end: UInt64)?
            for interval in intervals {
                if let open = current, interval.start <= open.end {
                    current = (open.start, max(open.end, interval.end))
                } else {
                    if let open = current { covered &+= open.end &- open.start }
                    current = interval
                }
            }
            if let open = current { covered &+= open.end &- open.start }
            records[record].selfDuration = enclosing.inclusiveDuration &- min(covered, enclosing.inclusiveDuration)
        }

        /// What went on in a hop closed as `decision` with `inside` inside it, for the hop it is nested in: a
        /// failure if it or a hop inside it failed, else `.passed` if it or a hop inside it did more than
        /// continue, else `.continued`.
        static func wentOn(_ decision: Decision, inside: Decision) -> Decision {
            if decision == .failed || inside == .failed { return .failed }
            return decision != .continued || inside == .passed ? .passed : .continued
        }

        /// Fills in a closed hop's record: one access to the array instead of one a field.
        private static func fill(_ record: inout HopRecord, decision: Decision, inclusive: UInt64, nested: UInt64) {
            record.decision = decision
            record.inclusiveDuration = inclusive
            record.selfDuration = inclusive &- nested
        }
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
    private let about: UncheckedCell<About>
    private var chain: String { about.value.chain }
    private var start: UInt64 { about.value.start }
    private var maximumHops: Int { about.value.maximumHops }
    private let usesCycleCounter = MonotonicClock.usesCycleCounter
    /// The identity of the name the next hop opened has if it is the last trace's name at that hop (names that
    /// follow the last trace's are not stored), else ``StringIdentity/none``. Read in line by the instrumented hop
    /// (`ChainTracing.runNested`), which then opens the hop with ``beginFollowingName()`` and passes no name: what
    /// that buys is in ``StringIdentity``. The lent names stay alive in `lastNames` while this is set. Only a trace
    /// of one thread keeps it; a shared trace's is always `none`.
    @usableFromInline let nextName = UncheckedCell.make(StringIdentity.none)
    /// Touched by one thread, or under `lock`: its accesses skip the run-time exclusivity check.
    private let content = UncheckedCell.make(Content())
    private let lock: WordLock?
    /// ``isDelivered``: 1 once a shared trace has been handed to its sink. Set under the lock as the trace is
    /// built for its sink, so a hop opening under the lock sees it; published, so a hop can check it before.
    private let delivered = PublishedCounter()

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
        self.lock = isShared ? WordLock() : nil
        about = UncheckedCell.make(About(configuration: configuration, chain: chain, maximumHops: maximumHops))
        content.value.names.reserveCapacity(16)
        reuse(
            command: command, chain: chain, configuration: configuration, maximumHops: maximumHops,
            thread: thread)
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
        content.value.failure = nil
        if !content.value.recovering.isEmpty { content.value.recovering.removeAll(keepingCapacity: true) }
        if !content.value.thrown.isEmpty { content.value.thrown.removeAll(keepingCapacity: true) }
        content.value.end = 0
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
        lock?.withLock {}
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
    }

    /// Stores `value` in `slot` unless both are `nil`: most commands have no kind, id or payload of their own, and
    /// storing `nil` over `nil` still calls the runtime to release the old value. Skipping those calls took a
    /// traced 10-hop `traceHop` command from 6 247 to 6 027 instructions (callgrind, `chaintrace-benchmarks`).
    @inline(__always)
    private static func replace<Value>(_ slot: inout Value?, with value: Value?) {
        if case .none = slot, case .none = value { return }
        slot = value
    }

    private func now() -> UInt64 {
        usesCycleCounter ? chaintrace_read_cycle_counter() : MonotonicClock.monotonicNanoseconds()
    }

    private func withContent<T>(_ body: (inout Content) -> T) -> T {
        guard let lock else { return body(&content.value) }
        return lock.withLock { body(&content.value) }
    }

    /// Opens a hop for `handler` in a trace of one thread (a shared trace's hops open with
    /// ``begin(_:task:owner:)``); returns `false` (and records a loop failure) if the hop limit is reached.
    @usableFromInline
    func begin(_ handler: String) -> Bool {
        assert(!isShared, "a shared trace's hops open with begin(_:task:owner:)")
        let startOffset = startOffset(first: content.value.records.isEmpty)
        guard content.value.records.count < maximumHops else { return stopAtLimit(handler, startOffset: startOffset) }
        // The common case, within the limit: no loop to report, so no string is made. What this and the same in
        // `end` buy is in Docs/Performance.md ("Runs 27–31"): 7.7 ns a hop.
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
            return stopAtLimit(content.value.lastNames?.names[content.value.records.count] ?? "", startOffset: startOffset)
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
    private func recordLoop(_ handler: String, startOffset: UInt64, enclosing: Int, in content: inout Content) -> Int {
        let index = content.records.count
        content.addName(handler)
        content.records.append(
            HopRecord(
                handler: Int32(truncatingIfNeeded: index), registry: -1, decision: .failed,
                parent: Int32(truncatingIfNeeded: enclosing), startOffset: startOffset, inclusiveDuration: 0,
                selfDuration: 0))
        content.stoppedAtLimit.append(index)
        content.failure = content.failure ?? index
        content.end = start &+ startOffset
        if !isShared { nextName.value = content.nextNameIdentity }
        return index
    }

    /// Whether hops of this trace may run in several tasks at once (it was started by an async hop): then they
    /// open and close with ``begin(_:task:owner:)`` and ``end(_:role:task:)``.
    private var isShared: Bool { lock != nil }

    /// Opens a hop for `handler` in task `task` of a shared trace, nested in that task's innermost open hop — or,
    /// for the task's first, in `owner`'s: the task whose hop bound the trace to the task-local this one sees
    /// (its parent, since a task's first hop binds it for its own children). Returns ``SharedHopOpening/stopped``
    /// (and records a loop failure) if the hop limit is reached, and ``SharedHopOpening/traceIsOver`` if the trace
    /// has been delivered: the hop runs in a task that outlived the command (an unstructured `Task` started in one
    /// of its hops inherits the trace's task-local), and starts a trace of its own instead of being lost.
    @usableFromInline
    func begin(_ handler: String, task: Int, owner: Int) -> SharedHopOpening {
        withContent { content in
            // Its trace was delivered already: the hop runs in a task that outlived the command (an unstructured
            // `Task` started inside it), after its last hop ended.
            guard !isDelivered else { return .traceIsOver }
            let startOffset = startOffset(first: content.records.isEmpty)
            let index = content.records.count
            let enclosing = content.tasks.innermost(of: task) ?? content.tasks.innermost(of: owner) ?? -1
            guard index < maximumHops else {
                content.tasks.opened(
                    recordLoop(handler, startOffset: startOffset, enclosing: enclosing, in: &content), in: task,
                    parent: enclosing, isOpen: false)
                // A hop inside the one it was to nest in failed.
                if enclosing >= 0 { content.tasks.note(.failed, inside: enclosing) }
                return .stopped
            }
            content.addName(handler)
            content.records.append(
                HopRecord(
                    handler: Int32(truncatingIfNeeded: index), registry: -1, decision: .passed,
                    parent: Int32(truncatingIfNeeded: enclosing), startOffset: startOffset, inclusiveDuration: 0,
                    selfDuration: 0))
            content.tasks.opened(index, in: task, parent: enclosing, isOpen: true)
            return .opened
        }
    }

    /// Closes task `task`'s innermost open hop of a shared trace (see ``end(_:role:)``); the hop it was nested in
    /// becomes the task's innermost if it is the task's own.
    @usableFromInline
    func end(_ returned: HopReturn, role: HandlerRole, task: Int) {
        let now = now()
        withContent { content in
            guard let record = content.tasks.innermost(of: task) else { return }
            var inside = content.tasks.records[record].inside
            let (decision, reason, recovered) = Self.decision(
                for: returned, role: role, wentOn: inside != .continued, failedInside: inside == .failed, record: record,
                content: &content)
            // What went on inside a hop that caught a failure, for the hop it ran in: the command went on (to the hop
            // that failed), but no failure came out.
            if recovered { inside = .passed }
            let enclosing = Int(content.records[record].parent)
            content.close(record, as: decision, at: now, traceStart: start)
            // Hops run at once inside it: its own time is what none of them covered, not its time less their sum.
            if content.tasks.records[record].hasLaterChildren { content.subtractChildrenCovering(record) }
            if enclosing >= 0 { content.tasks.note(Content.wentOn(decision, inside: inside), inside: enclosing) }
            // `close` is for one thread's hops, nested one in the other; here the innermost is the task's.
            content.innermost = -1
            content.tasks.closed(record, enclosing: enclosing, in: task)
            if let reason { content.reasons.set(reason, at: record) }
        }
    }

    /// Where a registry's members' hops begin: the registry's own hop, open while its members are asked (see
    /// ``traceRegistryMembers(_:)``), and the first record made since.
    struct MemberScope: Sendable {
        var registry: Int32
        var first: Int
    }

    /// Starts marking the hops opened directly inside the innermost open hop (of the calling task, in a shared
    /// trace) as that hop's registry's members; `nil` when no hop is open (or the trace was delivered).
    func openMembers() -> MemberScope? {
        let task = isShared ? currentTaskIdentity() : 0
        return withContent { content in
            guard !isDelivered else { return nil }
            let registry = innermostOpenHop(content, task: task)
            guard registry >= 0 else { return nil }
            return MemberScope(registry: Int32(truncatingIfNeeded: registry), first: content.records.count)
        }
    }

    /// Marks each hop opened since `scope` began directly inside its registry's hop as a member of that registry:
    /// the registry's name is its hop's, so the record names the hop (as ``HopRecord/handler`` does).
    ///
    /// Marked when the members have been asked, not as each opens: a hop opening looks at nothing more.
    func closeMembers(_ scope: MemberScope) {
        withContent { content in
            guard !isDelivered, scope.first < content.records.count else { return }
            for index in scope.first..<content.records.count
            where content.records[index].parent == scope.registry && content.records[index].registry < 0 {
                content.records[index].registry = scope.registry
            }
        }
    }

    /// Marks the innermost open hop (of the calling task, in a shared trace) as a member of the registry whose hop,
    /// named `registry`, is the nearest of the hops it runs inside with that name; `false` when no hop is open or
    /// none it runs inside has that name.
    func markMember(of registry: String) -> Bool {
        let task = isShared ? currentTaskIdentity() : 0
        return withContent { content in
            guard !isDelivered else { return false }
            let hop = innermostOpenHop(content, task: task)
            guard hop >= 0 else { return false }
            var enclosing = Int(content.records[hop].parent)
            while enclosing >= 0 {
                if content.name(at: enclosing) == registry {
                    content.records[hop].registry = Int32(truncatingIfNeeded: enclosing)
                    return true
                }
                enclosing = Int(content.records[enclosing].parent)
            }
            return false
        }
    }

    /// When a hop opening now starts, from the trace's start: the first starts with the trace, with no second
    /// clock read.
    @inline(__always)
    private func startOffset(first: Bool) -> UInt64 {
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
        let now = now()
        guard content.value.overrides.isEmpty else { return end(accepted ? .value : .nothing, role: role, at: now) }
        // The common case, a hop that returned normally and was not overridden: no reason to set, so no string is
        // touched. A hop that forwarded (the command went on from it past observers) did not take it; an observer
        // continued.
        let record = content.value.innermost
        guard record >= 0 else { return }
        var decision: Decision =
            role == .observer
            ? .continued
            : accepted && !content.value.wentOn(from: record) ? .accepted : .passed
        // Returned a value while the trace has a failure: perhaps one it caught.
        if accepted, content.value.failure != nil { decision = recovered(record, role: role, decision: decision) }
        content.value.close(record, as: decision, at: now, traceStart: start)
    }

    /// ``Content/decisionRecovering(_:role:)``, else `decision`: called through the cell from a function of this
    /// object, taking and returning a plain decision. With the call made in `endReturned` itself its common path ran
    /// 5 more instructions a hop, and with an optional returned 3 more (callgrind, the traced `traceHop` row).
    @inline(never)
    private func recovered(_ record: Int, role: HandlerRole, decision: Decision) -> Decision {
        content.value.decisionRecovering(record, role: role) ?? decision
    }

    /// ``end(_:role:)`` for a hop that threw or whose return the caller's `decide` closure judged.
    @usableFromInline
    func endJudged(_ returned: HopReturn, role: HandlerRole) {
        assert(!isShared, "a shared trace's hops close with end(_:role:task:)")
        end(returned, role: role, at: now())
    }

    /// ``end(_:role:)`` at `now`, with every case: judged, failed or overridden.
    private func end(_ returned: HopReturn, role: HandlerRole, at now: UInt64) {
        withContent { content in
            let record = content.innermost
            guard record >= 0 else { return }
            // Looked for only when the hop failed.
            let failedInside: Bool
            switch returned {
            case .error, .judged(.failed, _): failedInside = content.failed(inside: record)
            default: failedInside = false
            }
            let (decision, reason, _) = Self.decision(
                for: returned, role: role, wentOn: content.wentOn(from: record), failedInside: failedInside, record: record,
                content: &content)
            content.close(record, as: decision, at: now, traceStart: start)
            // Nothing set this record's reason before (a loop's record is closed as it is made).
            if let reason { content.reasons.set(reason, at: record) }
        }
    }

    /// The decision (and reason) of open hop `record`, which returned `returned`: a hop from which the command
    /// `wentOn` past observers did not stop the chain, an error thrown by a hop inside which a hop failed
    /// (`failedInside`) was handed back up from there and belongs to the hop where it started, a hop that came
    /// back with a value after catching a failure recovered (`recovered`), an observer continued, and
    /// ``ChainTracing/decide(_:reason:)`` overrides all of it. Notes the trace's first failure, and a thrown one.
    private static func decision(
        for returned: HopReturn, role: HandlerRole, wentOn: Bool, failedInside: Bool, record: Int,
        content: inout Content
    ) -> (decision: Decision, reason: String?, recovered: Bool) {
        var decision: Decision
        var reason: String?
        // Whether the error it threw is its reason: its text is made when the trace is delivered (see
        // `failureErrors`). A flag, not the error, so that the common close carries no existential.
        var reasonIsThrown = false
        switch returned {
        case .value: decision = .accepted
        case .nothing: decision = .passed
        case .judged(let judged, let why): (decision, reason) = (judged, why)
        case .error: (decision, reasonIsThrown) = (.failed, true)
        }
        if decision == .failed && failedInside, case .error(let error) = returned,
            content.failedOnlyByCancellation(inside: record, throwing: error)
        {
            // Hops inside it failed only because it cancelled them — a timeout, a race — and it threw an error of its
            // own: theirs did not end the command, its own did (below, as the trace's failure).
            _ = content.recoverFailures(inside: record)
        } else if decision == .accepted && wentOn || decision == .failed && failedInside {
            (decision, reason, reasonIsThrown) = (.passed, nil, false)
        }
        if role == .observer, decision == .passed || decision == .accepted { decision = .continued }
        // Came back with a value (not an error, nor the "nothing" of an Optional result): perhaps after catching.
        var recovered = false
        switch returned {
        case .value, .judged(.accepted, _):
            if content.failure != nil, let caught = content.decisionRecovering(record, role: role) {
                (decision, recovered) = (caught, true)
            }
        default: break
        }
        if !content.overrides.isEmpty, let index = content.overrides.lastIndex(where: { $0.record == record }) {
            (decision, reason, reasonIsThrown) = (content.overrides[index].decision, content.overrides[index].reason, false)
            content.overrides.remove(at: index)
        }
        if reasonIsThrown, decision == .failed, case .error(let error) = returned { content.failureErrors.append((record, error)) }
        if decision == .failed, content.failure == nil { content.failure = record }
        if decision == .failed, case .error = returned { content.thrown.append(record) }
        return (decision, reason, recovered)
    }

    /// A shared trace's hops by task: which task opened each, and each task's innermost open hop.
    struct TaskHopState: ~Copyable {
        /// What a shared trace knows of one of its records besides the record itself.
        struct RecordTask: BitwiseCopyable {
            /// The task that opened it.
            var task: Int
            /// What went on inside it: `.continued` while nothing but observers' hops (or none) closed inside it,
            /// `.passed` once a hop that did more than continue did (the command went on from it), `.failed` once
            /// a hop inside it failed.
            var inside: Decision
            var isOpen: Bool
            /// Whether a hop opened directly inside it after some other hop had been opened inside it: then it may
            /// have run several at once (see `subtractChildrenCovering`).
            var hasLaterChildren = false
        }

        /// A task with a hop open, and its innermost open hop.
        struct TaskInnermost: BitwiseCopyable {
            var task: Int
            var record: Int
        }

        /// Each task with a hop open: a few at most.
        var innermostByTask = PlainValueBuffer<TaskInnermost>(capacity: 4)
        /// By record.
        var records = PlainValueBuffer<RecordTask>()

        var isEmpty: Bool { records.isEmpty }

        /// Task `task`'s innermost open hop, if it has one.
        func innermost(of task: Int) -> Int? {
            for slot in 0..<innermostByTask.count where innermostByTask[slot].task == task {
                return innermostByTask[slot].record
            }
            return nil
        }

        /// Notes that `wentOn` (``Content/wentOn(_:inside:)``) went on inside `record`.
        mutating func note(_ wentOn: Decision, inside record: Int) {
            guard wentOn != .continued, records[record].inside != .failed else { return }
            records[record].inside = wentOn
        }

        /// Notes `record`, just opened (or, not `isOpen`, made closed) by task `task`.
        mutating func opened(_ record: Int, in task: Int, parent: Int, isOpen open: Bool) {
            records.append(RecordTask(task: task, inside: .continued, isOpen: open))
            // A hop's first child is the next hop opened, so only a later child is written down: a sequential async
            // chain writes nothing here (counting every child cost its traced row ~10 ns a hop, interleaved runs).
            if parent >= 0, parent != record &- 1 { records[parent].hasLaterChildren = true }
            guard open else { return }
            for slot in 0..<innermostByTask.count where innermostByTask[slot].task == task {
                innermostByTask[slot].record = record
                return
            }
            innermostByTask.append(TaskInnermost(task: task, record: record))
        }

        /// Notes `record`, task `task`'s innermost, closed: the hop it was nested in is the task's innermost now if
        /// the task opened it, else the task has none open.
        mutating func closed(_ record: Int, enclosing: Int, in task: Int) {
            records[record].isOpen = false
            for slot in 0..<innermostByTask.count where innermostByTask[slot].task == task {
                if enclosing >= 0, records[enclosing].task == task {
                    innermostByTask[slot].record = enclosing
                } else if let last = innermostByTask.popLast(), slot < innermostByTask.count {
                    // Order does not matter: the last one takes the slot.
                    innermostByTask[slot] = last
                }
                return
            }
        }

        mutating func removeAll() {
            innermostByTask.removeAll()
            records.removeAll()
        }
    }

    /// The innermost open hop: of task `task` in a shared trace, else of the thread's; -1 when none is open.
    private func innermostOpenHop(_ content: borrowing Content, task: Int) -> Int {
        isShared ? content.tasks.innermost(of: task) ?? -1 : content.innermost
    }

    /// Overrides the decision the innermost open hop (of the calling task, in a shared trace) would otherwise be
    /// given.
    func override(_ decision: Decision, reason: String?) {
        let task = isShared ? currentTaskIdentity() : 0
        withContent { content in
            let innermost = innermostOpenHop(content, task: task)
            guard innermost >= 0 else { return }
            content.overrides.removeAll { $0.record == innermost }
            content.overrides.append(Override(record: innermost, decision: decision, reason: reason))
        }
    }

    /// Hands the finished trace to the recorder's sink.
    ///
    /// - Parameter thread: The calling thread: its spare trace storage, if any, holds the trace.
    func deliver(id: UInt64, thread: ThreadState) {
        let finished = trace(id: id, thread: thread)
        // Called unretained: this trace holds its configuration until `retire`, after the sink returns.
        about.value.configuration.map { UnretainedObject($0) }?.withObject { $0.record(finished, on: thread) }
    }

    /// The finished trace. What it says of the command moves into the trace (this object keeps none of it), so
    /// a trace is made once.
    private func trace(id: UInt64, thread: ThreadState) -> Trace {
        withContent { content in
            // From here on, a hop of a task that outlived the command starts a trace of its own.
            if isShared { delivered.store(1) }
            if !content.failureErrors.isEmpty || !content.stoppedAtLimit.isEmpty { describeFailures(&content) }
            // Lent: `content.lastNames` holds the table.
            let names = sharedNames(&content)
            let count = content.records.count
            let outcomeHop = Int32(
                content.failure ?? content.records.withUnsafeBufferPointer { $0.lastIndex(where: { $0.decision == .accepted }) } ?? -1
            )
            let storage: TraceStorage
            if let spare = thread.spareTraceStorage, spare.hopCapacity >= count {
                // A trace a sink let go of (a full ring's oldest): refilled instead of allocating one.
                thread.spareTraceStorage = nil
                spare.reset(names: names, entry: 0, chainVersion: 0)
                storage = spare
            } else {
                storage = .make(capacity: count) {
                    TraceHeader(id: id, names: names.object, entry: 0, chainVersion: 0, start: start, inTicks: true)
                }
            }
            // One call for the header, the hops and the hops still open, on the storage itself (not captured by
            // the records' closure): as three calls, or inside that closure, the storage was retained and released
            // around them, each an atomic read-modify-write (callgrind).
            storage.withUnsafeMutablePointers { header, elements in
                content.records.withUnsafeBufferPointer { records in
                    header.pointee.id = id
                    Self.replace(&header.pointee.kind, with: about.value.kind.take())
                    Self.replace(&header.pointee.commandID, with: about.value.commandID.take())
                    Self.replace(&header.pointee.payload, with: about.value.payload.take())
                    Self.replace(&header.pointee.encodedPayload, with: about.value.encodedPayload.take())
                    header.pointee.start = start
                    header.pointee.duration = content.end &- start
                    // Nearly always both empty: then not copied (a retain and a release).
                    if !(header.pointee.reasons.values.isEmpty && content.reasons.values.isEmpty) { header.pointee.reasons = content.reasons }
                    header.pointee.outcomeHop = outcomeHop
                    TraceStorage.fill(header, elements, with: records)
                    if !content.tasks.isEmpty {
                        // A shared trace's hops still open, in any task: delivered as they were opened, with no time.
                        for record in 0..<content.tasks.records.count where content.tasks.records[record].isOpen {
                            elements[record].selfDuration = 0
                        }
                    } else if content.innermost >= 0 {
                        // Hops still open (a task that outlived the command may close them later) are delivered as
                        // they were opened: no time. Each names an earlier one as its parent, so this ends.
                        var open = content.innermost
                        while open >= 0 {
                            let enclosing = Int(elements[open].parent)
                            elements[open].selfDuration = 0
                            open = enclosing
                        }
                    }
                }
            }
            return Trace(storage: storage)
        }
    }

    /// Makes the text of the errors hops failed with (``Content/failureErrors``) and of the hops stopped at the hop
    /// limit (``Content/stoppedAtLimit``, naming the loop), now that no hop is timed. Out of line: nearly every trace
    /// has none.
    @inline(never)
    private func describeFailures(_ content: inout Content) {
        for (record, error) in content.failureErrors { content.reasons.set(FailureText.of(error), at: record) }
        content.failureErrors.removeAll(keepingCapacity: true)
        for record in content.stoppedAtLimit {
            let names = (0...record).map { content.name(at: $0) }
            content.reasons.set(Self.loopMessage(names, chain: chain, hops: record), at: record)
        }
        content.stoppedAtLimit.removeAll(keepingCapacity: true)
    }

    /// The name table of this trace: the last one made, when its names are the same. Lent, unretained:
    /// `content.lastNames` holds it until the next trace this object builds.
    private func sharedNames(_ content: inout Content) -> UnretainedObject<HandlerNameTable> {
        let commandType = about.value.commandType
        if content.namesFollowLast, let last = content.lastNames.map({ UnretainedObject($0) }),
            last.withObject({ $0.names.count == content.records.count && $0.chain == chain && $0.commandType == commandType })
        {
            return last
        }
        let table = HandlerNameTable(chain: chain, commandType: commandType, names: content.currentNames)
        content.lastNames = table
        content.lastNameIdentities = table.names.map { StringIdentity(of: $0) }
        return UnretainedObject(table)
    }

    private static func loopMessage(_ names: [String], chain: String, hops: Int) -> String {
        let last = names[names.count - 1]
        let earlier = names[..<(names.count - 1)].lastIndex(of: last)
        guard let earlier else {
            // No handler repeated: the chain is longer than the limit, not caught in a loop.
            return ChainError.hopLimit(at: last, in: chain, hops: hops, limit: hops, needed: nil).message
        }
        return ChainError.loop(Array(names[earlier..<(names.count - 1)]), in: chain, afterHops: hops).message
    }
}

/// What opening a hop in a shared trace did (see ``ActiveTrace/begin(_:task:owner:)``).
@usableFromInline
enum SharedHopOpening {
    /// The hop is open in the trace.
    case opened
    /// The hop limit is reached: the hop is recorded as a failure naming the loop, and its body is not traced.
    case stopped
    /// The trace has been delivered; the hop starts a trace of its own (an async hop, which checks
    /// ``ActiveTrace/isDelivered`` first, finds this only when the trace was delivered in between, and runs
    /// untraced).
    case traceIsOver
}

/// How an instrumented handler's body came back.
@usableFromInline
enum HopReturn {
    case value
    case nothing
    case judged(Decision, String?)
    case error(any Error)
}
