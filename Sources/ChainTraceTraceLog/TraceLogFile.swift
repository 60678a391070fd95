import ChainTrace
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

/// Writes bytes to a file descriptor: 0, or the failing write's `errno` — `FileDescriptor.writeAll`, or a test's
/// stand-in that fails as a full disk does.
package typealias TraceLogByteWriter = @Sendable (Int32, UnsafeRawBufferPointer) -> Int32

/// The file side of a ``TraceLogSink``: encodes traces into a buffer, writes it to the current file, rotates
/// files by size, and remembers the first error. Used by one thread at a time (the sink's writer thread, or the
/// recording threads under the sink's lock).
///
/// A write that fails (a full disk) loses what the buffer held, never the log: the part of the buffer that reached
/// the file is cut off again, so the file ends with a whole line; the next bytes written start over — a header and
/// the names again (compact), the lost chain changes again, and a record counting the lost traces as dropped —
/// so that once the disk has room the log goes on, readable to its end, with the gap counted. A rotating log
/// starts its next file only once the current one holds a trace: a full disk makes no empty file a trace.
struct TraceLogFile {
    let path: String
    let format: TraceLogSink.Format
    let bufferSize: Int
    let rotationBytes: Int?
    /// How many files of a rotated series are kept (see ``TraceLogSink/Options/maximumFiles``).
    let maximumFiles: Int?
    /// Files of the series an earlier run wrote, kept when appending: the oldest go first.
    private var earlierFiles: [String] = []
    private let writeBytes: TraceLogByteWriter
    private(set) var descriptor: Int32 = -1
    /// The file being written (`path`, or its numbered name when rotating).
    private(set) var currentFile: String
    private(set) var files: [String] = []
    private var fileNumber: Int
    /// Bytes of the current file known to be written: whole lines.
    private var bytesInFile = 0
    /// Traces written to the current file.
    private var tracesInFile = 0
    private var buffer: [UInt8] = []
    /// What the buffer holds besides bytes: its traces, the traces its records of dropped traces count, its chain
    /// changes, and how many of ``lostTraces`` its record of lost traces counts.
    private var tracesInBuffer = 0
    private var droppedInBuffer = 0
    private var editsInBuffer: [ChainEdit] = []
    private var lossInBuffer = 0
    /// Traces lost to failed writes and not yet recorded in the file as dropped, and the chain changes lost with
    /// them, to be written again.
    private var lostTraces = 0
    private var lostEdits: [ChainEdit] = []
    /// Whether a write failed since the last bytes were buffered: the next start over (see the type's comment).
    private var startsOver = false
    /// Every trace lost to a failed write since the log was opened.
    private(set) var tracesLostToWrites = 0
    private var encoder = CompactTraceLogEncoder()
    /// Compact trace bytes since the last header: a new segment starts every ``segmentBytes``, so that a reader
    /// can start at any header (``TraceLogProfiler`` reads the parts of a file in parallel from them).
    private var bytesInSegment = 0
    /// How long a compact segment grows before the next header (and its names) starts another.
    static let segmentBytes = 1 << 20
    private(set) var firstError: FormatError?
    private(set) var repairedTail: TornTail?

