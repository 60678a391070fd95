import ChainTrace

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whole small files (definitions, single commands) read into memory.
package enum FileBytes {
    /// The bytes of the file at `path`.
    package static func read(_ path: String) throws(FormatError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .system(file: path, expected: "a readable file", code: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { FileDescriptor.read(descriptor, into: $0) }
            if count < 0 { throw .system(file: path, expected: "to read the file", code: errno) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
