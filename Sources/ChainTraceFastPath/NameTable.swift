/// The strings a reader has made for names, by their bytes, so each name is made once per reader.
///
/// A direct-mapped cache: a name's ``NameBytes`` bucket is its one slot, so finding it costs one comparison; two
/// names that share a slot just take turns. The slots are memory this table owns, so a lookup retains nothing
/// but the string it returns.
///
/// What it buys: each name of a log or a stream is made into a `String` once per reader rather than once per line
/// (`chaintrace-cli-benchmarks`, the "stats" rows and the "replay" column).
@usableFromInline package final class NameTable {
    @usableFromInline static let slotCount = 256
    /// Each slot's name bytes (empty when the slot is), and its string.
    @usableFromInline let keys: UnsafeMutablePointer<UnsafeMutableBufferPointer<UInt8>>
    @usableFromInline let strings: UnsafeMutablePointer<String>

    @inlinable package init() {
        keys = .allocate(capacity: Self.slotCount)
        keys.initialize(repeating: UnsafeMutableBufferPointer(start: nil, count: 0), count: Self.slotCount)
        strings = .allocate(capacity: Self.slotCount)
        strings.initialize(repeating: "", count: Self.slotCount)
    }

    deinit {
        for slot in 0..<Self.slotCount { keys[slot].deallocate() }
        keys.deallocate()
        strings.deinitialize(count: Self.slotCount)
        strings.deallocate()
    }

    @inlinable package func string(for bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let slot = NameBytes.bucket(of: bytes) else { return "" }
        let key = keys[slot]
        if key.count == bytes.count, NameBytes.equal(key.baseAddress!, bytes.baseAddress!, count: bytes.count) {
            return strings[slot]
        }
        let string = String(decoding: bytes, as: UTF8.self)
        key.deallocate()
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = copy.initialize(from: bytes)
        keys[slot] = copy
        strings[slot] = string
        return string
    }
}
