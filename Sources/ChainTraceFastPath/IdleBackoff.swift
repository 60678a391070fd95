/// How long a ``BackgroundDrain`` sleeps after a pass that moved nothing: a millisecond at first, twice as long
/// after each further empty pass up to ``longest``, and back to a millisecond once a pass moves something. Never
/// longer than the flush interval, and while something drained since the last flushing pass waits to be written,
/// never past the next flush's due time: a trace handed over is written within the flush interval, as before.
///
/// What it buys: an idle drain woke a thousand times a second, which cost an idle trace log about 2.4% of a core
/// on this VM (its process's CPU time over five idle seconds). Backing off, it wakes about 16 times a second.
/// Recording threads wake it early when their queue is half full (``HandOffQueue/isHalfFullToProducer``), so a
/// burst after an idle spell finds the drain awake before its queue fills.
///
/// Not a speed trick: it is the sleeping policy of ``BackgroundDrain``, which lives in this module, and it holds
/// no unsafe code. It saves idle CPU, not time a hop.
package struct IdleBackoff: Equatable, Sendable {
    /// The first sleep after a pass that moved something, in nanoseconds.
    package static let shortest: Int64 = 1_000_000
    /// The longest sleep, in nanoseconds (a power of two times ``shortest``).
    package static let longest: Int64 = 64_000_000

    /// The next sleep's length, unless a flush is due sooner.
    package private(set) var wait: Int64 = IdleBackoff.shortest
    /// Whether a pass moved something since the last flushing pass: the consumer may hold it unwritten.
    package private(set) var holdsUnflushed = false

    /// A backoff at its shortest.
    package init() {}

    /// Notes a pass that moved `moved` elements, flushing or not.
    package mutating func passed(moved: Int, flushing: Bool) {
        if flushing { holdsUnflushed = false }
        if moved > 0 {
            wait = Self.shortest
            if !flushing { holdsUnflushed = true }
        }
    }

    /// How long to sleep now, after an empty pass, `sinceFlush` nanoseconds after the last flushing pass, with a
    /// flush due every `flushInterval`; then doubles the next sleep (up to ``longest``). At least a microsecond.
    package mutating func sleep(sinceFlush: Int64, flushInterval: Int64) -> Int64 {
        var length = min(wait, flushInterval)
        if holdsUnflushed { length = min(length, max(0, flushInterval &- sinceFlush)) }
        wait = min(Self.longest, wait &* 2)
        return max(1_000, length)
    }
}
