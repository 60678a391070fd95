import ChainTrace
import ChainTraceFastPath

/// What a background ``TraceLogSink``'s drain thread (``BackgroundDrain``) does with the traces recording threads
/// hand over: encodes them into the file's buffer, with a record of any dropped and the chain changes handed over
/// since the last pass, and writes the buffer when it is full, at every ``TraceLogSink/Options/flushInterval``,
/// on `flush()` and on `close()`.
final class BackgroundTraceWriter: BackgroundDrainConsumer {
    let file: LockedValue<TraceLogFile>
    /// Chain changes handed over and not yet written.
    private let edits = LockedValue<[ChainEdit]>([])
    /// Whether `edits` may hold any: set after a change is handed over, read before each trace is written.
    private let editsPending = PublishedCounter()

    init(file: TraceLogFile) {
        self.file = LockedValue(file)
    }

    /// Hands a chain change over (rare: under a lock).
    func submit(_ edit: ChainEdit) {
        edits.withLock { $0.append(edit) }
        editsPending.store(1)
    }

    /// Writes the changes handed over so far; how many.
    private func writeEdits(into file: inout TraceLogFile) -> Int {
        let changes = edits.withLock { edits in
            editsPending.store(0)
            defer { edits.removeAll() }
            return edits
        }
        for edit in changes { file.append(edit) }
        return changes.count
    }

    /// Writes what the recording threads handed over. A change is written before any trace drained after it was
    /// handed over — so before every trace its thread recorded after making it (that trace was handed over after
    /// the change, and the flag is published with it). Checked before each trace, not once a pass: a change made
    /// while a pass drains, and the traces sent after it, were written the other way round.
    func pass(flushing: Bool, drainQueues: ((borrowing Trace) -> Void, (Int) -> Void) -> Int) -> Int {
        file.withLock { file in
            var moved = writeEdits(into: &file)
            moved += drainQueues(
                { trace in
                    if editsPending.value != 0 { moved += writeEdits(into: &file) }
                    file.append(copy trace)
                },
                { file.appendDropped($0) }
            )
            moved += writeEdits(into: &file)
            if flushing { file.writeBuffer() }
            return moved
        }
    }

    func finish() {
        file.withLock { $0.close() }
    }
}
