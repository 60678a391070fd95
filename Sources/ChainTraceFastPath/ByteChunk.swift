/// Up to 192 bytes of text — integers and ASCII — built on the stack, then appended to an array at once.
///
/// What it buys: the compact trace log encoder writes a hop (four integers, three commas) as one chunk. Appended
/// byte by byte to the line's array, every byte paid the array's uniqueness and capacity check, and the hop loop
/// spent a quarter of the writer thread's time in them (perf, `chaintrace-log-kill-probe`); a chunk pays them once
/// (`chaintrace-benchmarks`, "compact trace log, written on the caller's thread").
/// Differential test: ByteChunkTests (against `String(number)`).
@usableFromInline package struct ByteChunk {
    @usableFromInline var storage:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64,
            UInt64, UInt64
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    @usableFromInline var written = 0
    /// The bytes written so far.
    @inlinable package var count: Int { written }

    /// The most bytes a chunk holds.
    @usableFromInline package static var capacity: Int { 192 }
    /// The most bytes one ``append(decimal:)`` writes.
    @usableFromInline package static var decimalWidth: Int { 20 }

    /// An empty chunk.
    @inlinable package init() {}

    /// Whether `byteCount` more bytes fit.
    @inlinable package func hasRoom(for byteCount: Int) -> Bool { written + byteCount <= Self.capacity }

    /// Appends one byte; the caller checks ``hasRoom(for:)``.
    @inlinable package mutating func append(_ byte: UInt8) {
        assert(hasRoom(for: 1), "ByteChunk overflow")
        let index = written
        withUnsafeMutableBytes(of: &storage) { $0[index] = byte }
        written += 1
    }

    /// Appends `number` in decimal (at most ``decimalWidth`` bytes); the caller checks ``hasRoom(for:)``.
    ///
    /// The digits are counted by comparing with powers of ten, then written two at a time from the last, from a
    /// table of the hundred pairs. What it buys: counted by repeated division and written a digit a division, the
    /// numbers took 12% of the compact log writer's time (perf, `chaintrace replay --trace-out` of the million-line
    /// *nested* file: ~47 numbers a trace, most of two to four digits), now 8%; the benchmark's "block when
    /// behind" row, whose caller waits for the writer, 39.5–40.9 → 38.1–39.7 ns a hop (12 interleaved rounds).
    @inlinable package mutating func append(decimal number: Int64) {
        assert(hasRoom(for: Self.decimalWidth), "ByteChunk overflow")
        var start = written
        var magnitude = number.magnitude
        withUnsafeMutableBytes(of: &storage) { bytes in
            if number < 0 {
                bytes[start] = UInt8(ascii: "-")
                start &+= 1
            }
            var digits = 1
            var power: UInt64 = 10
            // 10^19 is the largest power of ten a UInt64 holds, and no magnitude here reaches it.
            while digits < 19, magnitude >= power {
                digits &+= 1
                power &*= 10
            }
            var index = start &+ digits
            Self.digitPairs.withUTF8Buffer { pairs in
                while magnitude >= 10 {
                    let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
                    magnitude /= 100
                    index &-= 2
                    bytes[index] = pairs[pair]
                    bytes[index &+ 1] = pairs[pair &+ 1]
                }
                if index > start { bytes[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude) }
            }
            start &+= digits
        }
        written = start
    }

    /// "00", "01", … "99", one after another: the two digits of `n` are at `2 n`.
    @inlinable static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324\
        25262728293031323334353637383940414243444546474849\
        50515253545556575859606162636465666768697071727374\
        75767778798081828384858687888990919293949596979899
        """
    }

    /// Appends the bytes to `array` and empties the chunk.
    @inlinable package mutating func move(to array: inout [UInt8]) {
        let count = written
        withUnsafeBytes(of: &storage) { bytes in
            array.append(
                contentsOf: UnsafeBufferPointer(
                    start: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    count: count
                )
            )
        }
        written = 0
    }
}
