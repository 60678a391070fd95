public import ChainTrace

/// A bounded choice of a log's traces to show one by one: failures (every one while they fill at most half the
/// limit, else a uniform half of them), then the slowest (a tenth of the limit), then a uniform sample of the
/// rest — the same choice however the log is split between threads.
///
/// "Uniform" keeps the traces with the smallest keys, a fixed hash of each trace's own numbers (its id, start
/// and duration), so it does not depend on where a part of the log begins; ties go to the earlier trace. A log
/// failing everywhere still shows its slowest and ordinary commands, and failures from all of it, not only its
/// first part.
///
/// ```swift
/// let (read, sample) = try TraceLogProfiler().profile(paths: [log], collecting: { TraceSample(limit: 1000) })
/// for entry in sample.chosen() { print(entry.number, entry.trace.outcome) }
/// ```
public struct TraceSample: TraceCollector {
    /// One chosen trace.
    public struct Entry: Sendable {
        /// The trace's number in the log, from 1.
        public var number: Int
        /// The trace.
        public var trace: Trace
        /// Why it was chosen.
        public var reason: Reason
    }

    /// Why a trace was chosen.
    public enum Reason: String, Sendable, Hashable {
        /// It failed.
        case failed
        /// It is among the slowest in the log.
        case slowest
        /// It fell in the uniform sample.
        case sampled
    }

    /// The most traces ``chosen()`` returns.
    public let limit: Int
    /// The traces seen.
    public private(set) var count = 0
    /// The failed traces seen.
    public private(set) var failedCount = 0

    /// The failures with the smallest keys, at most `failureLimit`.
    private var failures = BoundedHeap(keepsLargest: false)
    /// The `slowestLimit` longest traces seen, the shortest of them on top.
    private var slowest = BoundedHeap(keepsLargest: true)
    /// The `limit` traces with the smallest keys seen, the largest key on top.
    private var uniform = BoundedHeap(keepsLargest: false)

    /// At most this many of the chosen traces are chosen for being the slowest: a tenth of the limit.
    private var slowestLimit: Int { max(1, limit / 10) }
    /// At most this many are chosen for failing: half the limit.
    private var failureLimit: Int { max(1, limit / 2) }

    /// A sample of at most `limit` traces.
    public init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Looks at the next trace.
    public mutating func add(_ trace: Trace) {
        count += 1
        let failed = trace.compactOutcome == .failed
        if failed { failedCount += 1 }
        guard limit > 0 else { return }
        let entry = Entry(number: count, trace: trace, reason: .sampled)
        let key = Self.key(of: trace)
        if failed { failures.offer(key, entry, number: count, keeping: failureLimit) }
        slowest.offer(trace.duration, entry, number: count, keeping: slowestLimit)
        uniform.offer(key, entry, number: count, keeping: limit)
    }

    /// Takes in the sample of the traces right after this one's.
    public mutating func append(_ later: TraceSample) {
        let offset = count
        count = count.saturatingAdd(later.count)
        failedCount = failedCount.saturatingAdd(later.failedCount)
        func shifted(_ entry: Entry) -> Entry {
            var entry = entry
            entry.number = entry.number.saturatingAdd(offset)
            return entry
        }
        for item in later.failures.items {
            failures.offer(
                item.value,
                shifted(item.entry),
                number: item.entry.number.saturatingAdd(offset),
                keeping: failureLimit
            )
        }
        for item in later.slowest.items {
            slowest.offer(
                item.value,
                shifted(item.entry),
                number: item.entry.number.saturatingAdd(offset),
                keeping: slowestLimit
            )
        }
        for item in later.uniform.items {
            uniform.offer(
                item.value,
                shifted(item.entry),
                number: item.entry.number.saturatingAdd(offset),
                keeping: limit
            )
        }
    }

