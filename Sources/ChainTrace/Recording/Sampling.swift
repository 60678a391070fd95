import ChainTraceFastPath

/// Which commands a ``Recorder`` traces.
///
/// ```swift
/// Recorder(sink: sink, sampling: .oneIn(100))   // every 100th command of each thread (async: of each task)
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
    /// async instrumented hops) count per task, since a task moves between threads at its suspension points: a
    /// task's first command is traced and then every `interval`-th, wherever it ran. A command is counted once,
    /// where it enters: it is traced whole or not at all (an instrumented chain's nested hops never start a trace
    /// of their own for a command its first hop left untraced).
    public static func oneIn(_ interval: Int) -> Sampling {
        Sampling(interval: max(1, interval))
    }
}

/// A thread's countdown to its next sampled command, for one recorder. Only the owning thread touches it.
@usableFromInline
typealias SamplingCountdown = UncheckedCell<Int>

/// The sampling countdowns of the tasks sending through one chain's async sends, by task.
///
/// Bounded, however many tasks come and go: when it holds `limit` tasks it forgets them all, and every task
/// then starts counting afresh (its next command is traced, as a new task's first one is). Until then, each task
/// counts exactly. Tasks are known by their identity's hash, and Swift tells no one when a task ends: a task
/// that a finished one's memory is reused for goes on with its count; the share traced stays one in the interval.
struct TaskCountdowns {
    static let limit = 4096
    private var countdowns: [Int: Int] = [:]

    /// Whether the task identified by `task` traces its next command, counting it.
    mutating func admit(task: Int, interval: Int) -> Bool {
        if countdowns[task] == nil, countdowns.count >= Self.limit { countdowns.removeAll(keepingCapacity: true) }
        let countdown = countdowns[task, default: 0]
        countdowns[task] = countdown == 0 ? interval - 1 : countdown - 1
        return countdown == 0
    }
}
