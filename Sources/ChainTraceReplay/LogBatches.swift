import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFastPath
import ChainTraceTraceLog

/// A replay's traces on their way to its trace log while the stream is read ahead: gathered into batches that the
/// reading thread records whenever it would otherwise wait (``CommandReadAhead/queue(_:)``), or the replaying
/// thread when more than a few are waiting — so the two threads share decoding and writing, in whatever shares
/// the stream's shape asks for, and the log gets every trace, in order.
///
/// What it buys: `chaintrace replay --trace-out` on two cores had one thread decode and replay while a log writer
/// of the sink's own encoded and wrote, so the slower of the two set the pace — decoding, for a stream of long
/// lines (`chaintrace-cli-benchmarks`, "replay with trace log" column: 1.5–2× reading in line beside a writer).
struct LogBatches {
    let sink: any TraceSink
    let readAhead: CommandReadAhead
    /// Traces not yet queued.
    private var gathering: [Trace] = []
    /// Batches recorded, back for the replaying thread to refill their traces' storage.
    private let recorded = LockedValue<[[Trace]]>([])
    /// Traces of recorded batches not yet handed back for refilling.
    private var returned: [Trace] = []

    /// Traces a batch holds: enough that queueing costs little a trace, few enough that the log keeps up
    /// (`ReplaySession.Options.logBatchSize`, 64).
    let batchSize: Int
    /// Batches left queued before the replaying thread records the oldest itself: the reading thread is behind
    /// (`ReplaySession.Options.logBatchesQueued`, 4).
    let batchesQueued: Int

    init(sink: any TraceSink, readAhead: CommandReadAhead, batchSize: Int, batchesQueued: Int) {
        self.sink = sink
        self.readAhead = readAhead
        self.batchSize = max(1, batchSize)
        self.batchesQueued = max(0, batchesQueued)
        gathering.reserveCapacity(self.batchSize)
    }

    /// Adds the next trace, in replay order.
    mutating func add(_ trace: Trace) {
        gathering.append(trace)
        guard gathering.count >= batchSize else { return }
        if queueGathered() > batchesQueued { readAhead.doQueuedWork(leaving: batchesQueued) }
    }

    /// Hands the storage of one recorded trace back to `thread` (the replaying thread) for its next traced walk —
    /// one a command, so the replay allocates no trace while the log keeps up (see `Trace.recycle`).
    mutating func refillOne(on thread: SendingThread) {
        var trace = returned.popLast()
        Trace.recycle(&trace, on: thread)
    }

    /// Records every trace added so far, and returns once they are recorded.
    mutating func recordAll() {
        if !gathering.isEmpty { queueGathered() }
        readAhead.doQueuedWork()
    }

    /// Queues the traces gathered as one batch, and takes back the batches recorded since the last (a lock a
    /// batch, not a command); how many batches are queued.
    @discardableResult
    private mutating func queueGathered() -> Int {
        let batches = recorded.withLock { batches in
            defer { batches.removeAll(keepingCapacity: true) }
            return batches
        }
        for batch in batches { returned.append(contentsOf: batch) }
        let batch = gathering
        gathering = []
        gathering.reserveCapacity(batchSize)
        let (sink, recorded) = (sink, recorded)
        return readAhead.queue {
            for trace in batch { sink.record(trace) }
            recorded.withLock { $0.append(batch) }
        }
    }
}