    /// The chosen traces, at most ``limit``, in log order: the failures kept (up to half the limit), then the
    /// slowest (up to a tenth), then the uniform sample.
    public func chosen() -> [Entry] {
        var chosen: [Int: Entry] = [:]
        func take(_ entry: Entry, _ reason: Reason) {
            guard chosen.count < limit, chosen[entry.number] == nil else { return }
            var entry = entry
            entry.reason = reason
            chosen[entry.number] = entry
        }
        for entry in failures.sortedBest() { take(entry, .failed) }
        for entry in slowest.sortedBest() { take(entry, .slowest) }
        // Failures and the slowest may take places the uniform sample also holds; `limit` keys always leave
        // enough others to fill the rest.
        for entry in uniform.sortedBest() {
            if chosen.count >= limit { break }
            take(entry, .sampled)
        }
        return chosen.values.sorted { $0.number < $1.number }
    }

    /// A fixed hash of the trace's own numbers — id, start and duration — the same in every process, unlike
    /// `Hasher`. (Hashing the kind and command id too cost 2% of a `report`, for keys that the numbers already
    /// tell apart in any log a process wrote.)
    static func key(of trace: Trace) -> UInt64 {
        var key = StableHash.mix(trace.id)
        key = StableHash.mix(key ^ UInt64(bitPattern: trace.startTime))
        return StableHash.mix(key ^ trace.duration)
    }
}

/// The best `count` entries offered, by value then by number (the earlier wins a tie) — the largest values or the
/// smallest — in a binary heap with the worst kept on top, so a trace that cannot make the cut costs one
/// comparison and one that can costs a logarithm. The heap holds plain numbers and the place of each entry in
/// `entries`, so sifting copies no trace. (Sifting the entries themselves, each holding a trace, made `report` of a
/// 200 MB log take 2.3–2.5× the time of `stats`; this way, 1.5–1.65×: `Benchmarks/report-benchmark.py`.)
struct BoundedHeap: Sendable {
    /// One kept entry: its value, its number, and where it is in `entries`.
    private struct Slot: Sendable {
        var value: UInt64
        var number: Int
        var index: Int
    }

    /// Whether larger values are better.
    let keepsLargest: Bool
    /// The heap, worst first.
    private var slots: [Slot] = []
    /// The entries, in no order.
    private var entries: [TraceSample.Entry] = []

    init(keepsLargest: Bool) {
        self.keepsLargest = keepsLargest
    }

    /// The entries kept, each with its value, in no order.
    var items: [(value: UInt64, entry: TraceSample.Entry)] {
        slots.map { ($0.value, entries[$0.index]) }
    }

    /// Whether `a` is better than `b`.
    private func isBetter(_ a: Slot, than b: Slot) -> Bool {
        if a.value != b.value { return keepsLargest ? a.value > b.value : a.value < b.value }
        return a.number < b.number
    }

    /// Keeps `entry` if it is among the best `count` so far.
    mutating func offer(_ value: UInt64, _ entry: @autoclosure () -> TraceSample.Entry, number: Int, keeping count: Int)
    {
        guard count > 0 else { return }
        if slots.count < count {
            slots.append(Slot(value: value, number: number, index: entries.count))
            entries.append(entry())
            siftUp(slots.count - 1)
        } else if isBetter(Slot(value: value, number: number, index: 0), than: slots[0]) {
            entries[slots[0].index] = entry()
            slots[0].value = value
            slots[0].number = number
            siftDown(0)
        }
    }

    /// The entries kept, best first.
    func sortedBest() -> [TraceSample.Entry] {
        slots.sorted { isBetter($0, than: $1) }.map { entries[$0.index] }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard isBetter(slots[parent], than: slots[child]) else { return }
            slots.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var worst = parent
            let left = 2 * parent + 1
            let right = left + 1
            if left < slots.count, isBetter(slots[worst], than: slots[left]) { worst = left }
            if right < slots.count, isBetter(slots[worst], than: slots[right]) { worst = right }
            guard worst != parent else { return }
            slots.swapAt(parent, worst)
            parent = worst
        }
    }
}
