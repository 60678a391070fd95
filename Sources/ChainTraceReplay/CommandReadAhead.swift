import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFastPath
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTraceLog

/// A command stream read and decoded ahead of the replay on a thread of its own — and, while that thread is
/// behind, by the replaying thread too: how a replay decodes on both cores while it sends.
///
/// The stream is cut into numbered batches of `batchSize` lines that are not blank. The caller reads the first
/// batch itself; then the reading thread takes the next batch number nobody has started, reads that batch
/// (stepping over the lines of batches before it that it did not take) and hands it over, waiting while
/// `batchesAhead` batches are untaken. When the caller wants a batch that is not ready, and `callerDecodes`, it
/// does not wait: it takes the next batch number itself and reads that batch with a second reader of the stream
/// (``CommandStreamReader/sibling()``; only a command stream in a regular file or in memory has one — a trace log,
/// a gzip file or a pipe is read by the thread alone). So the caller decodes exactly when reading is what holds the
/// replay up, and never more than two threads are busy.
///
/// While it has nothing to read, the reading thread does work the caller queued (``queue(_:)``): a replay's trace
/// log is written so, by whichever thread is free.
///
/// A line's error is handed over in its place, as a plain read would throw it there; after one, reading stops
/// unless `readsPastErrors`. The caller must not touch the stream until ``finish()`` has returned. Releasing the
/// read-ahead stops and joins the thread too.
package final class CommandReadAhead {
    /// One line of the stream: what it held, or why it could not be read.
    package struct Entry: Sendable {
        /// The line's number in its file.
        package let line: Int
        /// The command or change, or `nil` when the line was not valid.
        package let item: CommandStreamReader.Item?
        /// The rare parts, boxed: an entry is copied out of its batch for every line, and the batches cross
        /// between threads, so it is kept to a few words (with the error and file inline, a batch of 1 024 took
        /// over 100 KB).
        private let rare: Rare?

        /// Why the line could not be read.
        package var error: FormatError? { rare?.error }
        /// The file the line is in, for a trace log of several files read as one (whose lines count per file);
        /// `nil` for a stream of one file, whose ``CommandStreamReader/file`` is every line's. (Not the file of
        /// every line: its string's reference count, written by both threads for every line, made
        /// `chaintrace replay` of the million-line *nested* file, named by a long path, take 0.92–1.20 s instead of
        /// 0.85–1.08, interleaved runs; *varied* moved within the noise.)
        package var file: String? { rare?.file }
        /// For a change, where it names its handlers (see ``CommandStreamReader/lastChangeSites``).
        package var changeSites: ChangeSites? { rare?.changeSites }

        private final class Rare: Sendable {
            let error: FormatError?
            let file: String?
            let changeSites: ChangeSites?

            init(error: FormatError?, file: String?, changeSites: ChangeSites?) {
                self.error = error
                self.file = file
                self.changeSites = changeSites
            }
        }

        init(
            line: Int,
            item: CommandStreamReader.Item?,
            error: FormatError?,
            file: String?,
            changeSites: ChangeSites? = nil
        ) {
            self.line = line
            self.item = item
            rare =
                error == nil && file == nil && changeSites == nil
                ? nil : Rare(error: error, file: file, changeSites: changeSites)
        }

        /// What `stream` gave for its next line (or the error it threw), or `nil` at its end.
        package static func read(from stream: CommandStreamReader) -> Entry? {
            do throws(FormatError) {
                guard let (line, item) = try stream.next() else { return nil }
                var sites: ChangeSites?
                if case .change = item { sites = stream.lastChangeSites }
                return Entry(
                    line: line,
                    item: item,
                    error: nil,
                    file: stream.readsSeveralFiles ? stream.file : nil,
                    changeSites: sites
                )
            } catch {
                return Entry(
                    line: error.line,
                    item: nil,
                    error: error,
                    file: stream.readsSeveralFiles ? stream.file : nil
                )
            }
        }
    }

    /// A reader of the stream standing at the start of batch `position`, reading the batches it is given.
    private final class BatchReader: @unchecked Sendable {
        let stream: CommandStreamReader
        var position: Int
        /// Lines in batch 0.
        let firstSize: Int
        /// Lines in every later batch: `firstSize` until the first batch is read, which sets it.
        var size: Int
        let readsPastErrors: Bool
        /// Commands from batches the caller is done with, to refill: kept from one batch to the next, since
        /// batches come back unevenly.
        var spare: [JSONCommand] = []
        /// Batches emptied, for their storage, so that a batch is not a new allocation each time. (With the slim
        /// ``Entry``, `chaintrace replay` of the million-line *nested* file: 0.82 s best and 1.04 s median of 7
        /// interleaved runs before both, 0.75 and 0.93 after.)
        var emptyBatches: [[Entry]] = []

        init(_ stream: CommandStreamReader, position: Int, firstSize: Int, size: Int, readsPastErrors: Bool) {
            // Its commands cross to the caller's thread or sit in batches, so the reader must not refill them
            // itself: they come back with their batch, and are offered to it again then.
            stream.recyclesCommands = false
            self.stream = stream
            self.position = position
            self.firstSize = firstSize
            self.size = size
            self.readsPastErrors = readsPastErrors
        }

        /// The number of the first line of batch `number` among the stream's lines (from 0), or `nil` past
        /// `Int.max`.
        func firstLine(ofBatch number: Int) -> Int? {
            guard number > 0 else { return 0 }
            let (later, overflow) = (number - 1).multipliedReportingOverflow(by: size)
            let (line, past) = later.addingReportingOverflow(firstSize)
            return overflow || past ? nil : line
        }

        /// Keeps the commands of batches the caller is done with, for refilling; `batches` is emptied, so that
        /// each command the caller no longer holds is held by ``spare`` alone.
        func takeBack(_ batches: inout [[Entry]]) {
            // The spare commands in a local while they are added to: a property of this class is checked for
            // exclusive access at run time on every use — here and in `read(_:)` ~200 instructions a line
            // (callgrind, 100 000 *varied* lines: 20.6 M of 1 844 M in `swift_beginAccess` and `swift_endAccess`).
            var spare: [JSONCommand] = []
            swap(&spare, &self.spare)
            defer { swap(&spare, &self.spare) }
            let limit = 2 * size
            // Popped (moved out, not copied), and the emptied arrays kept for their storage.
            while var entries = batches.popLast() {
                while spare.count < limit, let entry = entries.popLast() {
                    if case .command(let command)? = entry.item { spare.append(command) }
                }
                entries.removeAll(keepingCapacity: true)
                if emptyBatches.count < 2 { emptyBatches.append(entries) }
            }
        }

        /// Batch `number` (not before ``position``); `last` when the stream ends in it or reading stopped at an
        /// invalid line in it.
        func read(_ number: Int) -> (batch: [Entry], last: Bool) {
            let (from, to) = (firstLine(ofBatch: position), firstLine(ofBatch: number))
            let skip = from.flatMap { from in to.map { $0 - from } }
            position = number + 1
            if skip.map({ $0 > 0 }) ?? true {
                do throws(FormatError) {
                    guard let skip, try stream.skipLines(skip) == skip else { return ([], true) }
                } catch {
                    return ([Entry(line: error.line, item: nil, error: error, file: nil)], true)
                }
            }
            let lines = number == 0 ? firstSize : size
            var batch = emptyBatches.popLast() ?? []
            batch.reserveCapacity(lines)
            // In a local for the batch, as in `takeBack(_:)`.
            var spare: [JSONCommand] = []
            swap(&spare, &self.spare)
            defer { swap(&spare, &self.spare) }
            while batch.count < lines {
                if let command = spare.popLast() { stream.recycle(command) }
                guard let entry = Entry.read(from: stream) else { return (batch, true) }
                batch.append(entry)
                if entry.error != nil, !readsPastErrors { return (batch, true) }
            }
            return (batch, false)
        }
    }

    /// What the reading thread and the caller share, under the lock.
    private struct Shared {
        /// The next batch number nobody has started.
        var nextNumber = 1
        /// The batch the caller takes next.
        var wanted = 1
        /// Batches read and not yet taken, by number, and whether the caller read them.
        var ready: [Int: (batch: [Entry], byCaller: Bool)] = [:]
        /// The first batch number past the end of the stream (or past the line reading stopped at), once known.
        var end = Int.max
        /// Batches of the thread's reader the caller is done with.
        var spent: [[Entry]] = []
        /// Whether the thread has had to wait for room (`batchesAhead` untaken) since the caller last waited:
        /// then it reads faster than the caller sends, a batch not ready is a passing hitch, and the caller waits
        /// rather than take decoding onto the thread that holds the replay up.
        var threadWaitedForRoom = false
        /// Work the caller queued (``queue(_:)``), oldest first.
        var queuedWork: [@Sendable () -> Void] = []
        var cancelled = false
    }

    /// What only the caller's thread touches, read for every line: in a cell, so that its accesses skip the
    /// run-time exclusivity check (as in ``ReadAheadBatches``).
    private struct Taking {
        var current: [Entry] = []
        var index = 0
        /// Whether `current` was read by the caller's own reader (else by the thread's).
        var currentByCaller = false
        var done = false
    }

    private let shared: ConditionLock<Shared>
    private let taking: UncheckedCell<Taking>
    /// The caller's own reader, for reading batches while the thread is behind.
    private let helper: BatchReader?
    private let batchesAhead: Int
    private let threadBytes = PublishedCounter()
    private let firstBatchBytes: Int
    /// Whether the stream is a recorded trace log (known from its first line, read before the thread starts).
    package let readsTraceLog: Bool
    /// Held while queued work is taken and done, so that it is done one at a time, in the order it was queued.
    private let workOrder: LockedValue<Void>
    private var thread: JoinableThread?

    /// Starts reading `stream` ahead.
    ///
    /// - Parameters:
    ///   - readsPastErrors: Go on after an invalid line (the caller skips them) instead of stopping there.
    ///   - batchSize: Lines handed over at once: in every batch, or in the first only when `batchBytes` is given.
    ///   - batchBytes: About how many bytes of lines to hand over at once, after the first batch: its lines' mean
    ///     length sets how many lines the later batches hold (at most `batchSize`, at least 16). What it buys: a
    ///     command comes back to be refilled through the batches ahead, and a batch of 1 024 lines of 540 bytes
    ///     (~750 KB with their commands) left it cold — a tenth of the line decoder's samples on the first load
    ///     of the command it refills. Batches of ~96 KB against 1 024 lines replay the long-line shapes 10–20%
    ///     faster (`chaintrace-cli-benchmarks`, "replay" column, *varied* and *nested*); a fixed 256 lines did as
    ///     well on long lines but cost *flat* about 12%.
    ///   - batchesAhead: Batches the thread reads before it waits for the caller.
    ///   - callerDecodes: Read batches on the caller's thread while the reading thread is behind, where the
    ///     stream can be read twice.
    package init(
        _ stream: CommandStreamReader,
        readsPastErrors: Bool,
        batchSize: Int = 1024,
        batchBytes: Int? = nil,
        batchesAhead: Int = 4,
        callerDecodes: Bool = true
    ) {
        let firstSize = max(1, batchSize)
        self.batchesAhead = max(1, batchesAhead)
        // The first batch here: until a line is read, it is not known whether the stream is a trace log (which
        // has no second reader).
        let startBytes = stream.bytesRead
        let reader = BatchReader(
            stream,
            position: 0,
            firstSize: firstSize,
            size: firstSize,
            readsPastErrors: readsPastErrors
        )
        let (first, last) = reader.read(0)
        firstBatchBytes = stream.bytesRead
        readsTraceLog = stream.isTraceLog
        let size = Self.laterBatchSize(
            firstSize: firstSize,
            bytes: firstBatchBytes - startBytes,
            lines: first.count,
            batchBytes: batchBytes
        )
        reader.size = size
        taking = UncheckedCell.make(Taking(current: first, done: first.isEmpty && last))
        var shared = Shared()
        if last { shared.end = 1 }
        self.shared = ConditionLock(shared)
        workOrder = LockedValue(())
        helper =
            !last && callerDecodes
            ? stream.sibling().map {
                BatchReader($0, position: 0, firstSize: firstSize, size: size, readsPastErrors: readsPastErrors)
            } : nil
        guard !last else { return }
        let (lock, lent, ahead, bytes, order) = (self.shared, reader, self.batchesAhead, threadBytes, workOrder)
        thread = JoinableThread(running: {
            var spent: [[Entry]] = []
            while true {
                // A batch while there is room, else queued work; past the stream's end the thread stays for queued
                // work until it is stopped.
                let number: Int? = lock.withLock(whenever: {
                    $0.cancelled || !$0.queuedWork.isEmpty
                        || ($0.nextNumber < $0.end && $0.nextNumber - $0.wanted < ahead)
                }) { state, waited in
                    if waited { state.threadWaitedForRoom = true }
                    guard !state.cancelled else { return nil }
                    guard state.nextNumber < state.end && state.nextNumber - state.wanted < ahead else { return -1 }
                    swap(&spent, &state.spent)
                    defer { state.nextNumber += 1 }
                    return state.nextNumber
                }
                guard let number else { return }
                guard number >= 0 else {
                    CommandReadAhead.doQueuedWork(leaving: 0, shared: lock, order: order)
                    continue
                }
                lent.takeBack(&spent)
                let (batch, last) = lent.read(number)
                bytes.store(Int64(lent.stream.bytesRead))
                lock.withLock { state in
                    state.ready[number] = (batch, false)
                    if last { state.end = min(state.end, number + 1) }
                }
            }
        })
    }

    deinit {
        finish()
    }

    /// Lines in each batch after the first: `batchBytes` over the mean length of the first batch's `lines`
    /// (`bytes` in all), from 16 to `firstSize`; `firstSize` without `batchBytes` or lines to measure.
    static func laterBatchSize(firstSize: Int, bytes: Int, lines: Int, batchBytes: Int?) -> Int {
        guard let batchBytes, lines > 0, bytes > 0 else { return firstSize }
        let meanLength = max(1, bytes / lines)
        return min(firstSize, max(min(16, firstSize), batchBytes / meanLength))
    }

    /// Whether the caller reads batches too while the thread is behind: only for a stream with a second reader.
    package var callerHasReader: Bool { helper != nil }

    /// Bytes of the stream's files read so far (ahead of what ``next()`` has returned), for progress reports.
    package var bytesRead: Int {
        max(firstBatchBytes, Int(threadBytes.value), helper?.stream.bytesRead ?? 0)
    }

    private enum Step {
        case take([Entry], byCaller: Bool)
        case read(Int)
        case wait
        case end
    }

    /// The next line, or `nil` at the end of the stream (or after the error that stopped the reading).
    package func next() -> Entry? {
        while true {
            if taking.value.index < taking.value.current.count {
                // A batch ends at an invalid line that stops the reading, and no batch after it is taken.
                defer { taking.value.index += 1 }
                return taking.value.current[taking.value.index]
            }
            if taking.value.done { return nil }
            // The batch just finished goes back to the reader that read it: the caller's own here, the thread's
            // under the lock (moved in there, so that the thread, checking what still holds these commands, sees
            // every use made of them here).
            var spent: [[Entry]] = [[]]
            swap(&spent[0], &taking.value.current)
            taking.value.index = 0
            let byCaller = taking.value.currentByCaller
            if byCaller { helper?.takeBack(&spent) }
            let (helps, ahead) = (helper != nil, batchesAhead)
            var step = shared.withLock { state -> Step in
                if !byCaller, !spent[0].isEmpty {
                    state.spent.append(spent[0])
                    spent = []
                }
                return Self.step(&state, helps: helps, ahead: ahead)
            }
            while true {
                switch step {
                case .take(let batch, let byCaller):
                    taking.value.current = batch
                    taking.value.currentByCaller = byCaller
                case .end:
                    taking.value.done = true
                case .read(let number):
                    // The thread is behind: read a batch here rather than wait.
                    let (batch, last) = helper!.read(number)
                    step = shared.withLock { state in
                        state.ready[number] = (batch, true)
                        if last { state.end = min(state.end, number + 1) }
                        return Self.step(&state, helps: helps, ahead: ahead)
                    }
                    continue
                case .wait:
                    step = shared.withLock(whenever: { $0.ready[$0.wanted] != nil || $0.wanted >= $0.end }) {
                        state,
                        _ in
                        Self.step(&state, helps: false, ahead: ahead)
                    }
                    continue
                }
                break
            }
        }
    }

    /// What the caller does next: stop past the end, take the batch it wants if it is ready, read a batch itself
    /// if it `helps`, one is left to start and the thread has not had to wait for room lately, or wait.
    private static func step(_ state: inout Shared, helps: Bool, ahead: Int) -> Step {
        // The end first: a batch past it (read before another thread found the end) is not taken.
        if state.wanted >= state.end { return .end }
        if let (batch, byCaller) = state.ready.removeValue(forKey: state.wanted) {
            state.wanted += 1
            return .take(batch, byCaller: byCaller)
        }
        if helps, !state.threadWaitedForRoom, state.nextNumber < state.end, state.nextNumber - state.wanted <= ahead {
            defer { state.nextNumber += 1 }
            return .read(state.nextNumber)
        }
        state.threadWaitedForRoom = false
        return .wait
    }

    /// Queues `work` for the reading thread, which does queued work whenever it has no batch to read (it is
    /// `batchesAhead` batches ahead, or the stream has ended); how much work is queued now, this included. Work is done one at a time, in the
    /// order it was queued — by the reading thread, or by the caller in ``doQueuedWork(leaving:)``. What it is
    /// for: a replay's trace log written by whichever of the two threads is free (see ``ReplaySession``).
    @discardableResult
    package func queue(_ work: @escaping @Sendable () -> Void) -> Int {
        shared.withLock { state in
            state.queuedWork.append(work)
            return state.queuedWork.count
        }
    }

    /// Does queued work on the caller's thread, oldest first, until at most `leaving` is left queued; with `0`,
    /// returns once every piece queued before the call is done (by whichever thread took it).
    package func doQueuedWork(leaving: Int = 0) {
        Self.doQueuedWork(leaving: leaving, shared: shared, order: workOrder)
    }

    private static func doQueuedWork(leaving: Int, shared: ConditionLock<Shared>, order: LockedValue<Void>) {
        // Taken under the order lock, so that the piece another thread is doing finishes before the next starts.
        order.withLock { _ in
            while let work = shared.withLock({ $0.queuedWork.count > leaving ? $0.queuedWork.removeFirst() : nil }) {
                work()
            }
        }
    }

    /// Stops the reading thread and waits for it: from then on the caller may use the stream again. Work still
    /// queued stays queued, for ``doQueuedWork(leaving:)``.
    package func finish() {
        shared.withLock { $0.cancelled = true }
        thread?.join()
        thread = nil
    }
}
