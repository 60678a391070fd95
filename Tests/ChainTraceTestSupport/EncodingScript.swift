/// Shared by the JSON text encoder's tests and the trace log's payload tests.
/// A value that encodes itself by a script of container operations.
public indirect enum EncodingScript: Encodable, Sendable, CustomStringConvertible {
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case float(Float)
    case string(String)
    case bool(Bool)
    case null
    /// A keyed container with these members.
    case object([(String, EncodingScript)])
    /// An unkeyed container with these elements.
    case array([EncodingScript])
    /// Members written through `nestedContainer(keyedBy:forKey:)` and `nestedUnkeyedContainer(forKey:)`.
    case nested(key: String, inner: [(String, EncodingScript)], listKey: String, list: [EncodingScript])
    /// The same keyed container asked for twice, as a subclass and its superclass do.
    case twice([(String, EncodingScript)], [(String, EncodingScript)])
    /// A value through `encode(_:)` of a single value container that encodes a nested `EncodingScript`.
    case wrapped(EncodingScript)
    /// A nested container written to after its parent wrote a later member: one pass cannot.
    case interleaved
    /// A member through `superEncoder()`.
    case superEncoded(EncodingScript)
    /// Encodes nothing at all.
    case nothing
    /// A number JSON cannot hold.
    case nonFinite

    public struct Key: CodingKey {
        public var stringValue: String
        public var intValue: Int? { nil }
        public init(_ string: String) { stringValue = string }
        public init?(stringValue: String) { self.stringValue = stringValue }
        public init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .unsigned(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .float(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .object(let members):
            var container = encoder.container(keyedBy: Key.self)
            try Self.write(members, into: &container)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements {
                switch element {
                case .string(let text): try container.encode(text)
                case .integer(let number): try container.encode(number)
                case .null: try container.encodeNil()
                default: try container.encode(element)
                }
            }
        case .nested(let key, let inner, let listKey, let list):
            var container = encoder.container(keyedBy: Key.self)
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key(key))
            try Self.write(inner, into: &nested)
            var nestedList = container.nestedUnkeyedContainer(forKey: Key(listKey))
            for element in list { try nestedList.encode(element) }
        case .twice(let first, let second):
            var container = encoder.container(keyedBy: Key.self)
            try Self.write(first, into: &container)
            var again = encoder.container(keyedBy: Key.self)
            try Self.write(second, into: &again)
        case .wrapped(let inner):
            var container = encoder.singleValueContainer()
            try container.encode(inner)
        case .interleaved:
            var container = encoder.container(keyedBy: Key.self)
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key("inner"))
            try container.encode(1, forKey: Key("after"))
            try nested.encode(2, forKey: Key("late"))
        case .superEncoded(let inner):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(0, forKey: Key("own"))
            try inner.encode(to: container.superEncoder())
        case .nothing:
            break
        case .nonFinite:
            var container = encoder.singleValueContainer()
            try container.encode(Double.nan)
        }
    }

    public static func write(_ members: [(String, EncodingScript)], into container: inout KeyedEncodingContainer<Key>)
        throws
    {
        for (key, value) in members {
            switch value {
            case .string(let text): try container.encode(text, forKey: Key(key))
            case .integer(let number): try container.encode(number, forKey: Key(key))
            case .double(let number): try container.encode(number, forKey: Key(key))
            case .bool(let flag): try container.encode(flag, forKey: Key(key))
            case .null: try container.encodeNil(forKey: Key(key))
            default: try container.encode(value, forKey: Key(key))
            }
        }
    }

    /// Whether one pass can write it: what the generator knows, independent of the encoder.
    public var onePass: Bool {
        switch self {
        case .integer, .unsigned, .string, .bool, .null: true
        case .double(let value): value.isFinite
        case .float(let value): value.isFinite
        case .object(let members): Self.distinct(members.map(\.0)) && members.allSatisfy(\.1.onePassAsMember)
        case .array(let elements): elements.allSatisfy(\.onePassAsMember)
        case .nested(let key, let inner, let listKey, let list):
            key != listKey && Self.distinct(inner.map(\.0)) && inner.allSatisfy(\.1.onePassAsMember)
                && list.allSatisfy(\.onePassAsMember)
        case .twice(let first, let second):
            Self.distinct((first + second).map(\.0)) && (first + second).allSatisfy(\.1.onePassAsMember)
        case .wrapped(let inner): inner.onePass
        case .interleaved, .superEncoded, .nothing, .nonFinite: false
        }
    }

    /// Whether it can be written where a value is due: it must write one.
    private var onePassAsMember: Bool { onePass }

    private static func distinct(_ keys: [String]) -> Bool { Set(keys).count == keys.count }

    public static func make(_ random: inout SeededGenerator, depth: Int) -> EncodingScript {
        let leafOnly = depth >= 3
        switch random.next() % (leafOnly ? 8 : 16) {
        case 0: return .integer(random.pick([0, -1, 42, Int64.max, Int64.min, Int64(bitPattern: random.next())]))
        case 1: return .unsigned(random.pick([0, UInt64.max, UInt64(Int64.max) + 1, random.next() >> 3]))
        case 2:
            return .double(
                random.pick([
                    0.5, -0.0, 1e300, 2.5e-308, 6.02214076e23, Double(Int64(bitPattern: random.next())) / 1e6, 3.0,
                ])
            )
        case 3: return .float(random.pick([0.1, 1e-30, 3.4e38, -7]))
        case 4: return .string(text(&random))
        case 5: return .bool(random.next() % 2 == 0)
        case 6: return .null
        case 7: return random.next() % 8 == 0 ? .nonFinite : .string(text(&random))
        case 8, 9: return .object(members(&random, depth: depth))
        case 10: return .array((0..<Int(random.next() % 5)).map { _ in make(&random, depth: depth + 1) })
        case 11:
            return .nested(
                key: key(&random),
                inner: members(&random, depth: depth),
                listKey: key(&random),
                list: (0..<Int(random.next() % 4)).map { _ in make(&random, depth: depth + 1) }
            )
        case 12: return .twice(members(&random, depth: depth), members(&random, depth: depth))
        case 13: return .wrapped(make(&random, depth: depth + 1))
        case 14: return random.next() % 2 == 0 ? .interleaved : .superEncoded(make(&random, depth: depth + 1))
        default: return random.next() % 4 == 0 ? .nothing : .object(members(&random, depth: depth))
        }
    }

    public static func members(_ random: inout SeededGenerator, depth: Int) -> [(String, EncodingScript)] {
        (0..<Int(random.next() % 12)).map { _ in (key(&random), make(&random, depth: depth + 1)) }
    }

    /// Keys from a small set (so some repeat), some needing escapes.
    public static func key(_ random: inout SeededGenerator) -> String {
        random.pick([
            "id", "amount", "kind", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o",
            "p", "q", "r", "s", "t", "u", "w", "x", "y", "z", "quo\"te", "back\\slash", "nl\n", "ü", "\u{FEFF}bom",
            "\u{202E}rtl", "",
        ])
    }

    public static func text(_ random: inout SeededGenerator) -> String {
        let pieces = [
            "plain", "ünï", "\"", "\\", "\n", "\t", "\u{0}", "\u{1F}", "\u{FEFF}", "日本", "😀", " ", "/", "</script>",
        ]
        return (0..<Int(random.next() % 6)).map { _ in random.pick(pieces) }.joined()
    }

    public var description: String {
        switch self {
        case .integer(let value): "\(value)"
        case .unsigned(let value): "\(value)u"
        case .double(let value): "\(value)"
        case .float(let value): "\(value)f"
        case .string(let value): value.debugDescription
        case .bool(let value): "\(value)"
        case .null: "null"
        case .object(let members):
            "{" + members.map { "\($0.0.debugDescription): \($0.1)" }.joined(separator: ", ") + "}"
        case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .nested(let key, let inner, let listKey, let list):
            "nested(\(key): \(EncodingScript.object(inner)), \(listKey): \(EncodingScript.array(list)))"
        case .twice(let first, let second): "twice(\(EncodingScript.object(first)), \(EncodingScript.object(second)))"
        case .wrapped(let inner): "wrapped(\(inner))"
        case .interleaved: "interleaved"
        case .superEncoded(let inner): "super(\(inner))"
        case .nothing: "nothing"
        case .nonFinite: "nan"
        }
    }
}
