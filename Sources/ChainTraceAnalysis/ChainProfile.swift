public import ChainTrace
import ChainTraceFastPath
import ChainTraceFiles
import ChainTraceJSON
public import ChainTraceTraceLog

/// The per-handler profile of many traces — the table `chaintrace replay` and `chaintrace stats` print, and the
/// numbers the slow-handler rule and the profile diagram read.
///
/// ```swift
/// let profile = try ChainProfile(reading: TraceLogReader(path: "traces.jsonl"))
/// for handler in profile.handlers { print(handler.handler, handler.selfTime(atPercentile: 95)) }
/// ```
public struct ChainProfile: Sendable {
    /// Every handler seen (or declared), in the chain's order: each after every handler that passed commands to
    /// it, else in the order first met (declared handlers in their declared order; see `ChainOrder`) — and a
    /// registry's members right after their registry, in that order: a member registered while the chain ran,
    /// first met after every other handler, is still listed with its registry (a table indents members under it).
    public var handlers: [HandlerStatistics] {
        var links: [(from: Int, to: Int)] = []
        counters.forEachLink { from, to, _ in if from > 0 { links.append((from - 1, to)) } }
        let order = ChainOrder.order(count: handlerStatistics.count, links: links)
        return Self.membersAfterTheirRegistries(order.map(statistics(at:)))
    }
    /// How many commands went along each link, keyed `from → to`, the first hop counted from its entry.
    public var edges: [Edge: Int] {
        var result: [Edge: Int] = [:]
        counters.forEachLink { from, to, count in
            result[
                Edge(from: from == 0 ? nil : handlerStatistics[from - 1].handler, to: handlerStatistics[to].handler)
            ] = count
        }
        return result
    }
    /// Every handler's name, registry, budget and self-time histogram; the counts added per hop are in
    /// `counters`, and ``handlers`` puts the two together.
    private var handlerStatistics: [HandlerStatistics] = []
    /// The counts every hop adds to, in memory a hop writes without copy-on-write checks.
    private var counters = HopCounters()
    /// Traces added.
    public private(set) var commands = 0
    /// Commands some handler accepted.
    public private(set) var accepted = 0
    /// Commands that fell off the end.
    public private(set) var fellOffTheEnd = 0
    /// Commands that failed.
    public private(set) var failed = 0
    /// The chains the traces came from, in the order first met.
    public private(set) var chains: [String] = []
    /// The sum of the traces' durations, in nanoseconds.
    public private(set) var totalNanoseconds: UInt64 = 0
    private var indexByName: [String: Int] = [:]
    /// The trace names last mapped to handlers (the mapping itself is in `counters`): traces of one chain
    /// version share their names, so most traces are added with no name looked up at all.
    /// Held, not just compared, so its address cannot be reused by another trace's names.
    private var nameMapping = CompactNameMapping<Int>()

    /// One link a command went along: from a handler (`nil`: the command's arrival) to the next.
    public struct Edge: Sendable, Hashable {
        /// Where it came from; `nil` for the entry.
        public var from: String?
        /// Where it went.
        public var to: String

        /// Creates an edge.
        public init(from: String?, to: String) {
            self.from = from
            self.to = to
        }
    }

    /// An empty profile.
    public init() {}

    /// The profile of `traces`.
    public init(_ traces: some Sequence<Trace>) {
        for trace in traces { add(trace) }
        settle()
    }

    /// The profile of every trace `reader` has left; see ``add(contentsOf:progress:)``.
    public init(reading reader: TraceLogReader, progress: ((Int) -> Void)? = nil) throws(FormatError) {
        try add(contentsOf: reader, progress: progress)
    }

