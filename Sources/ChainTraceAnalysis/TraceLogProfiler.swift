public import ChainTrace
import ChainTraceFastPath
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTraceLog
import Dispatch

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Profiles a trace log on several cores: each file is cut into parts at line and segment boundaries (see
/// `TraceLogReader/init(partOf:from:to:payloads:)`), the parts are read and profiled at once, and their
/// profiles merged in order — the same profile as reading the log front to back (counts add; histograms merge
/// exactly), in memory that does not grow with the log: a part at a time per thread.
///
/// A part that cannot be read on its own (a malformed line, a log whose versions change mid-file) makes its whole
/// file be read again front to back, so errors name the same line and column as a plain read.
///
/// ```swift
/// let result = try TraceLogProfiler().profile(paths: ["traces/"])
/// print(result.profile.commands, result.files.count)
/// ```
public struct TraceLogProfiler: Sendable {
    /// How many threads read at once.
    public var threads: Int
    /// The size of a part, in bytes. Files smaller than two parts are read by one thread.
    public var partBytes: Int
    /// Profile (and show collectors) only the traces of these chains; `nil`, the default, takes every trace. A log
    /// holding several chains otherwise adds up, in one row, the handlers of different chains that share a name.
    public var chains: Set<String>?

    /// What a profiled log held besides its profile.
    public struct Result: Sendable {
        /// The profile of every trace.
        public var profile: ChainProfile
        /// The files read, in order.
        public var files: [String]
        /// Traces the log's writer said it dropped.
        public var droppedTraces: Int
        /// The changes made to the recorded chains (those of ``TraceLogProfiler/chains``, when it names some), as
        /// the log records them, in order.
        public var chainEdits: [ChainEdit]
        /// The incomplete last lines met, one at most per file.
        public var tornTails: [TornTail]
    }

    /// A profiler using every core (at least one thread), with parts of 16 MB.
    public init(threads: Int? = nil, partBytes: Int = 16 << 20) {
        self.threads = max(1, threads ?? Self.availableCores)
        self.partBytes = max(1, partBytes)
    }

    /// The cores this process may run on.
    public static var availableCores: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Profiles the logs at `paths` (files or directories, as `TraceLogReader/init(paths:payloads:)` reads
    /// them) as one log, into `profile` (which may already declare handlers and budgets).
    ///
    /// - Parameters:
    ///   - paths: The log's files, read in this order as one log.
    ///   - profile: The profile the log's traces are added to.
    ///   - progress: Called now and then with the bytes read so far, from any thread.
    /// - Throws: `FormatError` for the first line that is not a trace, as a plain read reports it.
    public func profile(
        paths: [String],
        into profile: ChainProfile = ChainProfile(),
        progress: (@Sendable (Int) -> Void)? = nil
    ) throws(FormatError) -> Result {
        try self.profile(paths: paths, into: profile, collecting: NoTraceCollector.init, progress: progress).result
    }

    /// Profiles the logs at `paths` as ``profile(paths:into:progress:)`` does, and shows every trace to a
    /// collector as well — one per part read at once, made by `makeCollector`, joined in log order.
    ///
    /// - Returns: The profile and what the log held, and the collector that saw every trace.
    public func profile<Collector: TraceCollector>(
        paths: [String],
        into profile: ChainProfile = ChainProfile(),
        collecting makeCollector: @Sendable () -> Collector,
        progress: (@Sendable (Int) -> Void)? = nil
    ) throws(FormatError) -> (result: Result, collector: Collector) {
        var files: [String] = []
        for path in paths { files += try TraceLogReader.files(at: path) }
        var joined = Joined(
            result: Result(profile: profile, files: files, droppedTraces: 0, chainEdits: [], tornTails: []),
            collector: makeCollector()
        )
        let bytesDone = LockedValue(0)
        // A file is read in parts on every thread when it is big enough (two parts) and can be entered part way
        // (not gzip); runs of the others — a rotated log's many small files — are read at once, one per thread.
        let sizes = files.map { FileBytes.size(of: $0) }
        let splits = files.indices.map {
            threads > 1 && sizes[$0] >= 2 * partBytes && !LineReader.isCompressed(files[$0])
        }
        var index = 0
        while index < files.count {
            if !splits[index], threads > 1 {
                var end = index + 1
                while end < files.count, !splits[end] { end += 1 }
                if end - index > 1 {
                    try concurrently(
                        files[index..<end],
                        sizes: sizes[index..<end],
                        makeCollector: makeCollector,
                        into: &joined
                    ) { done in
                        progress?(
                            bytesDone.withLock {
                                $0 += done
                                return $0
                            }
                        )
                    }
                    index = end
                    continue
                }
            }
            let file = files[index]
            let report: @Sendable (Int) -> Void = { bytes in
                let total = bytesDone.withLock { $0 + bytes }
                progress?(total)
            }
            let part: FilePart<Collector>
            if splits[index],
                let parts = parallel(file, size: sizes[index], makeCollector: makeCollector, progress: report)
            {
                part = parts
            } else {
                part = try sequential(file, oneOfSeveral: files.count > 1, collector: makeCollector(), progress: report)
            }
            bytesDone.withLock { $0 += sizes[index] }
            joined.add(part, of: file)
            index += 1
        }
        joined.result.profile.settle()
        if let chains { joined.result.chainEdits.removeAll { !chains.contains($0.chain) } }
        return (joined.result, joined.collector)
    }

    /// What the files read so far add up to.
    private struct Joined<Collector: TraceCollector>: Sendable {
        var result: Result
        var collector: Collector

        /// Adds `part`, the whole of `file`, the file after those already here.
        mutating func add(_ part: FilePart<Collector>, of file: String) {
            var part = part
            if result.files.count > 1 { part.tornTail?.file = file }
            result.profile.merge(part.profile)
            collector.append(part.collector)
            result.droppedTraces = result.droppedTraces.saturatingAdd(part.dropped)
            if let torn = part.tornTail { result.tornTails.append(torn) }
            result.chainEdits += part.edits
        }
    }

    /// Reads `batch` — files too small to split, or compressed — one per thread at once (``inOrder(count:target:work:add:)``),
    /// adding each to `joined` in file order. The error, if any, is the first file's in order, as a plain read
    /// reports it; `finished` is called with each file's size once it is added.
    ///
    /// (A directory of 64 rotated 8 MB files, read one file after another, made `stats` use one core: nearly
    /// twice the time.)
    private func concurrently<Collector: TraceCollector>(
        _ batch: ArraySlice<String>,
        sizes: ArraySlice<Int>,
        makeCollector: @Sendable () -> Collector,
        into joined: inout Joined<Collector>,
        finished: @escaping @Sendable (Int) -> Void
    ) throws(FormatError) {
        let files = Array(batch)
        let sizes = Array(sizes)
        let (target, _) = inOrder(
            count: files.count,
            target: (joined: joined, error: FormatError?.none),
            work: { index -> Swift.Result<FilePart<Collector>, FormatError> in
                do throws(FormatError) {
                    return .success(
                        try sequential(files[index], oneOfSeveral: true, collector: makeCollector(), progress: { _ in })
                    )
                } catch {
                    return .failure(error)
                }
            },
            add: { target, index, read in
                switch read {
                case .success(let part):
                    target.joined.add(part, of: files[index])
                    finished(sizes[index])
                    return true
                case .failure(let error):
                    target.error = error
                    return false
                }
            }
        )
        if let error = target.error { throw error }
        joined = target.joined
    }

    /// One file's (or part's) profile and what else its reader met.
    private struct FilePart<Collector: TraceCollector>: Sendable {
        var profile = ChainProfile()
        var collector: Collector
        var dropped = 0
        var tornTail: TornTail?
        var edits: [ChainEdit] = []
        /// Records this part skipped finding its start, and where its last line read ends.
        var skipped: [Skipped] = []
        var processedEnd = 0

        struct Skipped: Sendable {
            let offset: Int
            let record: LogRecord
        }
    }

    /// `oneOfSeveral`: the file is one of a log of several, so that holding no line at all is its torn tail (see
    /// `TraceLogReader.tornTails`).
    private func sequential<Collector: TraceCollector>(
        _ file: String,
        oneOfSeveral: Bool,
        collector: Collector,
        progress: @escaping @Sendable (Int) -> Void
    ) throws(FormatError) -> FilePart<Collector> {
        let reader = try TraceLogReader(path: file, payloads: false)
        reader.isOneOfSeveralFiles = oneOfSeveral
        var part = FilePart(collector: collector)
        if Collector.self == NoTraceCollector.self, chains == nil {
            try part.profile.add(contentsOf: reader, progress: progress)
        } else {
            var read = 0
            while let trace = try reader.next() {
                read &+= 1
                if read & 0x3FFF == 0 { progress(reader.bytesRead) }
                if let chains, !chains.contains(trace.chain) { continue }
                part.profile.add(trace)
                part.collector.add(trace)
            }
            part.profile.settle()
        }
        part.dropped = reader.droppedTraces
        part.tornTail = reader.tornTail
        part.edits = reader.chainEdits
        return part
    }

    /// The file read in parts on `threads` threads; `nil` when a part could not be read on its own.
    ///
    /// Memory stays bounded whatever the file's size: each part's profile is merged as soon as the parts before
    /// it are, and a thread starts a part only while fewer than two parts a thread are read but not yet merged.
    /// (Keeping every part until the end, `stats` of a 3.5 GB log peaked at 93 MB.)
    private func parallel<Collector: TraceCollector>(
        _ file: String,
        size: Int,
        makeCollector: @Sendable () -> Collector,
        progress: @escaping @Sendable (Int) -> Void
    ) -> FilePart<Collector>? {
        let partCount = (size + partBytes - 1) / partBytes
        let partBytes = partBytes
        let chains = chains
        let (target, finished) = inOrder(
            count: partCount,
            target: (whole: FilePart(collector: makeCollector()), covered: 0),
            work: { index -> FilePart<Collector>? in
                let start = index * partBytes
                do {
                    let reader = try TraceLogReader(
                        partOf: file,
                        from: start,
                        to: min(size, start + partBytes),
                        payloads: false
                    )
                    var part = FilePart(collector: makeCollector())
                    while let trace = try reader.next() {
                        if let chains, !chains.contains(trace.chain) { continue }
                        part.profile.add(trace)
                        part.collector.add(trace)
                    }
                    part.profile.settle()
                    part.dropped = reader.droppedTraces
                    part.edits = reader.chainEdits
                    part.skipped = reader.partSkippedRecords.map {
                        FilePart<Collector>.Skipped(offset: $0.offset, record: $0.record)
                    }
                    part.processedEnd = reader.partProcessedEnd
                    if let torn = reader.tornTail {
                        // Numbered from the part's start; the file's line number is counted once, here.
                        var whole = torn
                        whole.line += Self.lineCount(of: file, before: max(0, start - 1))
                        part.tornTail = whole
                    }
                    progress(min(size, start + partBytes) - start)
                    return part
                } catch {
                    return nil
                }
            },
            add: { target, _, part in
                guard let part else { return false }
                Self.merge(part, into: &target.whole, covered: &target.covered)
                return true
            }
        )
        return finished ? target.whole : nil
    }

    /// What the threads of ``inOrder(count:target:work:add:)`` share.
    private struct InOrderState<Value: Sendable, Target: Sendable>: Sendable {
        var target: Target
        var next = 0
        var added = 0
        var pending: [Int: Value] = [:]
        var stopped = false
    }

    /// Runs `work` for each index below `count` on every thread, and `add`s each result to `target` in index order
    /// as soon as the results before it are — under a lock, so `add` runs one at a time. A thread starts new work
    /// only while fewer than two results a thread wait to be added, so memory stays bounded however large `count`
    /// is. `add` answering `false` stops it: no more work starts and nothing more is added.
    ///
    /// - Returns: The target, and whether every result was added.
    private func inOrder<Value: Sendable, Target: Sendable>(
        count: Int,
        target: Target,
        work: @Sendable (Int) -> Value,
        add: @Sendable (inout Target, Int, Value) -> Bool
    ) -> (target: Target, finished: Bool) {
        let window = 2 * threads
        let state = ConditionLock(InOrderState<Value, Target>(target: target))
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, count))) { _ in
            while true {
                state.wait { $0.stopped || $0.next >= count || $0.next - $0.added < window }
                let index = state.withLock { state -> Int? in
                    guard !state.stopped, state.next < count, state.next - state.added < window else { return nil }
                    defer { state.next += 1 }
                    return state.next
                }
                guard let index else {
                    if state.withLock({ $0.stopped || $0.next >= count }) { return }
                    continue
                }
                let value = work(index)
                state.withLock { state in
                    state.pending[index] = value
                    while !state.stopped, let next = state.pending.removeValue(forKey: state.added) {
                        if add(&state.target, state.added, next) {
                            state.added += 1
                        } else {
                            state.stopped = true
                        }
                    }
                }
            }
        }
        return state.withLock { ($0.target, !$0.stopped && $0.added == count) }
    }

    /// Adds `part`, the part after those already in `whole`, to it; `covered` is how far those parts read.
    private static func merge<Collector>(
        _ part: FilePart<Collector>,
        into whole: inout FilePart<Collector>,
        covered: inout Int
    ) {
        whole.profile.merge(part.profile)
        whole.collector.append(part.collector)
        // A record a part skipped counts unless a part before it read past it.
        var dropped = part.dropped
        for skipped in part.skipped where skipped.offset >= covered {
            switch skipped.record {
            case .dropped(let count): dropped = dropped.saturatingAdd(count)
            case .edit(let edit): whole.edits.append(edit)
            }
        }
        whole.edits += part.edits
        whole.dropped = whole.dropped.saturatingAdd(dropped)
        covered = max(covered, part.processedEnd)
        if let torn = part.tornTail { whole.tornTail = torn }
    }

    /// How many newlines the first `offset` bytes of `file` hold (0 if it cannot be read: the number only
    /// places a torn line).
    private static func lineCount(of file: String, before offset: Int) -> Int {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        return FileDescriptor.newlineCount(descriptor, before: Int64(offset)) ?? 0
    }
}
