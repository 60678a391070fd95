/// A string's two words, compared without reading its characters or touching its reference count: equal
/// identities are the same string value, so their characters are equal, as long as something keeps the string
/// they were taken from alive (a string's storage is never changed while two values share it). Different
/// identities say nothing: equal strings may be stored apart.
///
/// What it buys: an instrumented hop with the same handler name as the last trace's at the same place (nearly
/// every hop) is opened without passing the name on. Passed to a call, the name the caller's autoclosure made was
/// retained and released around it, an atomic increment and decrement on a heap string; compared here, in line,
/// the optimiser drops the pair: about 30 instructions a hop fewer (callgrind, the traced `traceHop` row's chain),
/// and that row 44.7–49.2 → 42.0–45.1 ns a hop (`chaintrace-benchmarks`, four interleaved runs of builds with and
/// without it; one outlier of 64.8 left out). Tested against `==` in FastPathTests.
@frozen
@usableFromInline package struct StringIdentity: Equatable, BitwiseCopyable, Sendable {
    @usableFromInline let first: UInt64
    @usableFromInline let second: UInt64

    @inlinable
    init(first: UInt64, second: UInt64) {
        self.first = first
        self.second = second
    }

    /// The identity no string has: a string's second word, which holds its storage or its small-string
    /// discriminator, is never zero.
    @usableFromInline package static var none: StringIdentity { StringIdentity(first: 0, second: 0) }

    /// `string`'s identity; ``none`` where a string is not two words (32-bit platforms), so that nothing matches
    /// and callers take their plain path.
    @inlinable
    package init(of string: String) {
        guard MemoryLayout<String>.size == MemoryLayout<(UInt64, UInt64)>.size else {
            self = .none
            return
        }
        let words = unsafeBitCast(string, to: (UInt64, UInt64).self)
        self.init(first: words.0, second: words.1)
    }

    /// Whether `other` was taken from the very string this identity was (or a copy of it); never for ``none``.
    @inlinable
    package func isIdentical(to other: StringIdentity) -> Bool {
        second != 0 && self == other
    }

    /// Whether `string` is the very string this identity was taken from (or a copy of it); never for ``none``.
    @inlinable
    package func matches(_ string: String) -> Bool {
        isIdentical(to: StringIdentity(of: string))
    }
}
