/// The keys of the last line a decoder read, by position, with what each means; and every short key it has read,
/// each with a number of its own.
///
/// The lines of one stream nearly always have the same keys in the same order. So the key at a position is first
/// compared with the key the line before had there — quotes and colon included, as one or two 8-byte loads.
/// When they match, the key is known without scanning it for its end or looking it up. A key that does not
/// match is read in full, found in the table of keys read before (or made and added to it), and replaces the one
/// remembered at its position. Keys longer than ``longestKey`` bytes and positions past ``positions`` are never
/// remembered by position.
///
/// Each of the first ``identifiedKeys`` distinct keys gets a number, its *id*, so that a reader checks a line's
/// keys for repeats with one bit each instead of comparing them (``NameBytes/areDistinct(_:count:in:)``, which
/// stays the check for a line with a key that has no id).
///
/// What it buys, measured (`chaintrace replay`, interleaved runs with and without it): by position, a flat
/// million-command stream, every line's keys in one order, 28% faster; the table and the ids, a stream whose
/// lines have 5–30 keys in varying order (the benchmark's *varied* shape) about 10% faster (0.34 s to 0.30 s for
/// 200 000 lines) — its keys rarely repeat at a position, so before them every key was looked up by name and
/// every line checked for repeats by comparing.
///
/// `Member` is what the reader makes of a key (the command decoder's `CommandMember`); the cache only keeps it.
/// `public` and `@inlinable` for the reason ``JSONByteCursor`` gives: it is consulted for every key of every line.
@usableFromInline package final class MemberKeyCache<Member> {
    /// How many positions are remembered.
    @usableFromInline package static var positions: Int { 16 }
    /// The longest key remembered, in bytes: with its quotes and colon it fits in two words.
    @usableFromInline package static var longestKey: Int { 13 }
    /// How many distinct keys get an id: one bit each of a word.
    @usableFromInline package static var identifiedKeys: Int { 64 }
    /// Slots in the table of keys read: twice ``identifiedKeys``, so that it is at most half full.
    @usableFromInline static var tableSlots: Int { 128 }

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
        /// The key's id, or -1 when it has none.
        @usableFromInline var id = -1
        @usableFromInline var member: Member

        @inlinable init(member: Member) {
            self.member = member
        }
    }

    /// What is remembered at each position.
    @usableFromInline let entries: UnsafeMutablePointer<Entry>
    /// Every short key read, by a hash of its text (open addressing, probed linearly).
    @usableFromInline let table: UnsafeMutablePointer<Entry>
    /// How many keys have an id. In an ``UncheckedCell``: only the decoder that owns this cache touches it.
    @usableFromInline let identified = UncheckedCell.make(0)

    /// For the duplicate-key check of a line with a key that has no id: where each key of the line being decoded
    /// lies in it (inside its quotes), at most ``checkedKeys``. Raw memory rather than an array held by this
    /// class: an array append checks uniqueness and exclusivity, and replaying flat 1 M-line streams went from
    /// 0.39 s to 0.65 s with it.
    @usableFromInline package let lineKeys: UnsafeMutablePointer<Range<Int>>
    /// The most keys a line may have on the fast path; a longer line is read by the general parser.
    @usableFromInline package static var checkedKeys: Int { 64 }

    /// An empty cache; `placeholder` is what unremembered positions hold (never returned).
    @usableFromInline package init(placeholder: Member) {
        entries = .allocate(capacity: Self.positions)
        entries.initialize(repeating: Entry(member: placeholder), count: Self.positions)
        table = .allocate(capacity: Self.tableSlots)
        table.initialize(repeating: Entry(member: placeholder), count: Self.tableSlots)
        lineKeys = .allocate(capacity: Self.checkedKeys)
        lineKeys.initialize(repeating: 0..<0, count: Self.checkedKeys)
    }

    deinit {
        entries.deinitialize(count: Self.positions)
        entries.deallocate()
        table.deinitialize(count: Self.tableSlots)
        table.deallocate()
        lineKeys.deallocate()
    }

    /// The member remembered at `position` when the bytes at `index` (the opening quote of a key) are the key
    /// remembered there and its colon; `end` is then just past the colon and `id` the key's id (-1 for none).
    @inline(__always)
    @inlinable package func member(
        at position: Int,
        in bytes: UnsafeBufferPointer<UInt8>,
        from index: Int,
        end: inout Int,
        id: inout Int
    ) -> Member? {
        guard position < Self.positions, let base = bytes.baseAddress else { return nil }
        let entry = entries[position]
        let length = entry.length
        guard length > 0, index &+ length <= bytes.count else { return nil }
        let start = UnsafeRawPointer(base + index)
        if length >= 8 {
            guard UInt64(littleEndian: start.loadUnaligned(as: UInt64.self)) == entry.first,
                length == 8
                    || UInt64(littleEndian: start.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self))
                        == entry.last
            else { return nil }
        } else if index &+ 8 <= bytes.count {
            guard UInt64(littleEndian: start.loadUnaligned(as: UInt64.self)) & entry.firstMask == entry.first else {
                return nil
            }
        } else {
            // A short key within eight bytes of the line's end: loading a word would read past it.
            var word: UInt64 = 0
            withUnsafeMutableBytes(of: &word) { $0.baseAddress!.copyMemory(from: start, byteCount: length) }
            guard UInt64(littleEndian: word) == entry.first else { return nil }
        }
        end = index &+ length
        id = entry.id
        return entry.member
    }

    /// The member of the key at `index` (its opening quote) when it is in the table of keys read: a key of plain
    /// ASCII (no escape, quote or control byte), at most ``longestKey`` bytes, its colon right after its closing
    /// quote, at least 16 bytes before the line's end. `end` is then just past the colon, `id` the key's id (-1 for
    /// none), and the key is remembered at `position` (by ``recall(_:in:from:at:colonFollows:)``). `nil` for any
    /// other key, which the reader then reads in full.
    ///
    /// What it buys: for a key not at its remembered position (lines whose keys come in varying order), the key's
    /// end is found in the 16 bytes from its quote, loaded as two words and looked at once, instead of reading it
    /// as a string eight bytes at a time (`chaintrace-cli-benchmarks`, "replay" column, *varied* shape: about 10%
    /// of line decoding). Tested against reading the key and recalling it (`FastPathAlgorithmTests`).
    @inline(__always)
    @inlinable package func lookUp(
        at position: Int,
        in bytes: UnsafeBufferPointer<UInt8>,
        from index: Int,
        end: inout Int,
        id: inout Int
    ) -> Member? {
        guard index >= 0, index &+ 16 <= bytes.count, let base = bytes.baseAddress else { return nil }
        let start = UnsafeRawPointer(base + index)
        let low = UInt64(littleEndian: start.loadUnaligned(as: UInt64.self))
        // The first byte is the opening quote: looked at as a letter, so that only the key's own bytes are flagged
        // (a flag is exact only up to the first one).
        let lowFlags = JSONByteCursor.bytesNeedingALook((low & ~0xFF) | UInt64(UInt8(ascii: "a")))
        let quote: Int
        if lowFlags != 0 {
            quote = lowFlags.trailingZeroBitCount &>> 3
        } else {
            let highFlags = JSONByteCursor.bytesNeedingALook(
                UInt64(littleEndian: start.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
            guard highFlags != 0 else { return nil }
            quote = 8 &+ highFlags.trailingZeroBitCount &>> 3
        }
        // The closing quote, then the colon (within the 16 bytes: `quote` is at most 15).
        guard quote &+ 1 < 16, base[index &+ quote] == UInt8(ascii: "\""),
            base[index &+ quote &+ 1] == UInt8(ascii: ":"),
            let (member, keyID) = recall(
                RawKey(bytes: UnsafeBufferPointer(start: base + (index &+ 1), count: quote &- 1)),
                in: bytes,
                from: index,
                at: position,
                colonFollows: true
            )
        else { return nil }
        end = index &+ quote &+ 2
        id = keyID
        return member
    }

    /// The text of a key as it appears in `bytes` from `start` (its opening quote) through its colon, `length`
    /// bytes, as an entry's words, read from the line itself.
    @inline(__always)
    @inlinable func words(
        in bytes: UnsafeBufferPointer<UInt8>,
        from start: Int,
        length: Int
    ) -> (first: UInt64, firstMask: UInt64, last: UInt64) {
        let base = UnsafeRawPointer(bytes.baseAddress! + start)
        let firstMask: UInt64 = length >= 8 ? ~0 : (1 &<< (8 &* UInt64(length))) &- 1
        var first: UInt64
        if start &+ 8 <= bytes.count {
            first = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)) & firstMask
        } else {
            // Within eight bytes of the line's end (so `length` < 8): loading a word would read past it.
            var word: UInt64 = 0
            withUnsafeMutableBytes(of: &word) { $0.baseAddress!.copyMemory(from: base, byteCount: length) }
            first = UInt64(littleEndian: word)
        }
        let last =
            length > 8 ? UInt64(littleEndian: base.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)) : 0
        return (first, firstMask, last)
    }

    /// What the key read in full at `position` means, and its id, when it has been read before: `keyStart` is its
    /// opening quote in `bytes`, `key` its text, and `colonFollows` whether its colon follows the closing quote
    /// directly. The key is then also remembered at `position`. `nil` for a key not in the table, which the
    /// reader then gives a meaning and passes to ``remember(_:in:from:as:at:colonFollows:)``.
    @inlinable package func recall(
        _ key: RawKey,
        in bytes: UnsafeBufferPointer<UInt8>,
        from keyStart: Int,
        at position: Int,
        colonFollows: Bool
    ) -> (member: Member, id: Int)? {
        guard colonFollows, key.bytes.count <= Self.longestKey else { return nil }
        let length = key.bytes.count &+ 3
        let (first, _, last) = words(in: bytes, from: keyStart, length: length)
        let (slot, found) = probe(first: first, last: last, length: length)
        guard found else { return nil }
        if position < Self.positions { entries[position] = table[slot] }
        return (table[slot].member, table[slot].id)
    }

    /// Remembers what `key` means at `position` and adds it to the table of keys read (giving it an id while
    /// there are ids left); its id, or -1 for none. Only a key with no escapes, at most ``longestKey`` bytes long
    /// and directly followed by its colon (`colonFollows`) is kept; any other clears `position`.
    @inlinable package func remember(
        _ key: RawKey,
        in bytes: UnsafeBufferPointer<UInt8>,
        from keyStart: Int,
        as member: Member,
        at position: Int,
        colonFollows: Bool
    ) -> Int {
        guard colonFollows, key.bytes.count <= Self.longestKey else {
            if position < Self.positions { entries[position].length = 0 }
            return -1
        }
        let length = key.bytes.count &+ 3
        let (first, firstMask, last) = words(in: bytes, from: keyStart, length: length)
        var entry = Entry(member: member)
        entry.first = first
        entry.firstMask = firstMask
        entry.last = last
        entry.length = length
        let (slot, found) = probe(first: first, last: last, length: length)
        if found {
            // Already in the table (remembered twice): it keeps its id.
            entry.id = table[slot].id
        } else if identified.value < Self.identifiedKeys {
            entry.id = identified.value
            identified.value &+= 1
            table[slot] = entry
        }
        if position < Self.positions { entries[position] = entry }
        return entry.id
    }

    /// The table slot of the key whose text has these words and length, and whether it is there; when it is not,
    /// the empty slot it would take. The table is never more than half full, so there always is one.
    @inline(__always)
    @inlinable func probe(first: UInt64, last: UInt64, length: Int) -> (slot: Int, found: Bool) {
        let mask = Self.tableSlots &- 1
        var slot =
            Int(truncatingIfNeeded: ((first ^ (last &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9) >> 57) & mask
        while table[slot].length != 0 {
            if table[slot].length == length, table[slot].first == first, table[slot].last == last {
                return (slot, true)
            }
            slot = (slot &+ 1) & mask
        }
        return (slot, false)
    }
}
