/// Numbers kept by the identity of the strings they were found for (``StringIdentity``): looking up a string met
/// before — the very same string value, as a recorder's handler names are from one trace to the next — compares two
/// words instead of hashing its characters. Direct-mapped: an identity has one slot, and a string whose slot another
/// took is a miss, looked up again the caller's way. Each slot keeps its string, so that an identity stays that
/// string's: a freed string's storage could be reused by another with other characters. Not generic: a generic
/// cache, which other modules cannot specialise, made the runtime build its slots' tuple type at every lookup.
///
/// What it buys: the compact trace log encoder numbers the hop names of every trace whose name list differs from
/// the last one's — a NIO channel's events alternate between lists — and each was a dictionary lookup that hashed
/// the name, about 490 instructions. A request of the NIO sample with every connection traced, a new connection a
/// request, went from 398 600 to 392 100 instructions (callgrind, every thread: `KEEPALIVE=0 CONNECTIONS=50
/// Scripts/count-sample-instructions.sh nio 1`). Differential test: FastPathTests, against a
/// dictionary keyed by the strings.
package struct StringIndexCache: Sendable {
    private var strings: [String]
    private var identities: [StringIdentity]
    private var indices: [Int64]
    private let shift: UInt64

    /// An empty cache of `2^slotBits` slots (1 to 16 bits).
    package init(slotBits: Int = 6) {
        precondition((1...16).contains(slotBits), "StringIndexCache holds 2 to 65 536 slots")
        strings = Array(repeating: "", count: 1 << slotBits)
        identities = Array(repeating: .none, count: 1 << slotBits)
        indices = Array(repeating: 0, count: 1 << slotBits)
        shift = UInt64(64 - slotBits)
    }

    /// The number kept for `string`, if this very string value (or a copy of it) was the last to take its slot.
    package func index(of string: String) -> Int64? {
        let identity = StringIdentity(of: string)
        let slot = slot(of: identity)
        return identities[slot].isIdentical(to: identity) ? indices[slot] : nil
    }

    /// Keeps `index` for `string`, in place of what its slot held.
    package mutating func remember(_ string: String, as index: Int64) {
        let identity = StringIdentity(of: string)
        guard identity != .none else { return }
        let slot = slot(of: identity)
        strings[slot] = string
        identities[slot] = identity
        indices[slot] = index
    }

    private func slot(of identity: StringIdentity) -> Int {
        // Multiplied by odd constants and the top bits taken: a small string's characters and a heap string's
        // address both spread over the slots.
        let mixed = (identity.first &* 0x9E37_79B9_7F4A_7C15) ^ (identity.second &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: mixed >> shift)
    }
}
