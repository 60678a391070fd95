/// A 64-bit mix that is the same in every process and on every machine, unlike `Hasher`: for values derived from
/// data that must come out the same every time — a report's uniform sample, an export's span ids.
package enum StableHash {
    /// SplitMix64's finaliser of `value`: every input bit affects every output bit.
    @inlinable
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
