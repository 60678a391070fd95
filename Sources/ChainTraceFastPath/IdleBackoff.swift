/// How long a ``BackgroundDrain`` sleeps after a pass that moved less than a busy pass (``busyPass``): a millisecond
/// at first, twice as long after each further such pass up to ``longest``; a busy pass halves it again, and the
/// drain goes round at once. Never longer than the flush interval, and while something drained since the last
/// flushing pass waits to be written, never past the next flush's due time: a trace handed over is written within
/// the flush interval, as before.
///
/// What it buys: an idle drain woke a thousand times a second, which cost an idle trace log about 2.4% of a core
/// on this VM (its process's CPU time over five idle seconds). Backing off, it wakes about 16 times a second. A
/// trickle — a server tracing one connection in 100 — woke it every millisecond too, each wake two context switches
/// on a busy server's cores (1 500 a second against 250 untraced, the NIO sample under `wrk`); now a trickle is
/// drained in batches, as an idle spell is slept through. Recording threads wake it early when their queue is half
/// full (``HandOffQueue/isHalfFullToProducer``), so a burst finds the drain awake before its queue fills.
///
/// Not a speed trick: it is the sleeping policy of ``BackgroundDrain``, which lives in this module, and it holds
/// no unsafe code. It saves CPU beside the recording threads, not time a hop.
package struct IdleBackoff: Equatable, Sendable {
    /// The shortest sleep, in nanoseconds.
    package static let shortest: Int64 = 1_000_000
    /// The longest sleep, in nanoseconds (a power of two times ``shortest``).
    package static let longest: Int64 = 64_000_000

    /// The fewest elements a busy pass moves: the drain goes round again at once after one, and sleeps after any
    /// other pass.
    package static let busyPass = 256

    /// The next sleep's length, unless a flush is due sooner.
    package private(set) var wait: Int64 = IdleBackoff.shortest
    /// Whether a pass moved something since the last flushing pass: the consumer may hold it unwritten.
    package private(set) var holdsUnflushed = false

    /// A backoff at its shortest.
    package init() {}

    /// Notes a pass that moved `moved` elements, flushing or not.
    package mutating func passed(moved: Int, flushing: Bool) {
        if flushing { holdsUnflushed = false }
        if moved > 0, !flushing { holdsUnflushed = true }
        if moved >= Self.busyPass { wait = max(Self.shortest, wait / 2) }
    }

    /// Whether the drain sleeps after a pass that moved `moved` elements: after any but a busy one.
    package static func sleepsAfter(moved: Int) -> Bool { moved < busyPass }

    /// How long to sleep now, after a pass that was not busy, `sinceFlush` nanoseconds after the last flushing pass,
    /// with a flush due every `flushInterval`; then doubles the next sleep (up to ``longest``). At least a
    /// microsecond.
    package mutating func sleep(sinceFlush: Int64, flushInterval: Int64) -> Int64 {
        var length = min(wait, flushInterval)
        if holdsUnflushed { length = min(length, max(0, flushInterval &- sinceFlush)) }
        wait = min(Self.longest, wait &* 2)
        return max(1_000, length)
    }
}
