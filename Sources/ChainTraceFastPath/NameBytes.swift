/// The two steps the fast decoders' name lookups share: a cheap hash that picks a name's bucket, and a byte
/// comparison that makes no `String` and calls nothing. What it buys: a name found with no allocation, for every key of
/// every line the fast decoders read (`chaintrace-cli-benchmarks`, "replay" column and the "stats" rows).
@usableFromInline package enum NameBytes {
    /// A name's bucket of 256: from its length and first and last bytes, which tell most names in a chain or a
    /// stream apart.
    @inline(__always)
    @inlinable package static func bucket(count: Int, first: UInt8, last: UInt8) -> Int {
        (count &* 31 &+ Int(first) &* 7 &+ Int(last)) & 255
    }

    /// The bucket of the name `bytes` holds; `nil` for the empty name.
    @inline(__always)
    @inlinable package static func bucket(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = bytes.first, let last = bytes.last else { return nil }
        return bucket(count: bytes.count, first: first, last: last)
    }

    /// Whether `count` bytes at `left` and `right` are the same, compared eight at a time: names are short, so
    /// this is a load or two, where `memcmp` would be a call.
    @inline(__always)
    @inlinable package static func equal(_ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>, count: Int)
        -> Bool
    {
        var offset = 0
        while offset &+ 8 <= count {
            let a = UnsafeRawPointer(left + offset).loadUnaligned(as: UInt64.self)
            let b = UnsafeRawPointer(right + offset).loadUnaligned(as: UInt64.self)
            if a != b { return false }
            offset &+= 8
        }
        while offset < count {
            if left[offset] != right[offset] { return false }
            offset &+= 1
        }
        return true
    }

    /// Whether the `count` names at `ranges` in `bytes` are all different — a line's keys, checked for one given
    /// twice. Each name marks its bucket in a 256-bit set, and only a name whose bucket is already marked is
    /// compared with the earlier names of that bucket; a line's keys nearly always land in different buckets, so
    /// the check is linear where comparing every pair is quadratic. What it buys, measured (best of 5 interleaved
    /// runs of `chaintrace replay`): a stream of lines with 5–30 keys in varying order 10% faster than the pairwise
    /// check. The line decoders now check most lines with `MemberKeyCache`'s key ids, a bit per key, and call
    /// this only for a line with a key that has no id (long, or one of more than 64 distinct keys).
    @inlinable package static func areDistinct(
        _ ranges: UnsafePointer<Range<Int>>,
        count: Int,
        in bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard count > 1, let base = bytes.baseAddress else { return true }
        var marked: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &marked) { raw in
            let words = raw.bindMemory(to: UInt64.self)
            func bucket(_ range: Range<Int>) -> Int {
                range.isEmpty
                    ? 0
                    : Self.bucket(count: range.count, first: base[range.lowerBound], last: base[range.upperBound &- 1])
            }
            for later in 0..<count {
                let range = ranges[later]
                let slot = bucket(range)
                let bit: UInt64 = 1 << UInt64(slot & 63)
                if words[slot >> 6] & bit != 0 {
                    for earlier in 0..<later
                    where ranges[earlier].count == range.count && bucket(ranges[earlier]) == slot {
                        if range.isEmpty
                            || equal(base + ranges[earlier].lowerBound, base + range.lowerBound, count: range.count)
                        {
                            return false
                        }
                    }
                }
                words[slot >> 6] |= bit
            }
            return true
        }
    }
}
