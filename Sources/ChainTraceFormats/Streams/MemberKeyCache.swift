/// What the command line decoder does with a member of a command line, decided from its key.
enum CommandMember: Equatable {
    /// `"kind"`.
    case kind
    /// `"id"`.
    case id
    /// `"entry"`.
    case entry
    /// `"fields"`: the command's fields as one object.
    case fields
    /// `"change"`: the line is a chain change, for the general path.
    case change
    /// A field of the command that the schema gives this slot.
    case slot(Int)
    /// A field of the command that no rule reads.
    case unread

    /// The member a key names, for a decoder filling `schema`'s slots.
    init(_ key: RawKey, schema: FieldSchema?) {
        switch key {
        case "kind": self = .kind
        case "id": self = .id
        case "entry": self = .entry
        case "fields": self = .fields
        case "change": self = .change
        default: self = schema?.slot(for: key.bytes).map(CommandMember.slot) ?? .unread
        }
    }
}

/// The keys of the last line a decoder read, by position, with what each means.
///
/// The lines of one stream nearly always have the same keys in the same order. So the key at a position is first
/// compared with the key the line before had there — quotes and colon included, as two 8-byte loads, masked.
/// When they match, the key is known without scanning it for its end or looking it up. A key that does not
/// match is read in full and replaces the one remembered. Keys longer than ``longestKey`` bytes and positions
/// past ``positions`` are always read in full.
final class MemberKeyCache {
    /// How many positions are remembered.
    static let positions = 16
    /// The longest key remembered, in bytes: with its quotes and colon it fits in two words.
    static let longestKey = 13

    /// A remembered key: its text as it appeared, quoted and followed by its colon, as two little-endian words
    /// and the masks that keep its bytes.
    private struct Entry {
        var first: UInt64 = 0
        var second: UInt64 = 0
        var firstMask: UInt64 = 0
        var secondMask: UInt64 = 0
        /// How many bytes the words hold; 0 when nothing is remembered.
        var length = 0
        var member = CommandMember.unread
    }

    private let entries: UnsafeMutablePointer<Entry>

    init() {
        entries = .allocate(capacity: Self.positions)
        entries.initialize(repeating: Entry(), count: Self.positions)
    }

    deinit {
        entries.deallocate()
    }

    /// The member remembered at `position` when the bytes at `index` (the opening quote of a key) are the key
    /// remembered there and its colon; `end` is then just past the colon.
    @inline(__always)
    func member(at position: Int, in bytes: UnsafeBufferPointer<UInt8>, from index: Int, end: inout Int) -> CommandMember? {
        guard position < Self.positions, let base = bytes.baseAddress else { return nil }
        let entry = entries[position]
        guard entry.length > 0 else { return nil }
        let loaded: (UInt64, UInt64)
        if index &+ 16 <= bytes.count {
            let start = UnsafeRawPointer(base + index)
            loaded = (start.loadUnaligned(as: UInt64.self), start.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        } else {
            loaded = Self.shortLoad(base + index, count: bytes.count &- index)
        }
        guard UInt64(littleEndian: loaded.0) & entry.firstMask == entry.first,
            UInt64(littleEndian: loaded.1) & entry.secondMask == entry.second
        else { return nil }
        end = index &+ entry.length
        return entry.member
    }

    /// The `count` (< 16) bytes at `start` as two words, the rest zero: near the end of a line, where loading 16
    /// bytes would read past it.
    private static func shortLoad(_ start: UnsafePointer<UInt8>, count: Int) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: start, byteCount: max(0, count)) }
        return words
    }

    /// Remembers `key`, a key with no escapes that its colon follows directly, as the one at `position`. Other
    /// keys are not remembered.
    func remember(_ key: RawKey, as member: CommandMember, at position: Int, colonFollows: Bool) {
        guard position < Self.positions else { return }
        guard colonFollows, key.bytes.count <= Self.longestKey else {
            entries[position].length = 0
            return
        }
        var quoted: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &quoted) { words in
            words[0] = UInt8(ascii: "\"")
            if let source = key.bytes.baseAddress {
                words.baseAddress!.advanced(by: 1).copyMemory(from: source, byteCount: key.bytes.count)
            }
            words[key.bytes.count + 1] = UInt8(ascii: "\"")
            words[key.bytes.count + 2] = UInt8(ascii: ":")
        }
        let length = key.bytes.count + 3
        var entry = Entry()
        entry.firstMask = length >= 8 ? ~0 : (1 << (8 * length)) - 1
        entry.secondMask = length <= 8 ? 0 : length == 16 ? ~0 : (1 << (8 * (length - 8))) - 1
        entry.first = UInt64(littleEndian: quoted.0) & entry.firstMask
        entry.second = UInt64(littleEndian: quoted.1) & entry.secondMask
        entry.length = length
        entry.member = member
        entries[position] = entry
    }
}
