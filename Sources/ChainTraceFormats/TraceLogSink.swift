#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
public import ChainTrace

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

    /// Creates (or, with `appending`, continues) the log at `path`.
    ///
    /// - Parameters:
    ///   - appending: Add to an existing log instead of replacing it; a header is written only if it is empty.
    ///   - bufferSize: Bytes held before a write to the file; 0 writes every trace at once.
    public init(path: String, appending: Bool = false, bufferSize: Int = 64 * 1024) throws(FormatError) {
        let flags = O_WRONLY | O_CREAT | (appending ? O_APPEND : O_TRUNC)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            throw .system(file: path, expected: "a writable file", code: errno)
        }
        let isEmpty = lseek(descriptor, 0, SEEK_END) == 0
        self.path = path
        self.bufferSize = max(0, bufferSize)
        self.state = LockedValue(State(descriptor: descriptor, buffer: isEmpty ? TraceLogFormat.header + [UInt8(ascii: "\n")] : []))
        try flush()
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
        var written = 0
        let total = state.buffer.count
        let descriptor = state.descriptor
        var failure: Int32 = 0
        state.buffer.withUnsafeBytes { bytes in
            while written < total {
                let count = write(descriptor, bytes.baseAddress! + written, total - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += count
            }
        }
        if failure != 0, state.firstError == nil {
            state.firstError = .system(file: path, expected: "to write the log", code: failure)
        }
    }
}

/// `close(2)`, named apart from ``TraceLogSink/close()``.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
