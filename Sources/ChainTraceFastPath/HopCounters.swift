/// The counts a profile (ChainTraceAnalysis' `ChainProfile`) adds to on every hop, in memory of their own: per handler, its decisions, time
/// sums and short self times by nanosecond; per link between handlers, how many commands went along it.
///
/// A profile makes its counters unique once per trace (copying them when a copy of the profile shares them), so a
/// hop updates counts through plain pointers, with no copy-on-write check per hop — a check per array per hop
/// was a good share of a replayed command's cost. What it buys: the profile's counting in `replay` and `stats` runs
/// at the speed of the plain arithmetic (`chaintrace-cli-benchmarks`, "replay" and "stats" rows). `@unchecked Sendable` because the memory is raw: a profile
/// only writes counters it holds alone. For the same reason no access is checked for exclusivity at run time
/// (the counts live in an ``UncheckedCell``): such a check per hop would cost more than the counting.
///
/// It knows nothing of traces: handlers and decisions are numbers, and the profile maps its hops onto them.
/// `public` and `@inlinable` for the reason ``JSONByteCursor`` gives: ``add(_:selfNanoseconds:inclusiveNanoseconds:at:)``
/// runs for every hop `stats` and `replay` count.
@usableFromInline package final class HopCounters: @unchecked Sendable {
    /// One handler's counts.
    @usableFromInline package struct Row {
        @usableFromInline package var seen = 0
        @usableFromInline package var accepted = 0
        @usableFromInline package var passed = 0
        @usableFromInline package var continued = 0
        @usableFromInline package var failed = 0
        @usableFromInline package var totalSelfNanoseconds: UInt64 = 0
        @usableFromInline package var totalInclusiveNanoseconds: UInt64 = 0

        @inlinable package init() {}
    }

    /// What a counted hop decided.
    @usableFromInline package enum CountedDecision {
        case accepted, passed, continued, failed
    }

    /// Self times below this many nanoseconds — most hops of fast handlers — are counted per value here, and
    /// folded into the handler's histogram later: a counter increment per hop instead of a histogram record.
    /// The histogram keeps those values exactly too (its first bucket has one-nanosecond steps up to 256), so
    /// folding changes no result.
    @usableFromInline package static var exactSelfTimeLimit: Int { 256 }

    /// Every count, in an ``UncheckedCell``: a profile writes only counters it holds alone, from one thread, and
    /// the run-time exclusivity check on these fields, read on every hop, cost `stats` and `replay` more than the
    /// counting. The accessors below forward to it. (Stored properties marked `@exclusivity(unchecked)` instead
    /// would be shorter, but the mark is not honoured where the profile's code, in another module, inlines the
    /// accesses: perf showed `swift_beginAccess` called from `ChainProfile.add` again, on every hop.)
    @usableFromInline let cell: UncheckedCell<Fields>

    @usableFromInline struct Fields {
        /// Handlers counted.
        @usableFromInline var handlerCount = 0
        @usableFromInline var handlerCapacity: Int
        @usableFromInline var rows: UnsafeMutablePointer<Row>
        /// `exactSelfTimeLimit` counters per handler.
        @usableFromInline var pending: UnsafeMutablePointer<UInt32>
        /// How many self times `pending` holds; folded long before a counter could overflow.
        @usableFromInline var pendingCount = 0

        // Links, kept flat: node 0 is a command's arrival, node `i + 1` handler `i`; each node's links are chained
        // through `nextLink`, so counting a hop is a short scan of a handler's few links.
        @usableFromInline var firstLink: UnsafeMutablePointer<Int32>
        @usableFromInline var linkCount = 0
        @usableFromInline var linkCapacity: Int
        @usableFromInline var targets: UnsafeMutablePointer<Int32>
        @usableFromInline var nextLink: UnsafeMutablePointer<Int32>
        @usableFromInline var linkCounts: UnsafeMutablePointer<Int>
        /// For a node with more than ``HopCounters/scannedLinks`` links, each target's link, so that a hop along
        /// it is not a scan of the whole list: made when a scan first runs that long, kept up by `addLink`. A log of
        /// thousands of entries (responders named per instance) made every arrival a scan of them all — `stats`
        /// and `diff` of 30 000 traces spent most of their time there.
        @usableFromInline var longLinks: [Int: [Int32: Int32]] = [:]

        /// Where each name of the traces being added (see ``ChainProfile``) is among the handlers counted here:
        /// `handlerByName[name index]`, `handlerByNameCount` of them.
        @usableFromInline var handlerByName = UnsafeMutablePointer<Int>.allocate(capacity: 0)
        @usableFromInline var handlerByNameCount = 0
        /// Room in `handlerByName`: it grows by doubling as names are appended (``appendHandlers(byName:)``).
        @usableFromInline var handlerByNameCapacity = 0

        /// Memory for `handlers` handlers and `links` links, nothing counted.
        init(handlers: Int, links: Int) {
            handlerCapacity = handlers
            rows = .allocate(capacity: handlers)
            pending = .allocate(capacity: handlers * HopCounters.exactSelfTimeLimit)
            firstLink = .allocate(capacity: handlers + 1)
            linkCapacity = links
            targets = .allocate(capacity: links)
            nextLink = .allocate(capacity: links)
            linkCounts = .allocate(capacity: links)
        }
    }

    @inlinable var handlerCount: Int {
        _read { yield cell.value.handlerCount }
        _modify { yield &cell.value.handlerCount }
    }
    @inlinable var handlerCapacity: Int {
        _read { yield cell.value.handlerCapacity }
        _modify { yield &cell.value.handlerCapacity }
    }
    @inlinable var rows: UnsafeMutablePointer<Row> {
        _read { yield cell.value.rows }
        _modify { yield &cell.value.rows }
    }
    @inlinable var pending: UnsafeMutablePointer<UInt32> {
        _read { yield cell.value.pending }
        _modify { yield &cell.value.pending }
    }
    /// How many self times are pending, not yet folded into a histogram.
    @inlinable package var pendingCount: Int {
        _read { yield cell.value.pendingCount }
        _modify { yield &cell.value.pendingCount }
    }
    @inlinable var firstLink: UnsafeMutablePointer<Int32> {
        _read { yield cell.value.firstLink }
        _modify { yield &cell.value.firstLink }
    }
    @inlinable var linkCount: Int {
        _read { yield cell.value.linkCount }
        _modify { yield &cell.value.linkCount }
    }
    @inlinable var linkCapacity: Int {
        _read { yield cell.value.linkCapacity }
        _modify { yield &cell.value.linkCapacity }
    }
    @inlinable var targets: UnsafeMutablePointer<Int32> {
        _read { yield cell.value.targets }
        _modify { yield &cell.value.targets }
    }
    @inlinable var nextLink: UnsafeMutablePointer<Int32> {
        _read { yield cell.value.nextLink }
        _modify { yield &cell.value.nextLink }
    }
    @inlinable var linkCounts: UnsafeMutablePointer<Int> {
        _read { yield cell.value.linkCounts }
        _modify { yield &cell.value.linkCounts }
    }
    /// Where each name of the traces being added is among the handlers (see ``setHandlers(byName:)``).
    @inlinable package var handlerByName: UnsafeMutablePointer<Int> {
        _read { yield cell.value.handlerByName }
        _modify { yield &cell.value.handlerByName }
    }
    @inlinable var handlerByNameCount: Int {
        _read { yield cell.value.handlerByNameCount }
        _modify { yield &cell.value.handlerByNameCount }
    }

    /// Empty counters.
    @usableFromInline package init() {
        cell = UncheckedCell.make(Fields(handlers: 8, links: 16))
        firstLink.initialize(to: -1)
    }

    init(copying other: HopCounters) {
        cell = UncheckedCell.make(Fields(handlers: other.handlerCapacity, links: other.linkCapacity))
        handlerCount = other.handlerCount
        rows.initialize(from: other.rows, count: handlerCount)
        pending.initialize(from: other.pending, count: handlerCount * Self.exactSelfTimeLimit)
        pendingCount = other.pendingCount
        firstLink.initialize(from: other.firstLink, count: handlerCount + 1)
        linkCount = other.linkCount
        targets.initialize(from: other.targets, count: linkCount)
        nextLink.initialize(from: other.nextLink, count: linkCount)
        linkCounts.initialize(from: other.linkCounts, count: linkCount)
        setHandlers(byName: UnsafeBufferPointer(start: other.handlerByName, count: other.handlerByNameCount))
    }

    deinit {
        handlerByName.deallocate()
        rows.deallocate()
        pending.deallocate()
        firstLink.deallocate()
        targets.deallocate()
        nextLink.deallocate()
        linkCounts.deallocate()
    }

    /// Counters of their own with the same counts.
    @usableFromInline package func copy() -> HopCounters {
        HopCounters(copying: self)
    }

    /// Sets where each name of the traces being added is among the handlers.
    @usableFromInline package func setHandlers(byName indexes: UnsafeBufferPointer<Int>) {
        handlerByName.deallocate()
        handlerByName = .allocate(capacity: indexes.count)
        cell.value.handlerByNameCapacity = indexes.count
        if let base = indexes.baseAddress { handlerByName.initialize(from: base, count: indexes.count) }
        handlerByNameCount = indexes.count
    }

    /// Adds where each of the names a longer list of the same names adds is among the handlers: the names a log
    /// reader's list of a chain's names gained. Grows by doubling, so that a list that gains its names one trace at
    /// a time is copied a logarithmic number of times, not once per name (see `CompactNameMapping`). With it and
    /// the mapping, `chaintrace stats` over a compact log of 50 000 traces each naming a handler of its own: 17.8 s
    /// before, 1.56 s after (`ManyHandlerNamesTests` checks the profile against plain traces').
    @usableFromInline package func appendHandlers(byName indexes: UnsafeBufferPointer<Int>) {
        let count = handlerByNameCount + indexes.count
        if count > cell.value.handlerByNameCapacity {
            let capacity = Swift.max(count, cell.value.handlerByNameCapacity * 2)
            let larger = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
            larger.moveInitialize(from: handlerByName, count: handlerByNameCount)
            handlerByName.deallocate()
            handlerByName = larger
            cell.value.handlerByNameCapacity = capacity
        }
        if let base = indexes.baseAddress {
            (handlerByName + handlerByNameCount).initialize(from: base, count: indexes.count)
        }
        handlerByNameCount = count
    }

    /// Makes room for one more handler, with index ``handlerCount`` before the call.
    @usableFromInline package func addHandler() {
        if handlerCount == handlerCapacity {
            let capacity = handlerCapacity * 2
            Self.grow(&rows, from: handlerCount, to: capacity)
            Self.grow(&pending, from: handlerCount * Self.exactSelfTimeLimit, to: capacity * Self.exactSelfTimeLimit)
            Self.grow(&firstLink, from: handlerCount + 1, to: capacity + 1)
            handlerCapacity = capacity
        }
        (rows + handlerCount).initialize(to: Row())
        (pending + handlerCount * Self.exactSelfTimeLimit).initialize(repeating: 0, count: Self.exactSelfTimeLimit)
        (firstLink + handlerCount + 1).initialize(to: -1)
        handlerCount += 1
    }

    @usableFromInline static func grow<Element>(
        _ memory: inout UnsafeMutablePointer<Element>,
        from count: Int,
        to capacity: Int
    ) {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        larger.moveInitialize(from: memory, count: count)
        memory.deallocate()
        memory = larger
    }

    /// Counts a hop of handler `index`; `false` when its self time is too long to count here, for the caller's
    /// histogram.
    @inline(__always)
    @inlinable package func add(
        _ decision: CountedDecision,
        selfNanoseconds: UInt64,
        inclusiveNanoseconds: UInt64,
        at index: Int
    ) -> Bool {
        let row = rows + index
        row.pointee.seen &+= 1
        switch decision {
        case .accepted: row.pointee.accepted &+= 1
        case .passed: row.pointee.passed &+= 1
        case .continued: row.pointee.continued &+= 1
        case .failed: row.pointee.failed &+= 1
        }
        // Saturating: the times come from files.
        let (selfSum, selfOverflow) = row.pointee.totalSelfNanoseconds.addingReportingOverflow(selfNanoseconds)
        row.pointee.totalSelfNanoseconds = selfOverflow ? .max : selfSum
        let (inclusiveSum, inclusiveOverflow) = row.pointee.totalInclusiveNanoseconds.addingReportingOverflow(
            inclusiveNanoseconds
        )
        row.pointee.totalInclusiveNanoseconds = inclusiveOverflow ? .max : inclusiveSum
        guard selfNanoseconds < UInt64(Self.exactSelfTimeLimit) else { return false }
        pending[index &* Self.exactSelfTimeLimit &+ Int(selfNanoseconds)] &+= 1
        pendingCount &+= 1
        return true
    }

    /// How many of a node's links a count scans before it looks the target up instead (see `longLinks`).
    @usableFromInline package static var scannedLinks: Int { 32 }

    /// Counts one command going from node `from` (0 for its arrival, `i + 1` for handler `i`) to handler `to`.
    @inline(__always)
    @inlinable package func countLink(from: Int, to: Int) {
        var link = Int(firstLink[from])
        var scanned = 0
        while link >= 0 {
            if Int(targets[link]) == to {
                linkCounts[link] &+= 1
                return
            }
            link = Int(nextLink[link])
            scanned &+= 1
            if scanned == Self.scannedLinks {
                countLongLink(from: from, to: to)
                return
            }
        }
        addLink(from: from, to: to)
    }

    /// ``countLink(from:to:)`` for a node with many links: by its index of them.
    @usableFromInline func countLongLink(from: Int, to: Int) {
        if let link = link(from: from, to: to) {
            linkCounts[link] &+= 1
        } else {
            addLink(from: from, to: to)
        }
    }

    /// The link from node `from` to handler `to`, if there is one: looked up when the node has an index of its
    /// links, else found by a scan of them all — after which a node with ``scannedLinks`` links or more gets its
    /// index, so that no target of a long list is scanned for twice.
    func link(from: Int, to: Int) -> Int? {
        if let index = cell.value.longLinks[from] { return index[Int32(truncatingIfNeeded: to)].map(Int.init) }
        var found: Int?
        var index: [Int32: Int32] = [:]
        var link = Int(firstLink[from])
        while link >= 0 {
            if Int(targets[link]) == to { found = link }
            index[targets[link]] = Int32(link)
            link = Int(nextLink[link])
        }
        if index.count >= Self.scannedLinks { cell.value.longLinks[from] = index }
        return found
    }

    @usableFromInline func addLink(from: Int, to: Int) {
        if linkCount == linkCapacity {
            let capacity = linkCapacity * 2
            Self.grow(&targets, from: linkCount, to: capacity)
            Self.grow(&nextLink, from: linkCount, to: capacity)
            Self.grow(&linkCounts, from: linkCount, to: capacity)
            linkCapacity = capacity
        }
        (targets + linkCount).initialize(to: Int32(to))
        (linkCounts + linkCount).initialize(to: 1)
        (nextLink + linkCount).initialize(to: firstLink[from])
        firstLink[from] = Int32(linkCount)
        if cell.value.longLinks[from] != nil {
            cell.value.longLinks[from]![Int32(truncatingIfNeeded: to)] = Int32(linkCount)
        }
        linkCount += 1
    }

    /// Adds another profile's counts of a handler to handler `index` (saturating, as counting does).
    @usableFromInline package func add(_ other: Row, at index: Int) {
        func sum<Number: FixedWidthInteger>(_ left: Number, _ right: Number) -> Number {
            let (total, overflow) = left.addingReportingOverflow(right)
            return overflow ? .max : total
        }
        let row = rows + index
        row.pointee.seen = sum(row.pointee.seen, other.seen)
        row.pointee.accepted = sum(row.pointee.accepted, other.accepted)
        row.pointee.passed = sum(row.pointee.passed, other.passed)
        row.pointee.continued = sum(row.pointee.continued, other.continued)
        row.pointee.failed = sum(row.pointee.failed, other.failed)
        row.pointee.totalSelfNanoseconds = sum(row.pointee.totalSelfNanoseconds, other.totalSelfNanoseconds)
        row.pointee.totalInclusiveNanoseconds = sum(
            row.pointee.totalInclusiveNanoseconds,
            other.totalInclusiveNanoseconds
        )
    }

    /// Adds `count` commands going along a link, as ``countLink(from:to:)`` does one.
    @usableFromInline package func addLink(from: Int, to: Int, count: Int) {
        guard count > 0 else { return }
        countLink(from: from, to: to)
        guard let link = link(from: from, to: to) else { return }
        let (sum, overflow) = linkCounts[link].addingReportingOverflow(count - 1)
        linkCounts[link] = overflow ? .max : sum
    }

    /// Handler `index`'s counts.
    @usableFromInline package func row(_ index: Int) -> Row {
        rows[index]
    }

    /// Calls `body` with handler `index`'s pending self-time counters.
    @usableFromInline package func withPendingSelfTimes<Result>(
        of index: Int,
        _ body: (UnsafeBufferPointer<UInt32>) -> Result
    ) -> Result {
        body(UnsafeBufferPointer(start: pending + index * Self.exactSelfTimeLimit, count: Self.exactSelfTimeLimit))
    }

    /// Empties every handler's pending self-time counters (after they were folded).
    @usableFromInline package func clearPendingSelfTimes() {
        pending.update(repeating: 0, count: handlerCount * Self.exactSelfTimeLimit)
        pendingCount = 0
    }

    /// Every link with its count: `from` is the node (0 for the arrival), `to` the handler.
    @usableFromInline package func forEachLink(_ body: (_ from: Int, _ to: Int, _ count: Int) -> Void) {
        for from in 0...handlerCount {
            var link = Int(firstLink[from])
            while link >= 0 {
                body(from, Int(targets[link]), linkCounts[link])
                link = Int(nextLink[link])
            }
        }
    }
}
