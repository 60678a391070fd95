import CChainTraceSupport

/// A lock of one word, for critical sections of a few dozen instructions of ChainTrace's own that never call out
/// and are nearly never contended: taking it is one compare-and-swap, letting go one release store
/// (`chaintrace_word_lock`); a thread that finds it held spins briefly, then yields between tries.
///
/// What it buys: an async instrumented chain's trace is shared with the task's children, so each hop's `begin`
/// and `end` take its lock. With ``LockedValue``'s pthread mutex there, the async `traceHop` row of
/// `chaintrace-benchmarks` took 194.7 ns a hop, with this lock 182.5 (medians of ten interleaved runs). Not for
/// anything that may wait long or run other code while it holds the lock: a waiter spins, then yields, until the
/// holder lets go.
///
/// `@unchecked Sendable`: the word is only changed by the atomic operations above.
@usableFromInline package final class WordLock: @unchecked Sendable {
    @usableFromInline let word: UnsafeMutablePointer<Int32>

    /// A lock, not held.
    @usableFromInline package init() {
        word = .allocate(capacity: 1)
        word.initialize(to: 0)
    }

    deinit {
        word.deallocate()
    }

    /// Runs `body` holding the lock.
    @inlinable
    package func withLock<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        chaintrace_word_lock(word)
        defer { chaintrace_word_unlock(word) }
        return try body()
    }
}