    /// Adds one trace.
    public mutating func add(_ trace: Trace) {
        commands += 1
        totalNanoseconds = totalNanoseconds.saturatingAdd(trace.duration)
        switch trace.compactOutcome {
        case .accepted: accepted += 1
        case .fellOffTheEnd: fellOffTheEnd += 1
        case .failed: failed += 1
        }
        if !nameMapping.isCurrent(for: trace) { map(namesOf: trace) }
        // Made unique once per trace, so that no hop checks.
        makeCountersUnique()
        var registryUnknown = false
        do {
            // A local reference, retained once per trace, released before anything checks that the counters are
            // held alone. (Calling them unretained, through `UnretainedObject`, was measured and bought nothing:
            // `stats` 4% faster retained, a flat replay 3% slower — within the noise.)
            let counters = self.counters
            let mapping = counters.handlerByName
            trace.forEachCompactHop { hop, sourceHandler in
                let index = mapping[hop.handler]
                let counted = counters.add(
                    HopCounters.CountedDecision(hop.decision),
                    selfNanoseconds: hop.selfNanoseconds,
                    inclusiveNanoseconds: hop.inclusiveNanoseconds,
                    at: index
                )
                if !counted { handlerStatistics[index].record(selfTime: hop.selfNanoseconds) }
                if hop.registry >= 0, handlerStatistics[index].registry == nil { registryUnknown = true }
                // From the hop that handed it the command (`HopSource`): the one before, but for a fan-out's.
                counters.countLink(from: sourceHandler < 0 ? 0 : mapping[sourceHandler] &+ 1, to: index)
            }
        }
        if counters.pendingCount >= 1 << 30 { settle() }
        if registryUnknown { noteRegistries(of: trace) }
    }

    /// Maps the names `trace`'s hops index to handlers here. Traces sharing names share their chain too, so the
    /// chain is only looked at here.
    private mutating func map(namesOf trace: Trace) {
        if !chains.contains(trace.chain) { chains.append(trace.chain) }
        // Taken out while `index(of:)` adds handlers to this profile.
        var mapping = nameMapping
        nameMapping = CompactNameMapping()
        let (_, changedFrom) = mapping.update(for: trace) { index(of: $0) }
        makeCountersUnique()
        mapping.values.withUnsafeBufferPointer { values in
            if changedFrom == 0 {
                counters.setHandlers(byName: values)
            } else {
                counters.appendHandlers(byName: UnsafeBufferPointer(rebasing: values[changedFrom...]))
            }
        }
        nameMapping = mapping
    }

    /// Names the registry of each handler in `trace` that ran in one, the first time it is seen doing so (kept
    /// out of the per-hop loop so that loop copies no names).
    private mutating func noteRegistries(of trace: Trace) {
        let names = trace.compactNames.names
        let mapping = counters.handlerByName
        trace.forEachCompactHop { hop in
            let index = mapping[hop.handler]
            if hop.registry >= 0, handlerStatistics[index].registry == nil {
                handlerStatistics[index].registry = names[hop.registry]
            }
        }
    }

    /// Adds every trace `reader` has left, read as it streams (constant memory).
    ///
    /// - Parameters:
    ///   - reader: The log, read to its end.
    ///   - progress: Called now and then with the bytes read so far.
    /// - Throws: `FormatError` for the first line that is not a trace.
    public mutating func add(contentsOf reader: TraceLogReader, progress: ((Int) -> Void)? = nil) throws(FormatError) {
        while let trace = try reader.next() {
            add(trace)
            if commands & 0x3FFF == 0 { progress?(reader.bytesRead) }
        }
        settle()
    }

    /// Adds everything `other` counted, as if its traces had been added here after this profile's own: how
    /// profiles of the parts of a log read in parallel become the log's. Counts add; self-time histograms merge
    /// exactly (bucket by bucket), so percentiles are those of one profile of every trace.
    public mutating func merge(_ other: ChainProfile) {
        var other = other
        other.settle()
        settle()
        makeCountersUnique()
        commands = commands.saturatingAdd(other.commands)
        accepted = accepted.saturatingAdd(other.accepted)
        fellOffTheEnd = fellOffTheEnd.saturatingAdd(other.fellOffTheEnd)
        failed = failed.saturatingAdd(other.failed)
        totalNanoseconds = totalNanoseconds.saturatingAdd(other.totalNanoseconds)
        for chain in other.chains where !chains.contains(chain) { chains.append(chain) }
        let mapping = other.handlerStatistics.map { index(of: $0.handler) }
        for (theirs, mine) in mapping.enumerated() {
            handlerStatistics[mine].merge(timesOf: other.handlerStatistics[theirs])
            counters.add(other.counters.row(theirs), at: mine)
        }
        other.counters.forEachLink { from, to, count in
            counters.addLink(from: from == 0 ? 0 : mapping[from - 1] + 1, to: mapping[to], count: count)
        }
    }

