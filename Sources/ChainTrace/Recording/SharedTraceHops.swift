import CChainTraceSupport
import ChainTraceFastPath
import ChainTraceJSON

extension ActiveTrace {
    /// Opens a hop for `handler` in task `task` of a shared trace, nested in that task's innermost open hop — or,
    /// for the task's first, in `owner`'s: the task whose hop bound the trace to the task-local this one sees
    /// (its parent, since a task's first hop binds it for its own children). Returns ``SharedHopOpening/stopped``
    /// (and records a loop failure) if the hop limit is reached, and ``SharedHopOpening/traceIsOver`` if the trace
    /// has been delivered: the hop runs in a task that outlived the command (an unstructured `Task` started in one
    /// of its hops inherits the trace's task-local), and starts a trace of its own instead of being lost.
    ///
    /// While only the task that opened the first hop has opened any (``Content/rootTaskOnly``), its hops open as a
    /// trace of one thread's do; the first hop of another task first gives the root task's hops their bookkeeping
    /// of tasks (``Content/shareAmongTasks()``).
    @usableFromInline
    func begin(_ handler: String, task: Int, owner: Int) -> SharedHopOpening {
        lock.withLock {
            // Its trace was delivered already: the hop runs in a task that outlived the command (an unstructured
            // `Task` started inside it), after its last hop ended.
            guard !isDelivered else { return .traceIsOver }
            if content.value.rootTaskOnly {
                if content.value.records.isEmpty { content.value.rootTask = task }
                if task == content.value.rootTask { return beginInRootTask(handler) }
                content.value.shareAmongTasks()
            }
            return beginInTask(handler, task: task, owner: owner, &content.value)
        }
    }

    /// Opens a hop of the task that started this trace, while it is the only task with hops
    /// (``Content/rootTaskOnly``), when its name is the last trace's at this hop — nearly every hop of an async chain
    /// after its first — without the name itself: `name` is the identity of the name the hop's autoclosure made.
    /// Anything else — another task, another name, the hop limit, the trace delivered — is left to
    /// ``begin(_:task:owner:)`` (``JoiningHopOpening/needsName``).
    ///
    /// What it buys: the name, made by the hop's autoclosure and passed here, was retained and released around the
    /// call, an atomic increment and decrement on a heap string; compared by identity in the caller's inlined code,
    /// it is neither (see ``StringIdentity``; `chaintrace-benchmarks`, "async instrumented chain (traceHop), traced").
    @inline(__always)
    func beginFollowingName(_ name: StringIdentity, task: Int) -> JoiningHopOpening {
        lock.withLock {
            guard !isDelivered, content.value.rootTaskOnly, task == content.value.rootTask,
                content.value.nextNameIdentity.isIdentical(to: name),
                content.value.records.count < maximumHops
            else { return .needsName }
            content.value.openNamed(startOffset: startOffset(first: false))
            return .opened
        }
    }

    /// ``begin(_:task:owner:)`` in the root task while it is the only one with hops: as ``begin(_:)`` opens a hop
    /// of one thread, under the lock.
    @inline(__always)
    private func beginInRootTask(_ handler: String) -> SharedHopOpening {
        let startOffset = startOffset(first: content.value.records.isEmpty)
        guard content.value.records.count < maximumHops else {
            _ = recordLoop(handler, startOffset: startOffset, enclosing: content.value.innermost, in: &content.value)
            return .stopped
        }
        content.value.open(handler, startOffset: startOffset)
        return .opened
    }

