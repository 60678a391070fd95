import ChainTraceFastPath

/// Keeps traces in memory: for tests, for dry runs, and as the "last N" ring of a running app.
///
/// Each recording thread appends to its own shard, so threads never contend; ``traces`` merges the shards in
/// start-time order. With a `limit`, only the newest `limit` traces are kept and ``droppedCount`` counts the rest.
/// Once a thread has exited, its shard is merged into one ring of the traces of threads gone (when another thread
/// starts recording here, or the traces are read): the sink holds at most `limit` traces for each thread
/// recording into it, and `limit` more, however many threads come and go.
///
/// ```swift
/// let sink = InMemoryTraceSink()
/// chain.recorder = Recorder(sink: sink)
/// try chain.send(coin)
/// #expect(sink.traces.last?.outcome == .accepted(by: "Quarter"))
/// ```
public final class InMemoryTraceSink: TraceSink {
    /// The most traces kept (at least 1: a smaller `limit` keeps 1), or `nil` to keep every trace.
    public let limit: Int?
    private let token = OwnerTokens.make()
    /// The shards of the threads recording here; read, and changed, under this lock.
    private let shards = LockedValue<[Shard]>([])
    /// The newest traces of threads that have exited: their shards merged (see ``retireShardsOfExitedThreads(_:)``).
    private let retired: Shard

    /// Creates a sink that keeps every trace, or only the newest `limit` of them.
    public init(limit: Int? = nil) {
        self.limit = limit.map { max(1, $0) }
        retired = Shard(limit: self.limit, threadExited: nil)
    }

    deinit {
        // Threads drop their shards, and the traces in them.
        ThreadState.ownerReleased()
    }

    public func record(_ trace: Trace) {
        ThreadState.withCurrent { thread in
            // The trace a full ring pushes out goes back to this thread for its next traced send, when nothing
            // else holds it: a ring of the last N then allocates and frees no trace per command.
            var evicted = thread.withSlot(
                token: token,
                owner: self,
                make: { makeShard(for: thread) }
            ) { $0.append(trace) }
            Trace.recycle(&evicted, on: SendingThread(state: thread))
        }
    }

    /// A shard for `thread`, its first trace here: out of line, as it is made once a thread.
    @inline(never)
    private func makeShard(for thread: ThreadState) -> Shard {
        let shard = Shard(limit: limit, threadExited: thread.lifetime.exited)
        shards.withLock { list in
            // A thread joins: the shards of threads gone since the last one did are retired.
            retireShardsOfExitedThreads(&list)
            list.append(shard)
        }
        return shard
    }

    /// The traces kept, oldest first.
    public var traces: [Trace] {
        // Read under the list's lock, as a shard is retired: a trace is never read twice, nor missed, while its
        // thread's shard moves into the retired one.
        let traces = shards.withLock { list in
            retireShardsOfExitedThreads(&list)
            return list.flatMap { $0.snapshot() } + retired.snapshot()
        }
        return Self.newest(traces, limit: limit)
    }

    /// How many traces were recorded but are no longer kept because of the limit.
    public var droppedCount: Int {
        let perShard = shards.withLock { list in
            retireShardsOfExitedThreads(&list)
            return list.map { $0.counts() } + [retired.counts()]
        }
        let recorded = perShard.reduce(0) { $0 + $1.recorded }
        let kept = min(perShard.reduce(0) { $0 + $1.kept }, limit ?? .max)
        return recorded - kept
    }

    /// How many traces the sink holds in all, the newest `limit` and those older that threads still hold in their
    /// shards: at most `limit` a recording thread and `limit` more.
    package var heldCount: Int {
        shards.withLock { list in
            retireShardsOfExitedThreads(&list)
            return list.map { $0.counts().kept }.reduce(retired.counts().kept, +)
        }
    }

    /// Forgets every trace kept so far.
    public func removeAll() {
        shards.withLock { list in
            for shard in list { shard.removeAll() }
            retired.removeAll()
        }
    }

    /// `traces` in start-time order (then by id), the newest `limit` of them.
    private static func newest(_ traces: [Trace], limit: Int?) -> [Trace] {
        var keyed = traces.map { (start: $0.startTime, trace: $0) }
        keyed.sort { ($0.start, $0.trace.id) < ($1.start, $1.trace.id) }
        if let limit, keyed.count > limit { keyed.removeFirst(keyed.count - limit) }
        return keyed.map(\.trace)
    }

    /// Moves the traces of the shards in `list` whose threads have exited into the retired ring — the newest
    /// `limit` of them and it kept — and lets go of those shards. Called with the list's lock held, where a thread
    /// joins and where the traces are read: a thread's exit is published by its ``ThreadLifetime``, with no work on
    /// the recording path.
    private func retireShardsOfExitedThreads(_ list: inout [Shard]) {
        guard list.contains(where: \.isOfExitedThread) else { return }
        var traces = retired.snapshot()
        var recorded = 0
        list.removeAll { shard in
            guard shard.isOfExitedThread else { return false }
            traces += shard.snapshot()
            recorded += shard.counts().recorded
            return true
        }
        retired.replace(with: Self.newest(traces, limit: limit), adding: recorded)
    }

    /// One thread's traces; a ring when the sink has a limit.
    ///
    /// `@unchecked Sendable` is sound: the owning thread appends and readers copy, both under `storage`'s lock.
    private final class Shard: @unchecked Sendable {
        struct Storage {
            var ring: [Trace] = []
            var oldest = 0
            var recorded = 0
        }

        let limit: Int?
        let storage = LockedValue(Storage())
        /// 1 once the recording thread has exited (its ``ThreadLifetime/exited``); `nil` for the retired shard.
        let threadExited: PublishedCounter?

        init(limit: Int?, threadExited: PublishedCounter?) {
            self.limit = limit
            self.threadExited = threadExited
        }

        /// Whether the thread that recorded here has exited.
        var isOfExitedThread: Bool { threadExited.map { $0.value != 0 } ?? false }

        /// Keeps `trace`; returns the oldest one when the ring was full, moved out (not copied) so that the caller
        /// can tell whether anything else still holds it.
        func append(_ trace: Trace) -> Trace? {
            storage.withLock { storage in
                storage.recorded += 1
                if let limit, storage.ring.count == limit {
                    var evicted = trace
                    swap(&storage.ring[storage.oldest], &evicted)
                    // Not `% limit`, a division a trace: the traced `traceHop` row took ~1 ns a hop more with it
                    // (medians of 30 interleaved runs, 39.5 and 38.5 ns).
                    storage.oldest += 1
                    if storage.oldest == limit { storage.oldest = 0 }
                    return evicted
                }
                storage.ring.append(trace)
                return nil
            }
        }

        func snapshot() -> [Trace] {
            storage.withLock { Array($0.ring[$0.oldest...] + $0.ring[..<$0.oldest]) }
        }

        func counts() -> (recorded: Int, kept: Int) {
            storage.withLock { ($0.recorded, $0.ring.count) }
        }

        func removeAll() {
            storage.withLock { $0 = Storage() }
        }

        /// Holds `traces` (oldest first, at most `limit`) instead of its own, and counts `recorded` more recorded.
        func replace(with traces: [Trace], adding recorded: Int) {
            storage.withLock { $0 = Storage(ring: traces, oldest: 0, recorded: $0.recorded + recorded) }
        }
    }
}
