import ChainTraceJSON

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one place ChainTrace reads and writes file descriptors: `read(2)` and `write(2)` retried when a signal
/// interrupts them, and a write carried on until every byte is out.
package enum FileDescriptor {
    /// Writes all of `bytes` to `descriptor`. Returns 0, or the `errno` of the write that failed (some bytes may
    /// have been written before it).
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var written = 0
        while written < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += count
        }
        return 0
    }

    /// Writes all of `bytes` to `descriptor`; 0 or the failing write's `errno`.
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBytes { writeAll(descriptor, $0) }
    }

    /// Reads `descriptor` to its end a megabyte at a time, handing each chunk to `body`. Returns 0, or the `errno`
    /// of the read that failed; an error `body` throws ends the reading and is passed on.
    package static func readChunks<Failure: Error>(
        _ descriptor: Int32,
        _ body: (ArraySlice<UInt8>) throws(Failure) -> Void
    ) throws(Failure) -> Int32 {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, into: $0) }
            if count < 0 { return errno }
            if count == 0 { return 0 }
            try body(buffer[..<count])
        }
    }

    /// Reads at most `buffer.count` bytes into `buffer`: how many (0 at the end of the file), or -1 with `errno`
    /// set.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = readBytes(descriptor, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            return count
        }
    }
}

extension FileDescriptor {
    /// Up to `count` bytes from byte `offset` of the file (fewer at its end), or `nil` with `errno` set.
    package static func read(_ descriptor: Int32, count: Int, at offset: Int64) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var got = 0
        while got < bytes.count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + got, buffer.count - got, off_t(offset + Int64(got)))
            }
            if read < 0, errno == EINTR { continue }
            if read < 0 { return nil }
            if read == 0 { break }
            got += read
        }
        bytes.removeSubrange(got...)
        return bytes
    }

    /// How many newlines the file's first `offset` bytes hold, or `nil` with `errno` set.
    package static func newlineCount(_ descriptor: Int32, before offset: Int64) -> Int? {
        var lines = 0
        var position: Int64 = 0
        while position < offset {
            guard let chunk = read(descriptor, count: Int(min(1 << 20, offset - position)), at: position) else {
                return nil
            }
            if chunk.isEmpty { break }
            lines += chunk.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            position += Int64(chunk.count)
        }
        return lines
    }
}

/// `read(2)`, named apart from the method that shadows it.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
