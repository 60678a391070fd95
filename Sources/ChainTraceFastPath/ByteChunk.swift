/// Up to 192 bytes of text — integers and ASCII — built on the stack, then appended to an array at once.
///
/// What it buys: the compact trace log encoder writes a hop (four integers, three commas) as one chunk. Appended
/// byte by byte to the line's array, every byte paid the array's uniqueness and capacity check, and the hop loop
/// spent a quarter of the writer thread's time in them (perf, `chaintrace-log-kill-probe`); a chunk pays them once.
/// Differential test: ByteChunkTests (against `String(number)`).
public struct ByteChunk {
    @usableFromInline var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    @usableFromInline var written = 0
    /// The bytes written so far.
    @inlinable public var count: Int { written }

    /// The most bytes a chunk holds.
    public static var capacity: Int { 192 }
    /// The most bytes one ``append(decimal:)`` writes.
    public static var decimalWidth: Int { 20 }

    /// An empty chunk.
    @inlinable public init() {}

    /// Whether `byteCount` more bytes fit.
    @inlinable public func hasRoom(for byteCount: Int) -> Bool { written + byteCount <= Self.capacity }

    /// Appends one byte; the caller checks ``hasRoom(for:)``.
    @inlinable public mutating func append(_ byte: UInt8) {
        assert(hasRoom(for: 1), "ByteChunk overflow")
        let index = written
        withUnsafeMutableBytes(of: &storage) { $0[index] = byte }
        written += 1
    }

    /// Appends `number` in decimal (at most ``decimalWidth`` bytes); the caller checks ``hasRoom(for:)``.
    @inlinable public mutating func append(decimal number: Int64) {
        assert(hasRoom(for: Self.decimalWidth), "ByteChunk overflow")
        var start = written
        var magnitude = number.magnitude
        withUnsafeMutableBytes(of: &storage) { bytes in
            if number < 0 {
                bytes[start] = UInt8(ascii: "-")
                start += 1
            }
            // The digits' count first, then written from the last.
            var digits = 1
            var rest = magnitude / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            var index = start + digits
            repeat {
                index -= 1
                bytes[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            start += digits
        }
        written = start
    }

    /// Appends the bytes to `array` and empties the chunk.
    @inlinable public mutating func move(to array: inout [UInt8]) {
        let count = written
        withUnsafeBytes(of: &storage) { bytes in
            array.append(contentsOf: UnsafeBufferPointer(start: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
        }
        written = 0
    }
}
