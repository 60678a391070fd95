public import ChainTrace
import ChainTraceFastPath
import ChainTraceFiles
import ChainTraceJSON

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Streams traces to a trace log file, off the recording thread.
///
/// By default ``record(_:)-(Trace)`` only hands the trace to a queue of the calling thread's own (no lock shared with
/// other threads, no system call, no allocation); a background thread drains the queues, encodes the traces in
/// the compact format (``CompactTraceLogFormat``) and writes them. It writes at least every
/// ``Options/flushInterval``, on ``flush()``, on ``close()``, and when the process exits normally with the sink
/// still open (a sink in a global, given to `ChainTracing.bootstrap`, is never closed otherwise); a trace is always
/// written whole, so a crash loses at most what was not yet written and can tear only the last line, which readers
/// report.
///
/// When the writer falls behind and a thread's queue is full, ``Options/whenBehind`` decides: drop the trace
/// (counted in ``droppedCount`` and written into the log as a record, so the loss is never silent) or block the
/// recording thread until there is room.
///
/// ```swift
/// let log = try TraceLogSink(path: "traces.jsonl")
/// chain.recorder = Recorder(sink: log)
/// …
/// try log.close()
/// ```
public final class TraceLogSink: TraceSink {
    /// Which version of the trace log to write.
    public enum Format: Sendable, Hashable {
        /// Version 4, ``CompactTraceLogFormat``: about 200 bytes a 10-hop trace.
        case compact
        /// Version 1, ``TraceLogFormat``: one self-describing JSON object a trace, about 1 KB for 10 hops.
        case jsonLines
    }

    /// What a recording thread does when its queue to the writer is full.
    public enum FullQueuePolicy: Sendable, Hashable {
        /// Drop the trace: counted in ``TraceLogSink/droppedCount`` and written into the log as a record.
        case drop
        /// Wait until the writer makes room: nothing is lost, the recording thread is slowed down (after a few
        /// yields it sleeps until the writer has made a pass, rather than spin).
        case block
    }

    /// How the sink writes.
    public struct Options: Sendable {
        /// The format written; compact by default.
        public var format = Format.compact
        /// Whether a background thread encodes and writes (the default), or each recording thread encodes and
        /// writes its own traces under the sink's lock.
        public var writesInBackground = true
        /// What happens when a thread's queue is full (background writing only).
        public var whenBehind = FullQueuePolicy.drop
        /// How many traces each recording thread's queue holds (background writing only; at least 1).
        public var queueCapacity = 16_384
        /// The longest a handed-over trace waits before it is written (background writing only).
        public var flushInterval = Duration.milliseconds(200)
        /// Bytes held before a write to the file; 0 writes every trace (or every drain) at once.
        public var bufferSize = 256 * 1024
        /// With a size, the log is a numbered series of files (`traces.jsonl` → `traces-0001.jsonl`,
        /// `traces-0002.jsonl`, …), a new one started once the current one reaches the size (at least 1 byte: a size
        /// of 0 or less starts a file a trace). Each file is a whole
        /// log with its own header; readers read the series as one log (pass the directory or the files), in number
        /// order past `traces-9999.jsonl` too. Replacing the log (not appending) removes every file of an earlier
        /// series first — compressed ones (`traces-0003.jsonl.gz`) too — so that a directory holds one log, never
        /// an old run's later files after a new run's; appending continues in the last file, or after it when it has
        /// been compressed (or after the last one left, when the oldest have been removed). A file named like one
        /// of the series that is not a trace log is left alone.
        public var rotationBytes: Int?
        /// With rotation, how many files of the series are kept (at least 1): starting a file beyond it removes the
        /// oldest — compressed ones too, and an earlier run's when appending — so that a log recorded for months
        /// keeps its newest traces in about `maximumFiles × rotationBytes` of disk. `nil` keeps every file.
        public var maximumFiles: Int?

        /// The defaults: compact, in the background, dropping (counted) when behind.
        public init() {}
    }

    /// The file written to, as given (with rotation, the files are numbered from it: see ``files``).
    public let path: String
    /// How the sink writes.
    public let options: Options
    /// When appending to a log whose writer died mid-line: the torn last line cut off before the first new
    /// trace (it could never be read, and left in place it would join the next line). `nil` otherwise.
    public let repairedTail: TornTail?

    private let writer: BackgroundDrain<BackgroundTraceWriter>?
    private let direct: LockedValue<TraceLogFile>?
    private let slot = PerThreadSlot()
    private let closed = PublishedCounter()
    private let droppedAfterClose = LockedValue(0)

