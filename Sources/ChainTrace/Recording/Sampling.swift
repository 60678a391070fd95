import ChainTraceFastPath

/// Which commands a ``Recorder`` traces.
///
/// ```swift
/// Recorder(sink: sink, sampling: .oneIn(100))   // every 100th command of each thread (async: of all tasks)
/// ```
public struct Sampling: Sendable, Hashable {
    /// Every how many commands one is traced; 1 traces them all.
    public let interval: Int

    /// Trace every command.
    public static let all = Sampling(interval: 1)

    /// Trace the first command and then every `interval`-th one; values below 1 mean 1.
    ///
    /// Synchronous sends count per thread (and, for ``Chain``s, per chain), so sampling adds no shared counter to
    /// the hot path; over many threads the share traced is still one in `interval`. Async sends (``AsyncChain``,
    /// async instrumented hops) count together, whichever task sends them (one atomic addition a command): a task
    /// moves between threads at its suspension points, and a server's tasks come and go, one a request — counted
    /// per task, each new task's first command would be traced. Of `n` commands, the first and every
    /// `interval`-th are traced: exactly `n / interval`, rounded up, however many tasks sent them at once (which
    /// of a task's commands they are depends on how the tasks interleave). A command is counted once,
    /// where it enters: it is traced whole or not at all (an instrumented chain's nested hops never start a trace
    /// of their own for a command its first hop left untraced).
    public static func oneIn(_ interval: Int) -> Sampling {
        Sampling(interval: max(1, interval))
    }
}

/// A thread's countdown to its next sampled command, for one recorder. Only the owning thread touches it.
@usableFromInline
typealias SamplingCountdown = UncheckedCell<Int>
