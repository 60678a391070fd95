/// A fixed list of names, looked up by their UTF-8 bytes without making a `String`: the fields a chain's rules
/// read, found for every key of every command line a replay decodes.
///
/// What it buys: a key is found by one bucket load and one short byte comparison (``NameBytes``), where a
/// `[String: Int]` lookup first makes a `String` of the key and hashes it — the decoder would then allocate for
/// every key of every line (`chaintrace-cli-benchmarks`, "replay" column).
///
/// `@unchecked Sendable` because its tables are raw memory; it writes them only in `init` and frees them only in
/// `deinit`, so sharing it between threads is safe.
@usableFromInline package final class NameIndex: @unchecked Sendable {
    /// How many names there are.
    @usableFromInline package let count: Int
    /// Every name's UTF-8 bytes, one after another, and where each starts (with the end after the last): memory
    /// the index owns and never changes, so looking a key up retains nothing.
    @usableFromInline let nameBytes: UnsafeMutableBufferPointer<UInt8>
    @usableFromInline let nameStarts: UnsafeMutableBufferPointer<Int>
    /// Where a key's bytes point (see ``NameBytes/bucket(count:first:last:)``): the one name whose bytes land
    /// there, -1 for none, -2 for several (then every name is compared).
    @usableFromInline let indexByBucket: UnsafeMutableBufferPointer<Int>
    /// The place of the empty name, which has no bucket; `nil` when it is not one of the names.
    @usableFromInline let emptyNameIndex: Int?

    /// An index of `names`; a name given twice is found at its first place.
    @usableFromInline package init(_ names: [String]) {
        count = names.count
        emptyNameIndex = names.firstIndex(of: "")
        let utf8Names = names.map { Array($0.utf8) }
        nameBytes = .allocate(capacity: utf8Names.reduce(0) { $0 + $1.count })
        _ = nameBytes.initialize(from: utf8Names.joined())
        nameStarts = .allocate(capacity: names.count + 1)
        var start = 0
        for (index, name) in utf8Names.enumerated() {
            nameStarts[index] = start
            start += name.count
        }
        nameStarts[names.count] = start
        indexByBucket = .allocate(capacity: 256)
        indexByBucket.initialize(repeating: -1)
        for (index, name) in utf8Names.enumerated() {
            guard let bucket = name.withUnsafeBufferPointer(NameBytes.bucket(of:)) else { continue }
            let current = indexByBucket[bucket]
            if current == -1 {
                indexByBucket[bucket] = index
            } else if current >= 0, !utf8Names[current].elementsEqual(name) {
                indexByBucket[bucket] = -2
            }
        }
    }

    deinit {
        nameBytes.deallocate()
        nameStarts.deallocate()
        indexByBucket.deallocate()
    }

    /// The place of the name whose bytes are `bytes`; `nil` when it is none of them.
    @inlinable package func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let bucket = NameBytes.bucket(of: bytes) else { return emptyNameIndex }
        let candidate = indexByBucket[bucket]
        if candidate == -1 { return nil }
        if candidate >= 0 { return isName(candidate, bytes) ? candidate : nil }
        return (0..<count).first { isName($0, bytes) }
    }

    @inline(__always)
    @inlinable func isName(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = nameStarts[index]
        return nameStarts[index + 1] - start == bytes.count
            && NameBytes.equal(nameBytes.baseAddress! + start, bytes.baseAddress!, count: bytes.count)
    }
}
