extension Trace {
    /// Hands `trace`'s storage back to the calling thread for its next traced walk, when `trace` held the last
    /// reference to it — how a replay records a million commands without allocating a trace for each, and how a
    /// ring (`InMemoryTraceSink(limit:)`) and a trace log (each trace its writer has written, handed back by
    /// `HandOffQueue.push(_:reclaiming:)`) let the traces they are done with be refilled. Leaves `trace` empty either
    /// way. What it buys: a replay allocates no trace a command (`chaintrace-cli-benchmarks`, "replay" column: a
    /// flat stream about 29% faster with it, a varied one 5%), and a trace log refills what its writer wrote
    /// (`chaintrace-benchmarks`, "trace log, background, drop when behind": about 10 ns a hop).
    ///
    /// - Parameter thread: The calling thread, looked up once for the caller's whole loop.
    package static func recycle(_ trace: inout Trace?, on thread: SendingThread) {
        // Taken out rather than copied, so the check sees the trace's own reference and nothing is retained.
        guard let taken = trace.take() else { return }
        var storage = taken.storage
        _ = consume taken
        if isKnownUniquelyReferenced(&storage) { thread.state.spareTraceStorage = consume storage }
    }
}

extension Trace {
    /// Whether the calling thread holds a spare storage for its next traced walk: for tests that check a sink
    /// hands storages back.
    package static var callingThreadHasSpareStorage: Bool {
        ThreadState.withCurrent { $0.spareTraceStorage != nil }
    }
}