    /// Opens (creates, or continues with `appending`) the log's first file.
    init(
        path: String,
        appending: Bool,
        format: TraceLogSink.Format,
        bufferSize: Int,
        rotationBytes: Int?,
        maximumFiles: Int? = nil,
        writeBytes: @escaping TraceLogByteWriter = { FileDescriptor.writeAll($0, $1) }
    ) throws(FormatError) {
        self.path = path
        self.format = format
        self.bufferSize = max(0, bufferSize)
        self.rotationBytes = rotationBytes.map { max(1, $0) }
        self.maximumFiles = rotationBytes == nil ? nil : maximumFiles.map { max(1, $0) }
        self.writeBytes = writeBytes
        fileNumber = 0
        var replaced: [String] = []
        if rotationBytes != nil {
            let series = try Self.series(of: path)
            if appending {
                // Continued in the last file, unless it has been compressed (finished): then after it.
                let last = series.last
                let continued = last.map { $0.compressed ? $0.number + 1 : $0.number } ?? 1
                fileNumber = continued
                // Every file but the one continued, oldest first.
                let continuedFile = Self.numbered(path, continued)
                earlierFiles = series.map(\.path).filter { $0 != continuedFile }
            } else {
                // Replaced: the earlier series goes, all of it, so that the directory holds this log alone.
                fileNumber = 1
                replaced = series.map(\.path)
            }
        }
        currentFile = rotationBytes == nil ? path : Self.numbered(path, fileNumber)
        // A file of the series another sink is writing is neither replaced nor continued: two sinks on one path
        // wrote over each other's lines.
        for file in replaced where file != currentFile {
            try Self.checkNotWritten(file)
        }
        try open(appending: appending)
        removeFilesBeyondMaximum()
        // Removed once the new log's first file is open (it took the place of the old first one): a log that cannot
        // be started leaves the old one whole.
        for file in replaced where file != currentFile {
            guard unlink(file) == 0 || errno == ENOENT else {
                let error = FormatError.system(
                    file: file,
                    expected: "an earlier file of the log, to replace it",
                    code: errno
                )
                close()
                throw error
            }
        }
    }

    /// `traces.jsonl` → `traces-0001.jsonl`.
    static func numbered(_ path: String, _ number: Int) -> String {
        let (head, tail) = numberedParts(path)
        let digits = String(number)
        return head + "-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + tail
    }

