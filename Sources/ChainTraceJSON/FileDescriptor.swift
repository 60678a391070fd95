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

/// `read(2)`, named apart from the method that shadows it.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
