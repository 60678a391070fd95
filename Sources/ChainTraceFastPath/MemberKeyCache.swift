/// The keys of the last line a decoder read, by position, with what each means.
///
/// The lines of one stream nearly always have the same keys in the same order. So the key at a position is first
/// compared with the key the line before had there — quotes and colon included, as one or two 8-byte loads.
/// When they match, the key is known without scanning it for its end or looking it up. A key that does not
/// match is read in full and replaces the one remembered. Keys longer than ``longestKey`` bytes and positions
/// past ``positions`` are always read in full.
///
/// What it buys, measured (best of 7 interleaved runs of `chaintrace replay`, with and without it): a flat
/// million-command stream, every line's keys in one order, 28% faster; a stream whose lines have 5–30 keys in
/// varying order, 1% (within the noise: its keys rarely repeat at a position, and a miss costs one comparison).
///
/// `Member` is what the reader makes of a key (the command decoder's `CommandMember`); the cache only keeps it.
/// `public` and `@inlinable` for the reason ``JSONByteCursor`` gives: it is consulted for every key of every line.
public final class MemberKeyCache<Member> {
    /// How many positions are remembered.
    public static var positions: Int { 16 }
    /// The longest key remembered, in bytes: with its quotes and colon it fits in two words.
    public static var longestKey: Int { 13 }

    /// A remembered key: its text as it appeared, quoted and followed by its colon, as little-endian words.
    @usableFromInline struct Entry {
        /// The first eight bytes; when the text is shorter, its bytes and zeros, compared under `firstMask`.
        @usableFromInline var first: UInt64 = 0
        @usableFromInline var firstMask: UInt64 = 0
        /// When the text is longer than eight bytes, its last eight (overlapping `first`): a line's last key
        /// can then be compared without loading past the line's end.
        @usableFromInline var last: UInt64 = 0
        /// How many bytes the text has; 0 when nothing is remembered.
        @usableFromInline var length = 0
        @usableFromInline var member: Member

        @inlinable init(member: Member) {
            self.member = member
        }
    }

    @usableFromInline let entries: UnsafeMutablePointer<Entry>

    /// For the duplicate-key check: where each key of the line being decoded lies in it (inside its quotes), at
    /// most ``checkedKeys``. Raw memory rather than an array held by this class: an array append checks
    /// uniqueness and exclusivity, and replaying flat 1 M-line streams went from 0.39 s to 0.65 s with it.
    public let lineKeys: UnsafeMutablePointer<Range<Int>>
    /// The most keys a line may have on the fast path; a longer line is read by the general parser.
    public static var checkedKeys: Int { 64 }
    /// How many of the remembered positions, from the first, were last seen together on one line and checked to
    /// be distinct. A line whose every key matches the remembered one needs no check when it has at most this
    /// many keys: a prefix of distinct keys is distinct. Any key not matching changes what is remembered, so it
    /// resets this to 0. In an ``UncheckedCell``: only the decoder that owns this cache touches it, on one thread,
    /// and it is read on every line.
    public let distinctCount = UncheckedCell(0)

    /// An empty cache; `placeholder` is what unremembered positions hold (never returned).
    public init(placeholder: Member) {
        entries = .allocate(capacity: Self.positions)
        entries.initialize(repeating: Entry(member: placeholder), count: Self.positions)
        lineKeys = .allocate(capacity: Self.checkedKeys)
        lineKeys.initialize(repeating: 0..<0, count: Self.checkedKeys)
    }

    deinit {
        entries.deinitialize(count: Self.positions)
        entries.deallocate()
        lineKeys.deallocate()
    }

    /// The member remembered at `position` when the bytes at `index` (the opening quote of a key) are the key
    /// remembered there and its colon; `end` is then just past the colon.
    @inline(__always)
    @inlinable public func member(at position: Int, in bytes: UnsafeBufferPointer<UInt8>, from index: Int, end: inout Int) -> Member? {
        guard position < Self.positions, let base = bytes.baseAddress else { return nil }
        let entry = entries[position]
        let length = entry.length
        guard length > 0, index &+ length <= bytes.count else { return nil }
        let start = UnsafeRawPointer(base + index)
        if length >= 8 {
            guard UInt64(littleEndian: start.loadUnaligned(as: UInt64.self)) == entry.first,
                length == 8
                    || UInt64(littleEndian: start.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)) == entry.last
            else { return nil }
        } else if index &+ 8 <= bytes.count {
            guard UInt64(littleEndian: start.loadUnaligned(as: UInt64.self)) & entry.firstMask == entry.first else { return nil }
        } else {
            // A short key within eight bytes of the line's end: loading a word would read past it.
            var word: UInt64 = 0
            withUnsafeMutableBytes(of: &word) { $0.baseAddress!.copyMemory(from: start, byteCount: length) }
            guard UInt64(littleEndian: word) == entry.first else { return nil }
        }
        end = index &+ length
        return entry.member
    }

    /// Remembers `key`, a key with no escapes that its colon follows directly, as the one at `position`. Other
    /// keys are not remembered.
    @inlinable public func remember(_ key: RawKey, as member: Member, at position: Int, colonFollows: Bool) {
        guard position < Self.positions else { return }
        guard colonFollows, key.bytes.count <= Self.longestKey else {
            entries[position].length = 0
            return
        }
        var text: (UInt64, UInt64) = (0, 0)
        let length = key.bytes.count + 3
        withUnsafeMutableBytes(of: &text) { words in
            words[0] = UInt8(ascii: "\"")
            if let source = key.bytes.baseAddress {
                words.baseAddress!.advanced(by: 1).copyMemory(from: source, byteCount: key.bytes.count)
            }
            words[key.bytes.count + 1] = UInt8(ascii: "\"")
            words[key.bytes.count + 2] = UInt8(ascii: ":")
        }
        var entry = Entry(member: member)
        entry.firstMask = length >= 8 ? ~0 : (1 << (8 * length)) - 1
        entry.first = UInt64(littleEndian: text.0) & entry.firstMask
        if length > 8 {
            withUnsafeBytes(of: &text) { entry.last = UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)) }
        }
        entry.length = length
        entries[position] = entry
    }
}
