import CZlib
import ChainTraceJSON

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a file (or bytes) a line at a time in large chunks, in constant memory, counting lines. A file that starts
/// with gzip's magic bytes is decompressed as it streams (several gzip members one after another read as one file,
/// as `cat a.gz b.gz` makes); positions and line numbers then count the decompressed bytes. A pipe is read through
/// zlib too, which decompresses it if it is gzip data and passes it through as it is if not.
public struct LineReader: ~Copyable {
    /// One line: where its bytes are (without the newline) until the next read, its 1-based number, and whether
    /// a newline ended it. Only positions, so handing a line on copies and releases nothing.
    public struct Line {
        public var range: Range<Int>
        public var number: Int
        public var isTerminated: Bool
    }

    private let descriptor: Int32
    /// The file's device and inode as it was opened, when it is a regular file read as it is (`nil` for bytes in
    /// memory, a pipe or device, and a gzip file): a file a second reader can read again, the same one only if
    /// its identity matches.
    package let plainFileIdentity: FileIdentity?
    /// zlib's reader of the file, when it is compressed; it owns `descriptor` then.
    private let compressed: gzFile?
    /// The bytes read and not yet consumed are `storage[start..<count]`. Memory this reader owns: a chunk is read
    /// straight into it, with no zeroing first, and it stays small enough to be in cache when it is parsed.
    @usableFromInline var storage: UnsafeMutableBufferPointer<UInt8>
    private var count = 0
    private var start = 0
    private var reachedEnd = false
    /// A read that failed (damaged or cut-short gzip data, a system error): the input ends where it failed, and the
    /// error is thrown once, in place of the line it reached, after every whole line read before it — so a caller
    /// that reads on past errors reaches the end instead of being told the same again.
    private var failure: FormatError?
    private var lineNumber = 0
    private var discarded = 0
    /// How much one `read` asks for: a few hundred kilobytes keeps the bytes just read in the core's own cache.
    private static let chunkSize = 256 << 10

