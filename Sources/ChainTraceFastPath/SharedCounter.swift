import CChainTraceSupport

/// A 64-bit count every thread may add to at once — one atomic read-modify-write an addition, no lock: which async
/// command a sampling recorder traces, whichever task sends it. What it buys over the lock and dictionary of task
/// countdowns it replaced: the async instrumented chain sampled 1 in 100, 114–124 → 103–111 ns a hop
/// (`chaintrace-benchmarks`, four interleaved rounds); `FastPathTests` checks it against a mutex's count.
@usableFromInline package final class SharedCounter: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Int64>

    /// A count starting at zero.
    @usableFromInline package init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: 0)
    }

    deinit { storage.deallocate() }

    /// Adds one and returns the count before it: 0, 1, 2, … across all threads, each number handed out once (as
    /// an unsigned count, wrapping after 2^64).
    @inlinable package func next() -> UInt64 { UInt64(bitPattern: chaintrace_fetch_increment(storage)) }
}
