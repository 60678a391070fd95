import ChainTrace
import ChainTraceFastPath
import ChainTraceFiles
import ChainTraceJSON
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

    /// The log's files, in order.
    package let files: [String]
    private let batches: ReadAheadBatches<Result<Item, FormatError>>
    private let bytes = PublishedCounter()

    /// Starts reading `reader` (which only this read-ahead's thread uses from now on).
    ///
    /// - Parameters:
    ///   - batchSize: Traces handed over at once.
    ///   - batchesAhead: Batches read before the thread waits for the caller.
    package init(_ reader: sending TraceLogReader, batchSize: Int = 256, batchesAhead: Int = 8) {
        files = reader.files
        let (size, bytes) = (max(1, batchSize), bytes)
        let several = reader.files.count > 1
        batches = ReadAheadBatches(batchesAhead: batchesAhead) { spent in
            spent.removeAll()
            var batch: [Result<Item, FormatError>] = []
            batch.reserveCapacity(size)
            var finished = false
            do throws(FormatError) {
                while batch.count < size {
                    guard let trace = try reader.next() else {
                        finished = true
                        break
                    }
                    batch.append(.success(Item(trace: trace, line: reader.line, file: several ? reader.file : nil)))
                }
            } catch {
                // The read stops here; the caller meets the error after the traces before it.
                batch.append(.failure(error))
                finished = true
            }
            bytes.store(Int64(reader.bytesRead))
            return (batch, finished)
        }
    }

    /// Bytes of the log's files read so far (ahead of what ``next()`` has returned), for progress reports.
    package var bytesRead: Int { Int(bytes.value) }

    /// The next trace and where it was read, or `nil` at the end of the log.
    ///
    /// - Throws: The read's `FormatError`, once every trace before it has been returned.
    package func next() throws(FormatError) -> Item? {
        try batches.next()?.get()
    }
}
