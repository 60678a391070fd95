#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a ``BackgroundDrain`` hands the elements it drains to: a trace log's file, a tracer.
@usableFromInline package protocol BackgroundDrainConsumer: AnyObject, Sendable {
    /// What recording threads hand over.
    associatedtype Element

    /// One pass, on the drain's thread: calls `drainQueues` once — which gives `take` every queued element (each
    /// thread's in the order it handed them over) and `dropped` the count of elements dropped since the last pass
    /// by threads whose queue was full — and does whatever else the pass owes (work handed over another way,
    /// writing a buffer when `flushing`).
    ///
    /// - Parameter flushing: A flush or close asked for everything handed over to be delivered, or the drain's
    ///   interval has passed since the last flushing pass.
    /// - Returns: How much the pass moved (0: nothing to do, the drain sleeps a little).
    func pass(
        flushing: Bool,
        drainQueues: (_ take: (borrowing Element) -> Void, _ dropped: (Int) -> Void) -> Int
    ) -> Int

    /// Called once, on the closing thread, after the last pass.
    func finish()
}

/// A thread that drains the hand-off queues of recording threads into a consumer: how a sink keeps the work of
/// delivering traces (encoding and writing a log, making spans) off the threads that record them.
///
/// Each recording thread hands elements over through a queue of its own (``register(capacity:)``,
/// ``HandOffQueue``: no lock shared between threads, no system call, no allocation); the drain's thread wakes
/// from a timed condition wait when there is little or nothing to do — after a millisecond, then after longer and
/// longer spells while little comes (``IdleBackoff``), or when a recording thread's queue is half full or full — and
/// passes over every queue as long as much comes. It holds the consumer, never the sink that owns it, so dropping the sink (whose `deinit` closes the
/// drain) stops it.
///
/// What it buys, measured: recording into a trace log costs the recording thread a hand-off, not the encoding
/// and the write (`chaintrace-benchmarks`, "trace log file" rows); sending spans to swift-otel costs it the same
/// hand-off instead of the spans (`Examples/OpenTelemetry`, `VendingMachineOTel bench`). Tested through both sinks: traces from many threads all reach the log once, in each
/// thread's order, drops counted and recorded (`BackgroundTraceLogSinkTests`); spans made on the drain's thread
/// equal those the recording thread makes, and made plus dropped is every trace (`SpanTraceSinkBackgroundTests`).
@usableFromInline package final class BackgroundDrain<Consumer: BackgroundDrainConsumer>: @unchecked Sendable {
    /// One recording thread's queue, and the count of elements it dropped (written by that thread only).
    @usableFromInline package final class ThreadQueue: @unchecked Sendable {
        /// The elements handed over.
        @usableFromInline package let queue: HandOffQueue<Consumer.Element>
        let dropped = PublishedCounter()
        /// The part of `dropped` already passed to the consumer (drain thread only).
        var droppedReported: Int64 = 0

        init(capacity: Int) {
            queue = HandOffQueue(capacity: capacity)
        }

        /// Notes one dropped element (the owning thread only).
        @usableFromInline package func noteDropped() {
            dropped.increment()
        }

        var droppedCount: Int64 { dropped.value }
    }

    private struct Control {
        var flushesRequested = 0
        var flushesDone = 0
        var closing = false
        var finished = false
        /// Passes made so far, for threads waiting for room in their queue.
        var passes = 0
        /// Calls to ``wake()`` so far: one made while the drain was in a pass still cuts its next sleep short.
        var wakes = 0
    }

    /// What the drained elements go to.
    @usableFromInline package let consumer: Consumer
    private let queues = LockedValue<[ThreadQueue]>([])
    /// Drops counted by queues of threads that have exited.
    private let removedDropped = LockedValue(0)
    private let flushInterval: Int64
    private let control = ConditionLock(Control())
    private var thread: JoinableThread?

    /// A drain into `consumer` that passes `flushing` at least every `flushInterval` (at least a millisecond);
    /// ``start()`` starts its thread.
    @usableFromInline package init(consumer: Consumer, flushInterval: Duration) {
        self.consumer = consumer
        let (seconds, attoseconds) = flushInterval.components
        self.flushInterval = max(1_000_000, seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
    }

    /// Starts the thread. It holds the drain until it returns, after ``close()``.
    @usableFromInline package func start() {
        thread = JoinableThread { [self] in run() }
    }

    /// A new queue for a recording thread.
    @usableFromInline package func register(capacity: Int) -> ThreadQueue {
        let queue = ThreadQueue(capacity: capacity)
        queues.withLock { $0.append(queue) }
        return queue
    }

    /// Every element dropped so far, by every thread.
    @usableFromInline package var droppedCount: Int {
        queues.withLock { $0.reduce(0) { $0 + Int($1.droppedCount) } } + removedDropped.withLock { $0 }
    }

    /// Wakes the drain (a recording thread found its queue half full, or full), or cuts its next sleep short if it
    /// is in a pass.
    @usableFromInline package func wake() {
        control.withLock { $0.wakes &+= 1 }
    }

    /// Passes made so far.
    package var passCount: Int { control.withLock { $0.passes } }

    /// Calls to ``wake()`` so far.
    package var wakeCount: Int { control.withLock { $0.wakes } }

    /// Wakes the drain and waits until it has made a pass (or a millisecond has gone by, or it is closing): what a
    /// recording thread whose queue is full does, rather than spin, so that the core goes to the drain (and to
    /// any other busy thread) instead. It does not say there is room now: the caller tries again.
    @usableFromInline package func waitForAPass() {
        let seen = control.withLock { $0.passes }
        control.wait(atMost: 1_000_000) { $0.passes != seen || $0.closing || $0.finished }
    }

    /// Returns once every element handed over before the call has been through a flushing pass.
    @usableFromInline package func flush() {
        let ticket = control.withLock { control -> Int in
            control.flushesRequested += 1
            return control.flushesRequested
        }
        control.wait { $0.flushesDone >= ticket || $0.finished }
    }

    /// Delivers everything handed over, stops the thread and finishes the consumer.
    @usableFromInline package func close() {
        control.withLock { $0.closing = true }
        thread?.join()
        thread = nil
        // An element handed over while the thread made its last pass is delivered too, not lost.
        _ = consumer.pass(flushing: true, drainQueues: drainQueues)
        consumer.finish()
    }

    private func run() {
        var lastFlush = Self.now()
        var backoff = IdleBackoff()
        while true {
            let (requested, flushing, closing, wakes) = control.withLock {
                ($0.flushesRequested, $0.flushesRequested > $0.flushesDone, $0.closing, $0.wakes)
            }
            let now = Self.now()
            let due = flushing || closing || now - lastFlush >= flushInterval
            if due { lastFlush = now }
            let moved = consumer.pass(flushing: due, drainQueues: drainQueues)
            backoff.passed(moved: moved, flushing: due)
            pruneQueues()
            let finished = control.withLock { control -> Bool in
                control.flushesDone = max(control.flushesDone, requested)
                control.passes &+= 1
                if closing, moved == 0 { control.finished = true }
                return control.finished
            }
            if finished { return }
            // Not a busy pass: sleep, unless a flush, a close or a wake came meanwhile.
            if IdleBackoff.sleepsAfter(moved: moved) {
                let sleep = backoff.sleep(sinceFlush: Self.now() - lastFlush, flushInterval: flushInterval)
                control.wait(atMost: Int(sleep)) {
                    $0.flushesRequested != requested || $0.closing || $0.wakes != wakes
                }
            }
        }
    }

    /// Gives every queued element to `take` and the drops since the last pass to `dropped`; how many elements.
    private func drainQueues(_ take: (borrowing Consumer.Element) -> Void, _ dropped: (Int) -> Void) -> Int {
        let current = queues.withLock { $0 }
        var moved = 0
        for queue in current {
            moved += queue.queue.drainBorrowing(take)
            let count = queue.droppedCount
            if count > queue.droppedReported {
                dropped(Int(count - queue.droppedReported))
                queue.droppedReported = count
            }
        }
        return moved
    }

    /// Forgets the queues of threads that have exited (only this list still holds them), once drained.
    private func pruneQueues() {
        queues.withLock { queues in
            var index = 0
            while index < queues.count {
                if isKnownUniquelyReferenced(&queues[index]), queues[index].queue.isEmpty,
                    queues[index].droppedCount == queues[index].droppedReported
                {
                    let dropped = Int(queues[index].droppedCount)
                    removedDropped.withLock { $0 += dropped }
                    queues.remove(at: index)
                } else {
                    index += 1
                }
            }
        }
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