    /// Folds every handler's pending self times into its histogram (see ``HopCounters``), so that reading
    /// percentiles afterwards copies nothing. Reads are right either way.
    package mutating func settle() {
        guard counters.pendingCount > 0 else { return }
        makeCountersUnique()
        for index in handlerStatistics.indices {
            counters.withPendingSelfTimes(of: index) { handlerStatistics[index].fold($0) }
        }
        counters.clearPendingSelfTimes()
    }

    /// Lists a handler before any trace reaches it (so a table shows handlers never reached, in chain order),
    /// with its budget from the chain definition.
    public mutating func declare(_ handler: String, budgetNanoseconds: Int64? = nil) {
        let index = index(of: handler)
        if let budgetNanoseconds { handlerStatistics[index].budgetNanoseconds = budgetNanoseconds }
    }

    /// The statistics of the named handler, if it was seen.
    public func statistics(of handler: String) -> HandlerStatistics? {
        indexByName[handler].map(statistics(at:))
    }

    /// The statistics of handler `index`: its counts, with any pending self times folded into a copy.
    private func statistics(at index: Int) -> HandlerStatistics {
        var statistics = handlerStatistics[index]
        statistics.take(counters.row(index))
        if counters.pendingCount > 0 { counters.withPendingSelfTimes(of: index) { statistics.fold($0) } }
        return statistics
    }

    /// The sum of all handlers' self times: the time the chain spent, in nanoseconds.
    public var totalSelfNanoseconds: UInt64 {
        handlerStatistics.indices.reduce(0) { $0.saturatingAdd(counters.row($1).totalSelfNanoseconds) }
    }

    /// `rows` in order, each registry's members moved to right after it (members of a member's registry after
    /// that member); a member whose registry is not among `rows` keeps its place.
    static func membersAfterTheirRegistries(_ rows: [HandlerStatistics]) -> [HandlerStatistics] {
        guard rows.contains(where: { $0.registry != nil }) else { return rows }
        let names = Set(rows.map(\.handler))
        var members: [String: [Int]] = [:]
        for (index, row) in rows.enumerated() {
            if let registry = row.registry, registry != row.handler, names.contains(registry) {
                members[registry, default: []].append(index)
            }
        }
        var ordered: [HandlerStatistics] = []
        ordered.reserveCapacity(rows.count)
        var placed = [Bool](repeating: false, count: rows.count)
        func place(_ index: Int) {
            guard !placed[index] else { return }
            placed[index] = true
            ordered.append(rows[index])
            for member in members[rows[index].handler] ?? [] { place(member) }
        }
        for (index, row) in rows.enumerated()
        where row.registry.map({ $0 == row.handler || !names.contains($0) }) ?? true {
            place(index)
        }
        // Members of registries that are only members of each other (no trace of a real chain has them).
        for index in rows.indices { place(index) }
        return ordered
    }

    /// Copies the counters first when a copy of this profile shares them, so writing them changes only this one.
    private mutating func makeCountersUnique() {
        if !isKnownUniquelyReferenced(&counters) { counters = counters.copy() }
    }

    private mutating func index(of name: String) -> Int {
        if let index = indexByName[name] { return index }
        handlerStatistics.append(HandlerStatistics(handler: name))
        makeCountersUnique()
        counters.addHandler()
        indexByName[name] = handlerStatistics.count - 1
        return handlerStatistics.count - 1
    }
}

extension HopCounters.CountedDecision {
    /// How the counters count `decision`.
    @inline(__always)
    init(_ decision: Decision) {
        switch decision {
        case .accepted: self = .accepted
        case .passed: self = .passed
        case .continued: self = .continued
        case .failed: self = .failed
        }
    }
}
