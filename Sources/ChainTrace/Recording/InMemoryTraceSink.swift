import ChainTraceFastPath
/// Keeps traces in memory: for tests, for dry runs, and as the "last N" ring of a running app.
///
/// Each recording thread appends to its own shard, so threads never contend; ``traces`` merges the shards in
/// start-time order. With a `limit`, only the newest `limit` traces are kept and ``droppedCount`` counts the rest.
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
    private let shards = LockedValue<[Shard]>([])

    /// Creates a sink that keeps every trace, or only the newest `limit` of them.
    public init(limit: Int? = nil) {
        self.limit = limit.map { max(1, $0) }
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
                token: token, owner: self,
                make: { () -> Shard in
                    let shard = Shard(limit: limit)
                    shards.withLock { $0.append(shard) }
                    return shard
                }
            ) { $0.append(trace) }
            Trace.recycle(&evicted, on: SendingThread(state: thread))
        }
    }

    /// The traces kept, oldest first.
    public var traces: [Trace] {
        var keyed = shards.withLock { $0 }.flatMap { $0.snapshot() }.map { (start: $0.startTime, trace: $0) }
        keyed.sort { ($0.start, $0.trace.id) < ($1.start, $1.trace.id) }
        if let limit, keyed.count > limit { keyed.removeFirst(keyed.count - limit) }
        return keyed.map(\.trace)
    }

    /// How many traces were recorded but are no longer kept because of the limit.
    public var droppedCount: Int {
        let perShard = shards.withLock { $0 }.map { $0.counts() }
        let recorded = perShard.reduce(0) { $0 + $1.recorded }
        let kept = min(perShard.reduce(0) { $0 + $1.kept }, limit ?? .max)
        return recorded - kept
    }

    /// Forgets every trace kept so far.
    public func removeAll() {
        for shard in shards.withLock({ $0 }) { shard.removeAll() }
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

        init(limit: Int?) {
            self.limit = limit
        }

        /// Keeps `trace`; returns the oldest one when the ring was full, moved out (not copied) so that the caller
        /// can tell whether anything else still holds it.
        func append(_ trace: Trace) -> Trace? {
            storage.withLock { storage in
                storage.recorded += 1
                if let limit, storage.ring.count == limit {
                    var evicted = trace
                    swap(&storage.ring[storage.oldest], &evicted)
                    storage.oldest = (storage.oldest + 1) % limit
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
    }
}
