import ChainTraceFastPath
import ChainTrace
import ChainTraceDefinitions

/// A command stream read and decoded on a thread of its own, a few hundred lines ahead of the replay: how a replay
/// reads on one core while it sends on the other.
///
/// The reading thread decodes batches of lines and waits while `batchesAhead` of them are unread; the caller
/// takes them in order. A line's error is handed over in its place, as a plain read would throw it there; after one,
/// reading stops unless `readsPastErrors`. The caller must not touch the stream until ``finish()`` has returned.
/// Releasing the read-ahead stops and joins the thread too.
package final class CommandReadAhead {
    /// One line of the stream: what it held, or why it could not be read.
    package struct Entry: Sendable {
        /// The line's number in its file.
        package let line: Int
        /// The command or change, or `nil` when the line was not valid.
        package let item: CommandStreamReader.Item?
        /// Why the line could not be read.
        package let error: FormatError?
        /// The file the line is in, as errors name it.
        package let file: String
        /// Whether the stream is a trace log of several files (lines count per file).
        package let readsSeveralFiles: Bool

        /// What `stream` gave for its next line (or the error it threw), or `nil` at its end.
        package static func read(from stream: CommandStreamReader) -> Entry? {
            do throws(FormatError) {
                guard let (line, item) = try stream.next() else { return nil }
                return Entry(line: line, item: item, error: nil, file: stream.file, readsSeveralFiles: stream.readsSeveralFiles)
            } catch {
                return Entry(line: error.line, item: nil, error: error, file: stream.file, readsSeveralFiles: stream.readsSeveralFiles)
            }
        }
    }

    /// The stream, lent to the reading thread: the caller does not use it until the thread is joined.
    private struct Lent: @unchecked Sendable {
        let stream: CommandStreamReader
    }

    private let batches: ReadAheadBatches<Entry>
    private let bytes = PublishedCounter()

    /// Starts reading `stream` on a thread of its own.
    ///
    /// - Parameters:
    ///   - readsPastErrors: Go on after an invalid line (the caller skips them) instead of stopping there.
    ///   - batchSize: Lines handed over at once.
    ///   - batchesAhead: Batches read before the thread waits for the caller.
    package init(_ stream: CommandStreamReader, readsPastErrors: Bool, batchSize: Int = 1024, batchesAhead: Int = 4) {
        // Its commands cross to the caller's thread, so the reader must not refill them itself: they come back
        // with their batch, and are offered to it again then.
        stream.recyclesCommands = false
        let lent = Lent(stream: stream)
        let (size, bytes) = (max(1, batchSize), bytes)
        batches = ReadAheadBatches(batchesAhead: batchesAhead) { spent in
            let stream = lent.stream
            // A batch back for each batch read, about: what one batch leaves over is let go of.
            var spare: [JSONCommand] = []
            for entries in spent {
                for entry in entries {
                    if case .command(let command)? = entry.item { spare.append(command) }
                }
            }
            // Let go of the batches, so that each command the caller no longer holds is held by `spare` alone.
            spent.removeAll()
            var batch: [Entry] = []
            batch.reserveCapacity(size)
            var finished = false
            while batch.count < size {
                if let command = spare.popLast() { stream.recycle(command) }
                guard let entry = Entry.read(from: stream) else {
                    finished = true
                    break
                }
                batch.append(entry)
                if entry.error != nil, !readsPastErrors {
                    finished = true
                    break
                }
            }
            bytes.store(Int64(stream.bytesRead))
            return (batch, finished)
        }
    }

    /// Bytes of the stream's files read so far (ahead of what ``next()`` has returned), for progress reports.
    package var bytesRead: Int { Int(bytes.value) }

    /// The next line, or `nil` at the end of the stream (or after the error that stopped the reading).
    package func next() -> Entry? {
        batches.next()
    }

    /// Stops the reading thread and waits for it: from then on the caller may use the stream again.
    package func finish() {
        batches.finish()
    }
}
