import ChainTraceFastPath
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ChainTrace

/// The writer thread of a background ``TraceLogSink``: recording threads hand traces over through their own
/// queues (``HandOffQueue``, one per thread, no lock shared between them); this thread drains the queues, encodes
/// the traces and writes them.
///
/// It wakes every millisecond while there is nothing to do (a timed condition wait), writes its
/// buffer when it is full, at every ``TraceLogSink/Options/flushInterval``, on ``flush()`` and on ``close()``.
/// It holds no reference to the sink, so dropping the sink closes the log.
final class BackgroundTraceWriter: @unchecked Sendable {
    /// One recording thread's queue, and the count of traces it dropped (written by that thread only).
    final class ThreadQueue: @unchecked Sendable {
        let queue: HandOffQueue<Trace>
        let dropped = PublishedCounter()
        /// The part of `dropped` already written to the log (writer thread only).
        var droppedWritten: Int64 = 0

        init(capacity: Int) {
            queue = HandOffQueue(capacity: capacity)
        }

        /// Notes one dropped trace (the owning thread only).
        func noteDropped() {
            dropped.increment()
        }

        var droppedCount: Int64 { dropped.value }
    }

    private struct Control {
        var flushesRequested = 0
        var flushesDone = 0
        var closing = false
        var finished = false
    }

    let file: LockedValue<TraceLogFile>
    private let queues = LockedValue<[ThreadQueue]>([])
    private let flushInterval: Int64
    private let control = ConditionLock(Control())
    private var thread: JoinableThread?

    init(file: TraceLogFile, flushInterval: Duration) {
        self.file = LockedValue(file)
        let (seconds, attoseconds) = flushInterval.components
        self.flushInterval = max(1_000_000, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// Starts the thread. It holds the writer until it returns, after ``close()``.
    func start() {
        thread = JoinableThread { [self] in run() }
    }

    /// A new queue for a recording thread.
    func register(capacity: Int) -> ThreadQueue {
        let queue = ThreadQueue(capacity: capacity)
        queues.withLock { $0.append(queue) }
        return queue
    }

    /// Chain changes handed over, written before the traces of the next drain.
    private let edits = LockedValue<[ChainEdit]>([])

    /// Hands a chain change over (rare: under a lock).
    func submit(_ edit: ChainEdit) {
        edits.withLock { $0.append(edit) }
    }

    /// Every trace dropped so far, by every thread.
    var droppedCount: Int {
        queues.withLock { $0.reduce(0) { $0 + Int($1.droppedCount) } } + removedDropped.withLock { $0 }
    }
    /// Drops counted by queues of threads that have exited.
    private let removedDropped = LockedValue(0)

    /// Wakes the writer (a recording thread found its queue full).
    func wake() {
        control.withLock { _ in }
    }

    /// Returns once every trace handed over before the call is written.
    func flush() {
        let ticket = control.withLock { control -> Int in
            control.flushesRequested += 1
            return control.flushesRequested
        }
        control.wait { $0.flushesDone >= ticket || $0.finished }
    }

    /// Writes everything handed over, stops the thread and closes the file.
    func close() {
        control.withLock { $0.closing = true }
        thread?.join()
        thread = nil
        // A trace handed over while the thread made its last pass is written too, not lost.
        _ = drainQueues()
        file.withLock { $0.close() }
    }

    private func run() {
        var lastWrite = Self.now()
        while true {
            let (requested, flushing, closing) = control.withLock {
                ($0.flushesRequested, $0.flushesRequested > $0.flushesDone, $0.closing)
            }
            let moved = drainQueues()
            pruneQueues()
            let now = Self.now()
            if flushing || closing || now - lastWrite >= flushInterval {
                file.withLock { $0.writeBuffer() }
                lastWrite = now
            }
            let finished = control.withLock { control -> Bool in
                control.flushesDone = max(control.flushesDone, requested)
                if closing, moved == 0 { control.finished = true }
                return control.finished
            }
            if finished { return }
            // Nothing moved: sleep a millisecond, unless a flush or close came meanwhile.
            if moved == 0 {
                control.wait(atMost: 1_000_000) { $0.flushesRequested != requested || $0.closing }
            }
        }
    }

    /// Moves every queued trace into the file's buffer (and a record of any dropped since); how many.
    private func drainQueues() -> Int {
        let current = queues.withLock { $0 }
        let changes = edits.withLock { edits in
            defer { edits.removeAll() }
            return edits
        }
        var moved = changes.count
        file.withLock { file in
            for edit in changes { file.append(edit) }
            for queue in current {
                moved += queue.queue.drainBorrowing { file.append(copy $0) }
                let dropped = queue.droppedCount
                if dropped > queue.droppedWritten {
                    file.appendDropped(Int(dropped - queue.droppedWritten))
                    queue.droppedWritten = dropped
                }
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
                    queues[index].droppedCount == queues[index].droppedWritten
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
