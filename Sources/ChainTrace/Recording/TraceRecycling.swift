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
