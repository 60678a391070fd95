import ChainTraceFastPath
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
public import ChainTrace
import ChainTraceJSON

/// Streams traces to a trace log file (JSON Lines, see ``TraceLogFormat``).
///
/// Each trace is encoded on the recording thread, then appended to a buffer under a lock; the buffer goes to
/// the file when it passes `bufferSize` bytes, on ``flush()``, and on ``close()``. A trace is always written
/// whole, so a crash loses at most the buffered traces and can tear only the last line.
///
/// ```swift
/// let log = try TraceLogSink(path: "traces.jsonl")
/// chain.recorder = Recorder(sink: log)
/// …
/// try log.close()
/// ```
///
public final class TraceLogSink: TraceSink {
    /// The file written to.
    public let path: String
    private let bufferSize: Int
    private let state: LockedValue<State>

    private struct State {
        var descriptor: Int32
        var buffer: [UInt8] = []
        var firstError: FormatError?
    }

    /// When appending to a log whose writer died mid-line: the torn last line cut off before the first new
    /// trace (it could never be read, and left in place it would join the next line). `nil` otherwise.
    public let repairedTail: TornTail?

    /// Creates (or, with `appending`, continues) the log at `path`.
    ///
    /// - Parameters:
    ///   - path: The log file.
    ///   - appending: Add to an existing log instead of replacing it; a header is written only if it is empty. A
    ///     file that is not a trace log is refused, never appended to; a torn last line is cut off first (see
    ///     ``repairedTail``), so the log stays readable.
    ///   - bufferSize: Bytes held before a write to the file; 0 writes every trace at once.
    public init(path: String, appending: Bool = false, bufferSize: Int = 64 * 1024) throws(FormatError) {
        let flags = O_RDWR | O_CREAT | (appending ? O_APPEND : O_TRUNC)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            throw .system(file: path, expected: "a writable file", code: errno)
        }
        var repaired: TornTail?
        do {
            repaired = try Self.prepareForAppending(descriptor, path: path)
        } catch {
            closeDescriptor(descriptor)
            throw error
        }
        let isEmpty = lseek(descriptor, 0, SEEK_END) == 0
        self.path = path
        self.repairedTail = repaired
        self.bufferSize = max(0, bufferSize)
        self.state = LockedValue(State(descriptor: descriptor, buffer: isEmpty ? TraceLogFormat.header + [UInt8(ascii: "\n")] : []))
        try flush()
    }

    /// Checks that a non-empty file is a trace log, and cuts a torn last line off it.
    private static func prepareForAppending(_ descriptor: Int32, path: String) throws(FormatError) -> TornTail? {
        let size = lseek(descriptor, 0, SEEK_END)
        guard size > 0 else { return nil }
        // The header: the first line must be this format's.
        var first = [UInt8](repeating: 0, count: Int(min(size, 4096)))
        let read = first.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, 0) }
        guard read > 0 else { throw .system(file: path, expected: "a readable trace log", code: errno) }
        first.removeSubrange(read...)
        let headerLine = Array(first.prefix { $0 != UInt8(ascii: "\n") })
        do {
            try TraceLogFormat.checkHeader(try JSONDocument(bytes: headerLine, file: path).root, file: path, line: 1)
        } catch {
            throw FormatError(
                file: path, line: 1, column: 1, expected: "a trace log to append to (its header line)",
                found: headerLine.isEmpty ? "an empty first line" : "something else (\(error.expected))")
        }
        // The end: append only after a newline; a torn last line is cut off.
        var end = Int64(size)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while end > 0 {
            let start = max(0, end - Int64(chunk.count))
            let count = Int(end - start)
            let got = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, count, off_t(start)) }
            guard got == count else { throw .system(file: path, expected: "a readable trace log", code: errno) }
            if let newline = chunk[..<count].lastIndex(of: UInt8(ascii: "\n")) {
                let keep = start + Int64(newline) + 1
                guard keep < Int64(size) else { return nil }
                // A last line that is whole but for its newline is a trace: it gets its newline, not cut.
                if try isWholeTrace(descriptor, from: keep, to: Int64(size), path: path) {
                    guard write(descriptor, [UInt8(ascii: "\n")], 1) == 1 else {
                        throw .system(file: path, expected: "to end the log's last line", code: errno)
                    }
                    return nil
                }
                return try cut(descriptor, to: keep, size: Int64(size), path: path, headerLine: headerLine)
            }
            end = start
        }
        // No newline at all: the header alone, unterminated.
        return try cut(descriptor, to: 0, size: Int64(size), path: path, headerLine: headerLine)
    }

    /// Whether the bytes `from..<to` are one whole trace line.
    private static func isWholeTrace(_ descriptor: Int32, from start: Int64, to end: Int64, path: String) throws(FormatError) -> Bool {
        var line = [UInt8](repeating: 0, count: Int(end - start))
        let got = line.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, off_t(start)) }
        guard got == line.count else { throw .system(file: path, expected: "a readable trace log", code: errno) }
        guard let document = try? JSONDocument(bytes: line, file: path) else { return false }
        return (try? TraceLogFormat.decode(document)) != nil
    }

    private static func cut(_ descriptor: Int32, to length: Int64, size: Int64, path: String, headerLine: [UInt8]) throws(FormatError) -> TornTail? {
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw .system(file: path, expected: "to cut the torn last line off the log", code: errno)
        }
        // A header that was whole but unterminated is written again (with its newline) as the file is now empty.
        if length == 0 { return nil }
        var lines = 0
        var offset: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while offset < length {
            let count = Int(min(Int64(buffer.count), length - offset))
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, count, off_t(offset)) }
            guard got > 0 else { break }
            lines += buffer[..<got].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            offset += Int64(got)
        }
        return TornTail(line: lines + 1, byteCount: Int(size - length), problem: "cut off before appending")
    }

    deinit {
        try? close()
    }

    public func record(_ trace: Trace) {
        var line = TraceLogFormat.encode(trace)
        line.append(UInt8(ascii: "\n"))
        state.withLock { state in
            state.buffer.append(contentsOf: line)
            if state.buffer.count > bufferSize { Self.writeBuffer(&state, path: path) }
        }
    }

    /// Writes buffered traces to the file.
    ///
    /// - Throws: The first write error since the sink was opened (a full disk, a closed file).
    public func flush() throws(FormatError) {
        let error = state.withLock { state -> FormatError? in
            Self.writeBuffer(&state, path: path)
            return state.firstError
        }
        if let error { throw error }
    }

    /// Writes buffered traces and closes the file; later traces are dropped.
    public func close() throws(FormatError) {
        let error = state.withLock { state -> FormatError? in
            Self.writeBuffer(&state, path: path)
            if state.descriptor >= 0 {
                closeDescriptor(state.descriptor)
                state.descriptor = -1
            }
            return state.firstError
        }
        if let error { throw error }
    }

    /// Must be called with the lock held.
    private static func writeBuffer(_ state: inout State, path: String) {
        guard !state.buffer.isEmpty else { return }
        defer { state.buffer.removeAll(keepingCapacity: true) }
        guard state.descriptor >= 0 else {
            if state.firstError == nil {
                state.firstError = FormatError(
                    file: path, line: 0, column: 0, expected: "an open log", found: "a closed one")
            }
            return
        }
        let failure = FileDescriptor.writeAll(state.descriptor, state.buffer)
        if failure != 0, state.firstError == nil {
            state.firstError = .system(file: path, expected: "to write the log", code: failure)
        }
    }
}

/// `close(2)`, named apart from ``TraceLogSink/close()``.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
