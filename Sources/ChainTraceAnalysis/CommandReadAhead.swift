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

    private struct State {
        var batches: [[Entry]] = []
        /// Batches the caller is done with, for the reading thread to refill their commands.
        var spent: [[Entry]] = []
        var finished = false
        var cancelled = false
    }

    private let state = ConditionLock(State())
    private let bytes = PublishedCounter()
    private var current: [Entry] = []
    private var index = 0
    private var done = false
    private var thread: JoinableThread?

    /// Starts reading `stream` on a thread of its own.
    ///
    /// - Parameters:
    ///   - readsPastErrors: Go on after an invalid line (the caller skips them) instead of stopping there.
    ///   - batchSize: Lines handed over at once.
    ///   - batchesAhead: Batches read before the thread waits for the caller.
    package init(_ stream: CommandStreamReader, readsPastErrors: Bool, batchSize: Int = 1024, batchesAhead: Int = 4) {
        // Its commands cross to the caller's thread, so the reader must not refill them.
        stream.recyclesCommands = false
        let lent = Lent(stream: stream)
        let size = max(1, batchSize)
        let (state, bytes, ahead) = (state, bytes, max(1, batchesAhead))
        thread = JoinableThread(running: {
            let stream = lent.stream
            var spare: [JSONCommand] = []
            while true {
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
                let spent = state.withLock { state in
                    if !batch.isEmpty { state.batches.append(batch) }
                    state.finished = finished
                    defer { state.spent.removeAll() }
                    return state.spent
                }
                // The caller's commands, back through the lock: each one nothing holds any more is refilled for a
                // later line instead of allocating one (and freeing it on the other thread).
                for entries in spent {
                    for entry in entries {
                        if case .command(let command)? = entry.item { spare.append(command) }
                    }
                }
                if finished { return }
                state.wait { $0.batches.count < ahead || $0.cancelled }
                if state.withLock({ $0.cancelled }) { return }
            }
        })
    }

    deinit {
        finish()
    }

    /// Bytes of the stream's files read so far (ahead of what ``next()`` has returned), for progress reports.
    package var bytesRead: Int { Int(bytes.value) }

    /// The next line, or `nil` at the end of the stream (or after the error that stopped the reading).
    package func next() -> Entry? {
        if index < current.count {
            defer { index += 1 }
            return current[index]
        }
        if done { return nil }
        var next: [Entry] = []
        state.wait { !$0.batches.isEmpty || $0.finished }
        state.withLock { state in
            // The batch just read goes back, moved (no copy left here): every reference this thread held to its
            // commands is let go of before the lock is, so the reading thread's check that nothing holds one
            // sees all of this thread's use of it.
            if !current.isEmpty {
                state.spent.append(current)
                current = []
            }
            if !state.batches.isEmpty {
                next = state.batches.removeFirst()
            } else {
                done = true
            }
        }
        if next.isEmpty { return nil }
        current = next
        index = 1
        return current[0]
    }

    /// Stops the reading thread and waits for it: from then on the caller may use the stream again.
    package func finish() {
        state.withLock { $0.cancelled = true }
        thread?.join()
        thread = nil
    }
}
