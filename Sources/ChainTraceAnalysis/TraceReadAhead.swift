import ChainTraceFastPath
import ChainTrace
import ChainTraceTraceLog

/// A trace log read on a thread of its own, a few hundred traces ahead of the caller: how a comparison reads its two
/// logs at once, one on each core.
///
/// The reading thread parses batches of traces and waits while `batchesAhead` of them are unread; the caller takes
/// them in order. An error stops the reading and is thrown by ``next()`` after the traces before it, as a plain read
/// would. Releasing the reader stops the thread.
package final class TraceReadAhead {
    /// One trace and where it was read.
    package struct Item: Sendable, Hashable {
        /// The trace.
        package let trace: Trace
        /// Its line in its file.
        package let line: Int
        /// Its file, for a log of several files; `nil` for one file.
        package let file: String?
    }

    private struct State {
        var batches: [[Item]] = []
        var error: FormatError?
        var finished = false
        var cancelled = false
    }

    /// The log's files, in order.
    package let files: [String]
    private let state = ConditionLock(State())
    private let bytes = PublishedCounter()
    private let batchesAhead: Int
    private var current: [Item] = []
    private var index = 0
    private var done = false
    private var thread: JoinableThread?

    /// Starts reading `reader` (which only this read-ahead's thread uses from now on).
    ///
    /// - Parameters:
    ///   - batchSize: Traces handed over at once.
    ///   - batchesAhead: Batches read before the thread waits for the caller.
    package init(_ reader: sending TraceLogReader, batchSize: Int = 256, batchesAhead: Int = 8) {
        files = reader.files
        self.batchesAhead = max(1, batchesAhead)
        let size = max(1, batchSize)
        let (state, bytes, ahead) = (self.state, self.bytes, self.batchesAhead)
        let several = reader.files.count > 1
        thread = JoinableThread(running: {
            while true {
                var batch: [Item] = []
                batch.reserveCapacity(size)
                var failure: FormatError?
                do throws(FormatError) {
                    while batch.count < size, let trace = try reader.next() {
                        batch.append(Item(trace: trace, line: reader.line, file: several ? reader.file : nil))
                    }
                } catch {
                    failure = error
                }
                bytes.store(Int64(reader.bytesRead))
                let finished = failure != nil || batch.count < size
                state.withLock { state in
                    if !batch.isEmpty { state.batches.append(batch) }
                    state.error = failure
                    state.finished = finished
                }
                if finished { return }
                state.wait { $0.batches.count < ahead || $0.cancelled }
                if state.withLock({ $0.cancelled }) { return }
            }
        })
    }

    deinit {
        state.withLock { $0.cancelled = true }
        thread?.join()
    }

    /// Bytes of the log's files read so far (ahead of what ``next()`` has returned), for progress reports.
    package var bytesRead: Int { Int(bytes.value) }

    /// The next trace and where it was read, or `nil` at the end of the log.
    ///
    /// - Throws: The read's `FormatError`, once every trace before it has been returned.
    package func next() throws(FormatError) -> Item? {
        if index < current.count {
            defer { index += 1 }
            return current[index]
        }
        if done { return nil }
        var next: [Item] = []
        var error: FormatError?
        state.wait { !$0.batches.isEmpty || $0.finished }
        state.withLock { state in
            if !state.batches.isEmpty {
                next = state.batches.removeFirst()
            } else {
                error = state.error
                done = true
            }
        }
        if let error { throw error }
        if next.isEmpty { return nil }
        current = next
        index = 1
        return current[0]
    }
}
