extension Trace {
    /// Hands `trace`'s storage back to the calling thread for its next traced walk, when `trace` held the last
    /// reference to it — how a replay records a million commands without allocating a trace for each. Leaves
    /// `trace` empty either way. What it buys, measured (best of 7 interleaved runs of `chaintrace replay`, with and
    /// without it): a flat million-command stream 29% faster, a stream of varied lines 5.5%.
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
    /// Takes back a trace a sink has finished with (its trace log written), on the thread that recorded it: when
    /// `trace` held the last reference to its storage and this thread has no spare, the storage becomes the spare
    /// that the thread's next traced walk fills instead of allocating one (what the storage still says of its last
    /// command, its payload included, is replaced then). `trace` is left empty either way.
    ///
    /// What it buys, measured (Docs/Performance.md, "runs 54–55 (trace log storages reused)"): a traced walk into a
    /// trace log writes into memory it wrote a moment ago instead of a new allocation freed a moment later — the
    /// trace log's drop row 37.0–38.6 → 27.6–28.3 ns a hop, payloads as text 56.5–69.3 → 43.8–47.4 (interleaved).
    package static func reuseStorage(of trace: inout Trace?) {
        // Taken out rather than copied, so the check sees the trace's own reference and nothing is retained.
        guard let taken = trace.take() else { return }
        var storage = taken.storage
        _ = consume taken
        guard isKnownUniquelyReferenced(&storage) else { return }
        ThreadState.withCurrent { state in
            if state.spareTraceStorage == nil { state.spareTraceStorage = storage }
        }
    }
}

extension Trace {
    /// Whether the calling thread holds a spare storage for its next traced walk: for tests that check a sink
    /// hands storages back.
    package static var callingThreadHasSpareStorage: Bool {
        ThreadState.withCurrent { $0.spareTraceStorage != nil }
    }
}
