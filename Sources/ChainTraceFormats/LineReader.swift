#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a file (or bytes) a line at a time in large chunks, in constant memory, counting lines.
struct LineReader: ~Copyable {
    /// One line: where its bytes are (without the newline) until the next read, its 1-based number, and whether
    /// a newline ended it. Only positions, so handing a line on copies and releases nothing.
    struct Line {
        var range: Range<Int>
        var number: Int
        var isTerminated: Bool
    }

    private let descriptor: Int32
    private var buffer: [UInt8]
    private var start = 0
    private var reachedEnd = false
    private var lineNumber = 0
    private var discarded = 0
    private let chunkSize = 1 << 20

    init(path: String) throws(FormatError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw .system(file: path, expected: "a readable file", code: errno)
        }
        self.descriptor = descriptor
        buffer = []
    }

    init(bytes: [UInt8]) {
        descriptor = -1
        buffer = bytes
        reachedEnd = true
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The next line, or `nil` at the end of the input.
    mutating func next(file: String) throws(FormatError) -> Line? {
        while true {
            let start = start
            let found = buffer.withUnsafeBufferPointer { storage -> Int? in
                guard start < storage.count,
                    let match = memchr(storage.baseAddress! + start, Int32(UInt8(ascii: "\n")), storage.count - start)
                else { return nil }
                return UnsafePointer(match.assumingMemoryBound(to: UInt8.self)) - storage.baseAddress!
            }
            if let newline = found {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                defer { self.start = newline + 1 }
                lineNumber += 1
                return Line(range: start..<end, number: lineNumber, isTerminated: true)
            }
            if reachedEnd {
                guard start < buffer.count else { return nil }
                defer { self.start = buffer.count }
                lineNumber += 1
                return Line(range: start..<buffer.count, number: lineNumber, isTerminated: false)
            }
            try fill(file: file)
        }
    }

    /// Calls `body` with the bytes of `line`, the line this reader returned last.
    func withBytes<T, Failure: Error>(
        of line: Line, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> T
    ) throws(Failure) -> T {
        try buffer.withUnsafeBufferPointer { (buffer) throws(Failure) -> T in
            try body(UnsafeBufferPointer(rebasing: buffer[line.range]))
        }
    }

    /// Bytes of the input consumed so far (through the end of the last line returned).
    var bytesConsumed: Int { discarded + start }

    private mutating func fill(file: String) throws(FormatError) {
        discarded += start
        buffer.removeFirst(start)
        start = 0
        let oldCount = buffer.count
        buffer.reserveCapacity(oldCount + chunkSize)
        var readError: Int32 = 0
        let descriptor = descriptor
        let chunkSize = chunkSize
        var count = 0
        buffer.append(contentsOf: repeatElement(0, count: chunkSize))
        buffer.withUnsafeMutableBufferPointer { storage in
            repeat {
                count = read(descriptor, storage.baseAddress! + oldCount, chunkSize)
            } while count < 0 && errno == EINTR
            if count < 0 { readError = errno }
        }
        buffer.removeLast(chunkSize - max(count, 0))
        if readError != 0 {
            throw .system(file: file, line: lineNumber + 1, expected: "to read the file", code: readError)
        }
        if count == 0 { reachedEnd = true }
    }
}
