import ChainTraceFastPath

/// Which commands a ``Recorder`` traces.
///
/// ```swift
/// Recorder(sink: sink, sampling: .oneIn(100))   // every 100th command on each thread
/// ```
public struct Sampling: Sendable, Hashable {
    /// Every how many commands one is traced; 1 traces them all.
    public let interval: Int

    /// Trace every command.
    public static let all = Sampling(interval: 1)

    /// Trace the first command and then every `interval`-th one; values below 1 mean 1.
    ///
    /// Counting is per thread (and, for ``Chain``s, per chain), so sampling adds no shared counter to the hot
    /// path; over many threads the share traced is still one in `interval`. A command is counted once, where
    /// it enters: it is traced whole or not at all (an instrumented chain's nested hops never start a trace of
    /// their own for a command its first hop left untraced). An async chain's task may move between threads, so
    /// which of its commands are traced varies from run to run; the share does not.
    public static func oneIn(_ interval: Int) -> Sampling {
        Sampling(interval: max(1, interval))
    }
}

/// A thread's countdown to its next sampled command, for one recorder. Only the owning thread touches it.
@usableFromInline
typealias SamplingCountdown = UncheckedCell<Int>