    /// What comes before a numbered name's `-` and digits, and what comes after them: `traces.jsonl` →
    /// (`traces`, `.jsonl`).
    private static func numberedParts(_ path: String) -> (head: String, tail: String) {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return (String(path[..<dot]), String(path[dot...]))
        }
        return (path, "")
    }

    /// The files of `path`'s numbered series in its directory, by number: each name ``numbered(_:_:)`` gives, and
    /// the same followed by `.gz` (a finished file someone compressed, as the sink's documentation suggests), that
    /// is a trace log (or empty, or gzip) — from any number on, since old files may have been removed to keep the
    /// disk from filling. A file only named like one of the series (`traces-2024.jsonl` holding a year's report
    /// beside `traces.jsonl`) is neither removed when the log is replaced nor continued when it is appended to.
    static func series(of path: String) throws(FormatError) -> [(number: Int, path: String, compressed: Bool)] {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let prefix = slash.map { String(path[...$0]) } ?? ""
        guard let names = try FileBytes.directoryNames(directory) else { return [] }
        var byNumber: [Int: [(path: String, compressed: Bool)]] = [:]
        for name in names {
            let compressed = name.hasSuffix(".gz")
            let candidate = prefix + (compressed ? String(name.dropLast(3)) : name)
            guard let number = number(of: candidate, in: path) else { continue }
            byNumber[number, default: []].append((prefix + name, compressed))
        }
        var files: [(number: Int, path: String, compressed: Bool)] = []
        for number in byNumber.keys.sorted() {
            // A number's plain file before its compressed one.
            for file in byNumber[number]!.sorted(by: { !$0.compressed && $1.compressed })
            where isTraceLog(file.path, compressed: file.compressed) {
                files.append((number, file.path, file.compressed))
            }
        }
        return files
    }

    /// Whether the file at `path` is one a rotating sink wrote: empty, or starting with a trace log header (or the
    /// start of one), or — compressed — with gzip's magic bytes.
    private static func isTraceLog(_ path: String, compressed: Bool) -> Bool {
        let descriptor = openDescriptor(path, O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { closeDescriptor(descriptor) }
        let size = lseek(descriptor, 0, SEEK_END)
        if compressed {
            return size == 0
                || FileDescriptor.read(descriptor, count: 2, at: 0).map { $0 == LineReader.gzipMagic } ?? false
        }
        switch try? start(of: descriptor, size: Int64(size), path: path) {
        case .empty, .cutHeader, .log: return true
        case .other, nil: return false
        }
    }

    /// What a file's first line says it is.
    private enum FileStart {
        case empty
        /// Only the start of a header, of this many bytes, and nothing after: its writer stopped inside it.
        case cutHeader(byteCount: Int)
        case log(version: Int)
        /// Not a trace log: its first line, and why it is no header.
        case other(headerLine: [UInt8], problem: FormatError)
    }

    /// Reads the first line of the file open at `descriptor`, `size` bytes long.
    private static func start(of descriptor: Int32, size: Int64, path: String) throws(FormatError) -> FileStart {
        guard size > 0 else { return .empty }
        guard let first = FileDescriptor.read(descriptor, count: Int(min(size, 4096)), at: 0), !first.isEmpty else {
            throw .system(file: path, expected: "a readable trace log", code: errno)
        }
        let headerLine = Array(first.prefix { $0 != UInt8(ascii: "\n") })
        if Int64(headerLine.count) == size, TraceLogFormat.isCutHeader(headerLine) {
            return .cutHeader(byteCount: headerLine.count)
        }
        do {
            return .log(
                version: try TraceLogFormat.checkHeader(
                    try JSONDocument(bytes: headerLine, file: path).root,
                    file: path,
                    line: 1
                )
            )
        } catch {
            return .other(headerLine: headerLine, problem: error)
        }
    }

    /// The number `candidate` has in `path`'s series, if it is one of its names (exactly as ``numbered(_:_:)``
    /// writes it).
    private static func number(of candidate: String, in path: String) -> Int? {
        let (head, tail) = numberedParts(path)
        let bytes = Array(candidate.utf8)
        let headBytes = Array(head.utf8) + [UInt8(ascii: "-")]
        let tailBytes = Array(tail.utf8)
        guard bytes.count >= headBytes.count + 4 + tailBytes.count, bytes.starts(with: headBytes),
            bytes.reversed().starts(with: tailBytes.reversed())
        else { return nil }
        let digits = bytes[headBytes.count..<(bytes.count - tailBytes.count)]
        guard digits.count <= 9, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let number = Int(String(decoding: digits, as: UTF8.self)), number > 0, numbered(path, number) == candidate
        else { return nil }
        return number
    }

    private mutating func open(appending: Bool) throws(FormatError) {
        let descriptor = try Self.openLocked(currentFile, appending: appending)
        if appending {
            do {
                repairedTail = try Self.prepareForAppending(descriptor, path: currentFile)
            } catch {
                closeDescriptor(descriptor)
                throw error
            }
        }
        self.descriptor = descriptor
        begin()
        if let error = writeBuffer() {
            closeDescriptor(descriptor)
            self.descriptor = -1
            throw error
        }
    }

    /// Starts writing the file just opened at ``descriptor``.
    private mutating func begin() {
        files.append(currentFile)
        bytesInFile = Int(lseek(descriptor, 0, SEEK_END))
        tracesInFile = 0
        startsOver = false
        startSegment()
    }

    /// Buffers what starts a run of lines that depend on nothing before them: a header of the format written (a
    /// compact log's names start again after it) — then the chain changes and the count of traces lost to failed
    /// writes, if any. A header where a file goes on starts a segment, as readers read it: a version 1 log
    /// appended to a file whose last segment is compact was read as compact lines without one.
    private mutating func startSegment() {
        bytesInSegment = 0
        encoder.reset()
        switch format {
        case .compact: buffer += CompactTraceLogFormat.header + [0x0A]
        case .jsonLines: buffer += TraceLogFormat.header + [0x0A]
        }
        for edit in lostEdits { buffer += ChainEditLine.encode(edit) + [0x0A] }
        editsInBuffer += lostEdits
        lostEdits.removeAll()
        if lostTraces > 0 {
            encodeDropped(lostTraces)
            lossInBuffer = lostTraces
        }
    }

    /// After a failed write, starts the next bytes over (see the type's comment).
    private mutating func startOverIfNeeded() {
        guard startsOver, buffer.isEmpty else { return }
        startsOver = false
        startSegment()
    }

    /// Adds one trace to the buffer, writing the buffer out when it is full.
    mutating func append(_ trace: Trace) {
        rotateIfFull()
        startOverIfNeeded()
        switch format {
        case .compact:
            if bytesInSegment >= Self.segmentBytes {
                buffer += CompactTraceLogFormat.header + [0x0A]
                encoder.reset()
                bytesInSegment = 0
            }
            let before = buffer.count
            encoder.encode(trace, into: &buffer)
            bytesInSegment += buffer.count - before
        case .jsonLines:
            buffer += TraceLogFormat.encode(trace)
            buffer.append(0x0A)
        }
        tracesInBuffer += 1
        if buffer.count > bufferSize { writeBuffer() }
    }

    /// Records a change to a chain.
    mutating func append(_ edit: ChainEdit) {
        startOverIfNeeded()
        buffer += ChainEditLine.encode(edit) + [0x0A]
        editsInBuffer.append(edit)
    }

    /// Records that `count` traces were dropped here.
    mutating func appendDropped(_ count: Int) {
        guard count > 0 else { return }
        startOverIfNeeded()
        encodeDropped(count)
        droppedInBuffer = droppedInBuffer.addingReportingOverflow(count).partialValue
    }

    private mutating func encodeDropped(_ count: Int) {
        switch format {
        case .compact: encoder.encodeDropped(count: count, into: &buffer)
        case .jsonLines: buffer += Array(#"{"dropped":\#(count)}"#.utf8) + [0x0A]
        }
    }

    /// Moves on to the next numbered file once this one has reached the rotation size — if it holds a trace: a
    /// file every write to which failed (a full disk) stays the current one. The next file is opened before this
    /// one is let go: one that cannot be opened leaves this one current, tried again at the next trace.
    private mutating func rotateIfFull() {
        guard let rotationBytes, tracesInFile + tracesInBuffer > 0, bytesInFile + buffer.count >= rotationBytes else {
            return
        }
        writeBuffer()
        guard tracesInFile > 0 else { return }
        let next = Self.numbered(path, fileNumber + 1)
        let nextDescriptor: Int32
        do {
            nextDescriptor = try Self.openLocked(next, appending: false)
        } catch {
            if firstError == nil { firstError = error }
            return
        }
        if descriptor >= 0 { closeDescriptor(descriptor) }
        descriptor = nextDescriptor
        fileNumber += 1
        currentFile = next
        // What a failed write lost is recorded in the new file, after its header.
        begin()
        writeBuffer()
        removeFilesBeyondMaximum()
    }

    /// Removes the oldest files of the series beyond ``maximumFiles`` — an earlier run's first — never the
    /// current one. A file that cannot be removed is left, and tried again at the next rotation.
    private mutating func removeFilesBeyondMaximum() {
        guard let maximumFiles else { return }
        while earlierFiles.count + files.count > maximumFiles {
            let oldest = earlierFiles.first ?? files[0]
            guard oldest != currentFile, unlink(oldest) == 0 || errno == ENOENT else { return }
            if earlierFiles.isEmpty { files.removeFirst() } else { earlierFiles.removeFirst() }
        }
    }

    /// Writes the buffer to the file; the write's error, if it failed. A failed write's bytes are cut off the file
    /// again, and what the buffer held is kept as a loss for the next bytes to record (see the type's comment).
    /// With nothing buffered after a failure, the loss is recorded now (and an empty file gets its header), if the
    /// file takes it.
    @discardableResult
    mutating func writeBuffer() -> FormatError? {
        if startsOver, lostTraces > 0 || !lostEdits.isEmpty || bytesInFile == 0 { startOverIfNeeded() }
        guard !buffer.isEmpty else { return nil }
        defer {
            buffer.removeAll(keepingCapacity: true)
            (tracesInBuffer, droppedInBuffer, lossInBuffer) = (0, 0, 0)
            editsInBuffer.removeAll()
        }
        let error: FormatError
        if descriptor >= 0 {
            let failure = buffer.withUnsafeBytes { writeBytes(descriptor, $0) }
            if failure == 0 {
                bytesInFile += buffer.count
                tracesInFile += tracesInBuffer
                lostTraces -= lossInBuffer
                return nil
            }
            error = .system(file: currentFile, expected: "to write the log", code: failure)
            // The part of the buffer that reached the file is cut off — a line cut short would spoil the one after
            // it — and the next write goes where it began. A file that cannot be cut is written no more.
            if ftruncate(descriptor, off_t(bytesInFile)) != 0 || lseek(descriptor, off_t(bytesInFile), SEEK_SET) < 0 {
                closeDescriptor(descriptor)
                descriptor = -1
            }
        } else {
            error = FormatError(file: currentFile, line: 0, column: 0, expected: "an open log", found: "a closed one")
        }
        if firstError == nil { firstError = error }
        tracesLostToWrites = tracesLostToWrites.addingReportingOverflow(tracesInBuffer).partialValue
        // The loss the buffer recorded is still in `lostTraces`.
        lostTraces = lostTraces.addingReportingOverflow(tracesInBuffer &+ droppedInBuffer).partialValue
        lostEdits += editsInBuffer
        startsOver = true
        return error
    }

    /// Writes the buffer and closes the file.
    mutating func close() {
        writeBuffer()
        if descriptor >= 0 {
            closeDescriptor(descriptor)
            descriptor = -1
        }
    }

    /// Opens `path` to write a log in — emptied unless `appending`, but only once locked (see ``lock(_:path:)``):
    /// a file another sink is writing is left as it is.
    private static func openLocked(_ path: String, appending: Bool) throws(FormatError) -> Int32 {
        let descriptor = openDescriptor(path, O_RDWR | O_CREAT | (appending ? O_APPEND : 0))
        guard descriptor >= 0 else { throw .system(file: path, expected: "a writable file", code: errno) }
        do throws(FormatError) {
            try lock(descriptor, path: path)
            if !appending, ftruncate(descriptor, 0) != 0 {
                throw FormatError.system(file: path, expected: "a file to write the log in", code: errno)
            }
        } catch {
            closeDescriptor(descriptor)
            throw error
        }
        return descriptor
    }

    /// Takes the advisory lock that marks the file open at `descriptor` as a log a sink is writing, held until the
    /// descriptor is closed (or the process ends, however it ends). Throws when another sink holds it — in this
    /// process or another. A file system without such locks (some network ones) goes without.
    ///
    /// A lock held by a sink that has just closed can outlive it for a moment: a process another thread is
    /// starting holds a copy of every descriptor of this one from its `fork` (or `posix_spawn`'s clone) until its
    /// `exec` closes them. So a lock that is taken is asked again for up to about 100 ms before the log is called
    /// another sink's; a sink that is really writing holds it far longer.
    private static func lock(_ descriptor: Int32, path: String) throws(FormatError) {
        var wait: UInt32 = 1_000
        var waited: UInt32 = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EAGAIN else { return }
            guard waited < 100_000 else { throw writtenByAnotherSink(path) }
            usleep(wait)
            waited += wait
            wait = min(wait * 2, 25_000)
        }
    }

    /// Throws if a sink holds `path`'s lock (see ``lock(_:path:)``); a file that cannot be opened, or is no regular
    /// file (a terminal, a pipe), is no sink's.
    static func checkNotWritten(_ path: String) throws(FormatError) {
        let descriptor = openDescriptor(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { return }
        defer { closeDescriptor(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        // Taken, it is let go as the descriptor closes.
        try lock(descriptor, path: path)
    }

    private static func writtenByAnotherSink(_ path: String) -> FormatError {
        FormatError(
            file: path,
            line: 0,
            column: 0,
            expected: "a trace log no other sink is writing",
            found:
                "one another TraceLogSink (in this process or another) has open: close it first, or let the chains share one sink"
        )
    }

    /// Checks that a non-empty file is a trace log, and cuts a torn last line off it: the cut line, if any.
    private static func prepareForAppending(_ descriptor: Int32, path: String) throws(FormatError) -> TornTail? {
        let size = lseek(descriptor, 0, SEEK_END)
        // The header: the first line must be a trace log's.
        switch try start(of: descriptor, size: Int64(size), path: path) {
        case .empty:
            return nil
        case .cutHeader(let byteCount):
            // A writer stopped inside its header left only the start of one: the file held nothing yet, and is cut
            // to empty (the cut reported) to get a whole header.
            _ = try cut(descriptor, to: 0, size: Int64(size), path: path)
            return TornTail(line: 1, byteCount: byteCount, problem: "the start of a header, cut off before appending")
        case .log:
            break
        case .other(let headerLine, let problem):
            throw FormatError(
                file: path,
                line: 1,
                column: 1,
                expected: "a trace log to append to (its header line)",
                found: headerLine.isEmpty ? "an empty first line" : "something else (\(problem.expected))"
            )
        }
        // The end: append only after a newline; a torn last line is cut off.
        var end = Int64(size)
        while end > 0 {
            let start = max(0, end - 4096)
            let count = Int(end - start)
            guard let chunk = FileDescriptor.read(descriptor, count: count, at: start), chunk.count == count else {
                throw .system(file: path, expected: "a readable trace log", code: errno)
            }
            if let newline = chunk.lastIndex(of: UInt8(ascii: "\n")) {
                let keep = start + Int64(newline) + 1
                guard keep < Int64(size) else { return nil }
                // A last line that is whole but for its newline gets its newline, not cut: a prefix of an object
                // or an array is never valid JSON, so a line that parses is whole.
                if try isWholeLine(descriptor, from: keep, to: Int64(size), path: path) {
                    guard write(descriptor, [UInt8(ascii: "\n")], 1) == 1 else {
                        throw .system(file: path, expected: "to end the log's last line", code: errno)
                    }
                    return nil
                }
                return try cut(descriptor, to: keep, size: Int64(size), path: path)
            }
            end = start
        }
        // No newline at all: the header alone, unterminated; the file is emptied and gets a new one.
        _ = try cut(descriptor, to: 0, size: Int64(size), path: path)
        return nil
    }

    private static func isWholeLine(_ descriptor: Int32, from start: Int64, to end: Int64, path: String)
        throws(FormatError) -> Bool
    {
        guard let line = FileDescriptor.read(descriptor, count: Int(end - start), at: start),
            line.count == Int(end - start)
        else {
            throw .system(file: path, expected: "a readable trace log", code: errno)
        }
        return (try? JSONDocument(bytes: line, file: path)) != nil
    }

    private static func cut(_ descriptor: Int32, to length: Int64, size: Int64, path: String) throws(FormatError)
        -> TornTail?
    {
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw .system(file: path, expected: "to cut the torn last line off the log", code: errno)
        }
        if length == 0 { return nil }
        guard let lines = FileDescriptor.newlineCount(descriptor, before: length) else {
            throw .system(file: path, expected: "a readable trace log", code: errno)
        }
        return TornTail(line: lines + 1, byteCount: Int(size - length), problem: "cut off before appending")
    }
}

/// `open(2)` and `close(2)`, named apart from the methods above.
private func openDescriptor(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags | O_CLOEXEC, 0o644)
}

private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