    /// ``begin(_:task:owner:)`` with the bookkeeping of tasks, under the lock.
    private func beginInTask(_ handler: String, task: Int, owner: Int, _ content: inout Content) -> SharedHopOpening {
        let startOffset = startOffset(first: content.records.isEmpty)
        let index = content.records.count
        let enclosing = content.tasks.innermost(of: task) ?? content.tasks.innermost(of: owner) ?? -1
        guard index < maximumHops else {
            content.tasks.opened(
                recordLoop(handler, startOffset: startOffset, enclosing: enclosing, in: &content),
                in: task,
                parent: enclosing,
                isOpen: false
            )
            // A hop inside the one it was to nest in failed.
            if enclosing >= 0 { content.tasks.note(.failed, inside: enclosing) }
            return .stopped
        }
        content.addName(handler)
        content.records.append(
            HopRecord(
                handler: Int32(truncatingIfNeeded: index),
                registry: -1,
                decision: .passed,
                parent: Int32(truncatingIfNeeded: enclosing),
                startOffset: startOffset,
                inclusiveDuration: 0,
                selfDuration: 0
            )
        )
        content.tasks.opened(index, in: task, parent: enclosing, isOpen: true)
        return .opened
    }

    /// Closes task `task`'s innermost open hop of a shared trace (see ``end(_:role:)``); the hop it was nested in
    /// becomes the task's innermost if it is the task's own.
    ///
    /// Inlinable, as ``end(_:role:)`` is: an async hop with no `decide` closure knows its case, and calls the plain
    /// return's function directly.
    @inlinable
    func end(_ returned: HopReturn, role: HandlerRole, task: Int) {
        switch returned {
        case .value: endReturned(accepted: true, role: role, task: task)
        case .nothing: endReturned(accepted: false, role: role, task: task)
        case .judged, .error: endJudged(returned, role: role, task: task)
        }
    }

    /// ``end(_:role:task:)`` for a hop that returned normally (`accepted`) or with the "nothing" of an Optional
    /// result: in root-task mode (``Content/rootTaskOnly``) as a trace of one thread closes it; else the common
    /// case — no failure in the trace, none inside the hop, no override — decides in line, and the rest goes
    /// through ``decision(for:role:wentOn:failedInside:record:content:)``.
    @usableFromInline
    func endReturned(accepted: Bool, role: HandlerRole, task: Int) {
        let now = now()
        lock.withLock {
            if content.value.rootTaskOnly { return closeInnermostReturned(accepted: accepted, role: role, at: now) }
            closeReturnedInTask(accepted: accepted, role: role, task: task, at: now, &content.value)
        }
    }

    /// ``endReturned(accepted:role:task:)`` with the bookkeeping of tasks, under the lock.
    private func closeReturnedInTask(
        accepted: Bool,
        role: HandlerRole,
        task: Int,
        at now: UInt64,
        _ content: inout Content
    ) {
        guard let record = content.tasks.innermost(of: task) else { return }
        let inside = content.tasks.records[record].inside
        guard inside != .failed, content.failure == nil, content.overrides.isEmpty else {
            return close(record, returned: accepted ? .value : .nothing, role: role, task: task, at: now, &content)
        }
        let decision = HopDecisionInference.returnedNormally(
            accepted: accepted,
            role: role,
            wentOn: inside != .continued
        )
        closeDecided(record, as: decision, inside: inside, task: task, at: now, &content)
    }

    /// ``end(_:role:task:)`` for a hop that threw or whose return the caller's `decide` closure judged.
    @usableFromInline
    func endJudged(_ returned: HopReturn, role: HandlerRole, task: Int) {
        let now = now()
        lock.withLock {
            if content.value.rootTaskOnly { return closeInnermost(returned, role: role, at: now) }
            guard let record = content.value.tasks.innermost(of: task) else { return }
            close(record, returned: returned, role: role, task: task, at: now, &content.value)
        }
    }

    /// Closes task `task`'s innermost open hop, `record`, as it `returned`, with every case: judged, failed,
    /// recovered or overridden.
    private func close(
        _ record: Int,
        returned: HopReturn,
        role: HandlerRole,
        task: Int,
        at now: UInt64,
        _ content: inout Content
    ) {
        var inside = content.tasks.records[record].inside
        let (decision, reason, recovered) = Self.decision(
            for: returned,
            role: role,
            wentOn: inside != .continued,
            failedInside: inside == .failed,
            record: record,
            content: &content
        )
        // What went on inside a hop that caught a failure, for the hop it ran in: the command went on (to the hop
        // that failed), but no failure came out.
        if recovered { inside = .passed }
        closeDecided(record, as: decision, inside: inside, task: task, at: now, &content)
        if let reason { content.reasons.set(reason, at: record) }
    }