    /// Creates (or, with `appending`, continues) the log at `path`.
    ///
    /// - Parameters:
    ///   - path: The log file.
    ///   - appending: Add to an existing log instead of replacing it. A file that is not a trace log is refused,
    ///     never appended to; a torn last line is cut off first (see ``repairedTail``), so the log stays readable.
    ///     The new traces start a segment of their own (a header line of the sink's format; a compact log's names
    ///     written again), so a log may go on in the other format.
    ///   - options: The format, background writing, rotation; see ``Options``.
    /// - Throws: `FormatError` when the file cannot be written, is not a trace log (appending), is named `….gz` —
    ///   the sink writes plain JSON Lines, and a `.gz` name would tell `zcat` and log shippers otherwise — or is being
    ///   written by another `TraceLogSink`, in this process or another (a lock on the file says so while a sink has
    ///   it open): two sinks on one path would write over each other's lines. Close the old sink before opening a
    ///   new one on its path, or let the chains share one sink.
    public convenience init(path: String, appending: Bool = false, options: Options = Options()) throws(FormatError) {
        try self.init(
            path: path,
            appending: appending,
            options: options,
            writeBytes: { FileDescriptor.writeAll($0, $1) }
        )
    }

    /// ``init(path:appending:options:)`` writing the file's bytes with `writeBytes`: tests stand in a disk that
    /// fills up.
    package init(
        path: String,
        appending: Bool = false,
        options: Options = Options(),
        writeBytes: @escaping TraceLogByteWriter
    ) throws(FormatError) {
        if path.hasSuffix(".gz") {
            throw FormatError(
                file: path,
                line: 0,
                column: 0,
                expected:
                    "a name for a plain JSON Lines file (a TraceLogSink writes uncompressed; compress finished or rotated files with gzip, which every reader reads)",
                found: "a name ending in .gz"
            )
        }
        let file = try TraceLogFile(
            path: path,
            appending: appending,
            format: options.format,
            bufferSize: options.bufferSize,
            rotationBytes: options.rotationBytes,
            maximumFiles: options.maximumFiles,
            writeBytes: writeBytes
        )
        self.path = path
        self.options = options
        repairedTail = file.repairedTail
        if options.writesInBackground {
            let writer = BackgroundDrain(
                consumer: BackgroundTraceWriter(file: file),
                flushInterval: options.flushInterval
            )
            writer.start()
            self.writer = writer
            direct = nil
        } else {
            writer = nil
            direct = LockedValue(file)
        }
        OpenTraceLogSinks.add(self)
    }

    /// Creates (or continues) the log at `path` with the default options and a buffer of `bufferSize` bytes.
    public convenience init(path: String, appending: Bool = false, bufferSize: Int) throws(FormatError) {
        var options = Options()
        options.bufferSize = bufferSize
        try self.init(path: path, appending: appending, options: options)
    }

    deinit {
        try? close()
        PerThreadSlot.ownerReleased()
    }

    /// Throws if a `TraceLogSink` — in this process or another — is writing the file at `path`: a command about to
    /// replace that file with its output would leave the sink writing into a file no longer there.
    package static func checkNotBeingWritten(_ path: String) throws(FormatError) {
        try TraceLogFile.checkNotWritten(path)
    }

    /// The files written so far, in order: ``path`` alone, or the numbered series when rotating (less those
    /// ``Options/maximumFiles`` had removed).
    public var files: [String] {
        if let writer { return writer.consumer.file.withLock { $0.files } }
        return direct?.withLock { $0.files } ?? []
    }

    /// How many traces were dropped: by a full queue, or lost to a write that failed (a full disk) — each recorded
    /// in the log too, as soon as the file takes a write again — or recorded after ``close()``.
    public var droppedCount: Int {
        let lostToWrites =
            writer?.consumer.file.withLock { $0.tracesLostToWrites } ?? direct?.withLock { $0.tracesLostToWrites } ?? 0
        return (writer?.droppedCount ?? 0) + lostToWrites + droppedAfterClose.withLock { $0 }
    }

