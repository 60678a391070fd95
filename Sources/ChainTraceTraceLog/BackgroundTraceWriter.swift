import ChainTraceFastPath
import ChainTrace

/// What a background ``TraceLogSink``'s drain thread (``BackgroundDrain``) does with the traces recording threads
/// hand over: encodes them into the file's buffer, with a record of any dropped and the chain changes handed over
/// since the last pass, and writes the buffer when it is full, at every ``TraceLogSink/Options/flushInterval``,
/// on `flush()` and on `close()`.
final class BackgroundTraceWriter: BackgroundDrainConsumer {
    let file: LockedValue<TraceLogFile>
    /// Chain changes handed over, written before the traces of the next pass.
    private let edits = LockedValue<[ChainEdit]>([])

    init(file: TraceLogFile) {
        self.file = LockedValue(file)
    }

    /// Hands a chain change over (rare: under a lock).
    func submit(_ edit: ChainEdit) {
        edits.withLock { $0.append(edit) }
    }

    func pass(flushing: Bool, drainQueues: ((borrowing Trace) -> Void, (Int) -> Void) -> Int) -> Int {
        let changes = edits.withLock { edits in
            defer { edits.removeAll() }
            return edits
        }
        return file.withLock { file in
            for edit in changes { file.append(edit) }
            let moved = changes.count + drainQueues({ file.append(copy $0) }, { file.appendDropped($0) })
            if flushing { file.writeBuffer() }
            return moved
        }
    }

    func finish() {
        file.withLock { $0.close() }
    }
}
