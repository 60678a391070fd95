
/// The two steps the fast decoders' name lookups share: a cheap hash that picks a name's bucket, and a byte
/// comparison that makes no `String` and calls nothing.
public enum NameBytes {
    /// A name's bucket of 256: from its length and first and last bytes, which tell most names in a chain or a
    /// stream apart.
    @inline(__always)
    @inlinable public static func bucket(count: Int, first: UInt8, last: UInt8) -> Int {
        (count &* 31 &+ Int(first) &* 7 &+ Int(last)) & 255
    }

    /// The bucket of the name `bytes` holds; `nil` for the empty name.
    @inline(__always)
    @inlinable public static func bucket(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = bytes.first, let last = bytes.last else { return nil }
        return bucket(count: bytes.count, first: first, last: last)
    }

    /// Whether `count` bytes at `left` and `right` are the same, compared eight at a time: names are short, so
    /// this is a load or two, where `memcmp` would be a call.
    @inline(__always)
    @inlinable public static func equal(_ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>, count: Int) -> Bool {
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
}