    public func record(_ trace: Trace) {
        guard closed.value == 0 else {
            droppedAfterClose.withLock { $0 += 1 }
            return
        }
        guard let writer else {
            direct?.withLock { $0.append(trace) }
            return
        }
        let queue = slot.object(owner: self) { writer.register(capacity: options.queueCapacity) }
        // A trace the writer has finished with comes back for this thread's next traced walk to fill.
        if queue.queue.push(trace, reclaiming: { Trace.recycle(&$0, on: .current) }) {
            // Half full: the writer may be in a long idle sleep.
            if queue.queue.isHalfFullToProducer { writer.wake() }
            return
        }
        writer.wake()
        switch options.whenBehind {
        case .drop:
            queue.noteDropped()
        case .block:
            // A few yields first (the writer, on another core, usually makes room within them), then sleeps until
            // the writer has made a pass: spinning all along took a core from the writer and any other busy
            // thread. Sleeping at once cost the benchmark's block row 2 ns a hop (42.4–43.4 → 44.4–45.6);
            // yielding 64 times first costs nothing (41.4–42.2 spinning, 40.7–41.9 so; interleaved runs).
            var attempts = 0
            while !queue.queue.push(trace, reclaiming: { Trace.recycle(&$0, on: .current) }) {
                if closed.value != 0 {
                    droppedAfterClose.withLock { $0 += 1 }
                    return
                }
                attempts += 1
                if attempts <= Self.yieldsBeforeWaiting {
                    writer.wake()
                    sched_yield()
                } else {
                    writer.waitForAPass()
                }
            }
        }
    }

    /// How often a thread blocked on its full queue yields before it sleeps until the writer's next pass.
    static var yieldsBeforeWaiting: Int { 64 }

    /// How often recording threads have woken the background writer (a queue half full, or full); 0 for a log
    /// written by the recording threads.
    package var writerWakeCount: Int { writer?.wakeCount ?? 0 }

    /// The passes the background writer has made so far; 0 for a log written by the recording threads.
    package var writerPassCount: Int { writer?.passCount ?? 0 }

    /// Runs `body` with the background writer held still (it waits for the file), so tests can fill the queues.
    package func withWriterPaused<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        guard let writer else { return try body() }
        return try writer.consumer.file.withLock { _ throws(Failure) in try body() }
    }

    /// Writes a change to a chain into the log: after every trace recorded before it, and before every trace this
    /// thread records after it (each trace's `chainVersion` says which version it ran on). Written in the
    /// background, the change waits until the writer has drained the traces handed over before it and written
    /// them (one pass of the writer, as ``flush()`` waits for); chain changes are rare.
    public func record(_ edit: ChainEdit) {
        guard closed.value == 0 else { return }
        if let writer {
            // Else a trace still queued when its chain changed was written after the change, as if it had run on
            // the changed chain.
            writer.flush()
            writer.consumer.submit(edit)
        } else {
            direct?.withLock { $0.append(edit) }
        }
    }

    /// Writes every trace recorded before the call to the file, and returns once it is there.
    ///
    /// - Throws: The first write error since the sink was opened (a full disk, a closed file). What a failed write
    ///   lost is counted in ``droppedCount`` and recorded in the log as dropped traces once the file takes a write
    ///   again; the log stays readable to its end.
    public func flush() throws(FormatError) {
        if let writer {
            writer.flush()
            if let error = writer.consumer.file.withLock({ $0.firstError }) { throw error }
        } else if let error = direct?.withLock({ file -> FormatError? in
            file.writeBuffer()
            return file.firstError
        }) {
            throw error
        }
    }

    /// Writes every trace recorded and closes the file; later traces are dropped (and counted).
    public func close() throws(FormatError) {
        closed.store(1)
        OpenTraceLogSinks.remove(self)
        let error: FormatError?
        if let writer {
            writer.close()
            error = writer.consumer.file.withLock { $0.firstError }
        } else {
            error = direct?.withLock { file -> FormatError? in
                file.close()
                return file.firstError
            }
        }
        if let error { throw error }
    }
}

extension TraceLogSink: PayloadTextSink {
    /// A compact log copies payload text as it is, so a recorder sending here encodes `Encodable` commands
    /// straight into text; a version 1 log writes every payload out again with sorted keys, so it takes values.
    ///
    /// A log written in the background that drops traces when behind encodes `Sendable` commands itself, on its
    /// writer's thread: the recording thread only copies the command, and a trace dropped is never encoded. A
    /// log that blocks when behind is handed them encoded: when the writer is the bottleneck, encoding on every
    /// recording thread keeps its one thread for writing (with the writer encoding, `chaintrace-benchmarks`'
    /// "trace log, background, block, + payloads" row is about 12 ns a hop slower).
    package var payloadTextEncoder: (any PayloadTextEncoder)? {
        guard options.format == .compact else { return nil }
        return JSONTextPayloadEncoder(encodesWhenWritten: options.writesInBackground && options.whenBehind == .drop)
    }
}
