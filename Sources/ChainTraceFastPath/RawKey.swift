#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A key's bytes, compared with literals without making a `String`.
///
/// What it buys: a decoder matches a key against the names it knows with one length check and one `memcmp` of a
/// constant length, without making a `String` of the key (`chaintrace-cli-benchmarks`, "replay" column).
@usableFromInline package struct RawKey {
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>

    /// A key of these bytes.
    @inlinable package init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    @inline(__always)
    @inlinable package static func ~= (pattern: StaticString, key: RawKey) -> Bool {
        pattern.utf8CodeUnitCount == key.bytes.count
            // The pattern's length, a constant once inlined, lets the compiler compare in a load or two.
            && memcmp(pattern.utf8Start, key.bytes.baseAddress!, pattern.utf8CodeUnitCount) == 0
    }
}