    /// Reads the file at `path` from byte `offset` on (line numbers then count from there).
    package init(path: String, offset: Int = 0) throws(FormatError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .system(file: path, expected: "a readable file", code: errno)
        }
        // A pipe cannot be looked at before it is read: zlib reads it, decompressing gzip data and passing any
        // other bytes through as they are.
        let isSeekable = lseek(descriptor, 0, SEEK_CUR) >= 0
        let isCompressed = !isSeekable || Self.startsWithGzipMagic(descriptor)
        if isCompressed, offset > 0 {
            close(descriptor)
            throw FormatError(
                file: path,
                line: 0,
                column: 0,
                expected: "a plain file to read from byte \(offset) (a gzip file is read whole)",
                found: "gzip data"
            )
        }
        if offset > 0, lseek(descriptor, off_t(offset), SEEK_SET) < 0 {
            let code = errno
            close(descriptor)
            throw .system(file: path, expected: "a file to read from byte \(offset)", code: code)
        }
        if isCompressed {
            guard let reader = gzdopen(descriptor, "rb") else {
                close(descriptor)
                throw FormatError(
                    file: path,
                    line: 0,
                    column: 0,
                    expected: "gzip data zlib can open",
                    found: "none (out of memory)"
                )
            }
            gzbuffer(reader, UInt32(Self.chunkSize))
            compressed = reader
        } else {
            compressed = nil
        }
        self.descriptor = descriptor
        var status = stat()
        plainFileIdentity =
            !isCompressed && fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
            ? FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)) : nil
        storage = .allocate(capacity: 2 * Self.chunkSize)
    }

    /// A file as the system knows it, whatever path reached it.
    package struct FileIdentity: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    /// Whether `path` names a regular file (not a pipe, a device or a directory): checked before opening a path a
    /// second time, since opening a pipe waits for a writer.
    package static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether the file at `path` starts as gzip data does (and so is read decompressed); `false` when it cannot
    /// be read.
    package static func isCompressed(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return startsWithGzipMagic(descriptor)
    }

    /// The two bytes every gzip file starts with.
    package static let gzipMagic: [UInt8] = [0x1F, 0x8B]

    /// Whether the file open as `descriptor` starts with ``gzipMagic`` (read in place: the file's position does not
    /// move).
    private static func startsWithGzipMagic(_ descriptor: Int32) -> Bool {
        var magic: [UInt8] = [0, 0]
        return magic.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 2, 0) } == 2 && magic == gzipMagic
    }

    package init(bytes: [UInt8]) {
        descriptor = -1
        plainFileIdentity = nil
        compressed = nil
        storage = .allocate(capacity: max(bytes.count, 1))
        _ = storage.initialize(from: bytes)
        count = bytes.count
        reachedEnd = true
    }

    deinit {
        if let compressed {
            gzclose_r(compressed)
        } else if descriptor >= 0 {
            close(descriptor)
        }
        storage.deallocate()
    }

    /// The next line, or `nil` at the end of the input.
    package mutating func next(file: String) throws(FormatError) -> Line? {
        while true {
            let base = storage.baseAddress!
            if start < count, let match = memchr(base + start, Int32(UInt8(ascii: "\n")), count - start) {
                let newline = UnsafePointer(match.assumingMemoryBound(to: UInt8.self)) - UnsafePointer(base)
                var end = newline
                if end > start, base[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                defer { start = newline + 1 }
                lineNumber += 1
                lastLineStart = discarded + start
                return Line(range: start..<end, number: lineNumber, isTerminated: true)
            }
            if reachedEnd {
                if var failure {
                    // The bytes after the last whole line were cut by the failure: its line is the one reported.
                    self.failure = nil
                    start = count
                    failure.line = lineNumber + 1
                    lineNumber += 1
                    throw failure
                }
                guard start < count else { return nil }
                defer { start = count }
                lineNumber += 1
                lastLineStart = discarded + start
                return Line(range: start..<count, number: lineNumber, isTerminated: false)
            }
            fill(file: file)
        }
    }

    /// Calls `body` with the bytes of `line`, the line this reader returned last.
    @inlinable
    public func withBytes<T, Failure: Error>(
        of line: Line,
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> T
    ) throws(Failure) -> T {
        try body(UnsafeBufferPointer(rebasing: storage[line.range]))
    }

    /// Whether anything follows the last line returned, reading on to tell. The last line's bytes may move: call
    /// this only once they have been read.
    package mutating func hasMore(file: String) -> Bool {
        while start == count, !reachedEnd { fill(file: file) }
        return start < count
    }

    /// Where the last line returned starts, in bytes from the start of the input.
    package private(set) var lastLineStart = 0

    /// Bytes of the input consumed so far (through the end of the last line returned).
    package var bytesConsumed: Int { discarded + start }

    /// Bytes of the file read so far, what progress is measured in against the file's size: ``bytesConsumed``, or
    /// for a gzip file the compressed bytes zlib has taken from it (the decompressed bytes would pass the file's
    /// size long before the end).
    package var fileBytesConsumed: Int {
        guard let compressed else { return bytesConsumed }
        return Int(max(0, gzoffset(compressed)))
    }

    /// Moves the unconsumed bytes to the front (growing the storage when a line outgrows it) and reads a chunk
    /// after them.
    private mutating func fill(file: String) {
        let leftover = count - start
        discarded += start
        if leftover + Self.chunkSize > storage.count {
            let grown = UnsafeMutableBufferPointer<UInt8>.allocate(
                capacity: max(2 * storage.count, leftover + Self.chunkSize)
            )
            grown.baseAddress!.initialize(from: storage.baseAddress! + start, count: leftover)
            storage.deallocate()
            storage = grown
        } else if leftover > 0, start > 0 {
            memmove(storage.baseAddress!, storage.baseAddress! + start, leftover)
        }
        start = 0
        count = leftover
        let read: Int
        if let compressed {
            read = Int(gzread(compressed, storage.baseAddress! + count, UInt32(Self.chunkSize)))
            var code: Int32 = Z_OK
            let message = gzerror(compressed, &code).map { String(cString: $0) } ?? ""
            if read < 0 || (code != Z_OK && code != Z_STREAM_END) {
                // A stream cut short (Z_BUF_ERROR: a file still being compressed, or truncated) or damaged: an error
                // at the line it reached, never a silent end. What was decompressed before it is read first.
                count += max(read, 0)
                reachedEnd = true
                failure = FormatError(
                    file: file,
                    line: 0,
                    column: 0,
                    expected: "gzip data to the end of the file",
                    found: code == Z_BUF_ERROR
                        ? "the compressed data cut short" : "damaged compressed data (\(message))"
                )
                return
            }
        } else {
            read = FileDescriptor.read(
                descriptor,
                into: UnsafeMutableRawBufferPointer(start: storage.baseAddress! + count, count: Self.chunkSize)
            )
            if read < 0 {
                reachedEnd = true
                failure = .system(file: file, line: 0, expected: "to read the file", code: errno)
                return
            }
        }
        if read == 0 { reachedEnd = true }
        count += read
    }
}