    /// Closes task `task`'s innermost open hop, `record`, as `decision`, telling the hop it was nested in what
    /// went on inside it (`inside`, and the hop's own decision).
    @inline(__always)
    private func closeDecided(
        _ record: Int,
        as decision: Decision,
        inside: Decision,
        task: Int,
        at now: UInt64,
        _ content: inout Content
    ) {
        let enclosing = Int(content.records[record].parent)
        content.close(record, as: decision, at: now, traceStart: start)
        // Hops run at once inside it: its own time is what none of them covered, not its time less their sum.
        if content.tasks.records[record].hasLaterChildren { content.subtractChildrenCovering(record) }
        if enclosing >= 0 {
            content.tasks.note(HopDecisionInference.wentOn(decision, inside: inside), inside: enclosing)
        }
        // `close` is for one thread's hops, nested one in the other; here the innermost is the task's.
        content.innermost = -1
        content.tasks.closed(record, enclosing: enclosing, in: task)
    }
}

extension ActiveTrace {
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

        /// Notes that `wentOn` (``HopDecisionInference/wentOn(_:inside:)``) went on inside `record`.
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
}

/// What opening a hop by its name's identity did (see ``ActiveTrace/beginFollowingName(_:task:)``).
enum JoiningHopOpening {
    /// The hop is open in the trace.
    case opened
    /// Not opened: open it with its name (``ActiveTrace/begin(_:task:owner:)``).
    case needsName
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

extension ActiveTrace.Content {
    /// Gives the hops the root task opened while it was the only task with hops (``rootTaskOnly``) their
    /// bookkeeping of tasks, as if each had been opened with it: a hop of another task is about to open. Every
    /// record then belongs to the root task; its open hops — its innermost and those it is nested in — are open,
    /// and what went on inside each is what its closed hops told it as they closed (see ``reportOfClosedHop(_:)``).
    mutating func shareAmongTasks() {
        rootTaskOnly = false
        var isOpen = [Bool](repeating: false, count: records.count)
        var open = innermost
        while open >= 0 {
            isOpen[open] = true
            open = Int(records[open].parent)
        }
        for record in 0..<records.count {
            tasks.opened(record, in: rootTask, parent: Int(records[record].parent), isOpen: isOpen[record])
        }
        for record in 0..<records.count where isOpen[record] {
            var inside = Decision.continued
            for child in (record &+ 1)..<records.count where !isOpen[child] && Int(records[child].parent) == record {
                let report = reportOfClosedHop(child)
                if report == .failed {
                    inside = .failed
                    break
                }
                if report == .passed { inside = .passed }
            }
            tasks.records[record].inside = inside
        }
        // From here on, each task's innermost hop is in `tasks`.
        innermost = -1
    }

    /// What closed hop `hop` told the hop it is nested in as it closed (``HopDecisionInference/wentOn(_:inside:)``):
    /// a failure if it failed, or a failure it did not recover from is inside it; else `.passed` if it or a hop
    /// inside it did more than continue; else `.continued`.
    func reportOfClosedHop(_ hop: Int) -> Decision {
        switch records[hop].decision {
        case .failed: return .failed
        case .continued: break
        default: return failedInside(hop) ? .failed : .passed
        }
        var report = Decision.continued
        for nested in (hop &+ 1)..<records.count where isInside(nested, hop) {
            if records[nested].decision == .failed, !isRecovered(nested) { return .failed }
            if records[nested].decision != .continued { report = .passed }
        }
        return report
    }

    /// Whether a failure no hop recovered from is inside closed hop `hop`.
    private func failedInside(_ hop: Int) -> Bool {
        for nested in (hop &+ 1)..<records.count where isInside(nested, hop) {
            if records[nested].decision == .failed, !isRecovered(nested) { return true }
        }
        return false
    }
}
