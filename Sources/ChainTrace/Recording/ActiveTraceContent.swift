import CChainTraceSupport
import ChainTraceFastPath
import ChainTraceJSON

extension ActiveTrace {
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
        /// stack of frames beside them (a second append and pop a hop: `chaintrace-benchmarks`, "instrumented
        /// chain (traceHop), traced").
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
        /// How many side calls — commands of another chain, sent from inside this trace's hops, that record traces
        /// of their own — are running: while any is, this trace is not its thread's (see `runHop`).
        var sideCallsOpen = 0
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
        /// Whether only the task that opened a shared trace's first hop (``rootTask``) has opened hops in it: its
        /// hops are then kept as one thread's are (``innermost``, and the records' nesting), with nothing in
        /// ``tasks``, until another task opens one (``shareAmongTasks()``). A chain whose hops all run in one task —
        /// nearly every async chain — never pays for the bookkeeping of tasks (`chaintrace-benchmarks`, "async
        /// instrumented chain (traceHop), traced"). `false` in a trace of one thread.
        var rootTaskOnly = false
        /// The task that opened a shared trace's first hop.
        var rootTask = 0
        /// What a framework integration kept of the context the command's deepest hop ran in (see
        /// ``ActiveTrace/keepDeepestContext(_:)``), and whether it has; `nil` and `false` in nearly every trace.
        var deepestContext: (any Sendable)?
        var keptDeepestContext = false
        /// The span the command ran under in the app's distributed tracing, for the delivered trace (see
        /// ``ActiveTrace/setTraceParent(_:)``); `nil` in nearly every trace, and once it is delivered.
        var traceParent: TraceParent?

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
                    handler: Int32(truncatingIfNeeded: index),
                    registry: -1,
                    decision: .passed,
                    parent: Int32(truncatingIfNeeded: innermost),
                    startOffset: startOffset,
                    inclusiveDuration: 0,
                    selfDuration: 0
                )
            )
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

        /// Fills in a closed hop's record: one access to the array instead of one a field.
        private static func fill(_ record: inout HopRecord, decision: Decision, inclusive: UInt64, nested: UInt64) {
            record.decision = decision
            record.inclusiveDuration = inclusive
            record.selfDuration = inclusive &- nested
        }
    }
}
