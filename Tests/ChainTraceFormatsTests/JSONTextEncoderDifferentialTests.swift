import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Payload text written in one pass (`JSONTextEncoder`) against the tree encoder (`JSONValue(encoding:)`): on
/// generated values that use every container operation `Encodable` offers — nested and re-requested containers,
/// escaped and non-ASCII keys, every kind of number — the text parses to exactly the tree; on values one pass cannot
/// write (a container written after it was left, a key given twice, a super encoder, a value that encodes nothing, a
/// non-finite number) it gives no text, so the recorder builds the tree. Never a different value.
@Suite("Payload text against the payload tree")
struct JSONTextEncoderDifferentialTests {
    @Test(arguments: SeededGenerator.seeds(200))
    func theTextIsTheTreeOrNothing(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var writtenAsText = 0
        for _ in 0..<20 {
            let script = Script.make(&random, depth: 0)
            let tree = try? JSONValue(encoding: script)
            let text = JSONTextEncoder.encode(script)
            if script.onePass {
                let bytes = try #require(text, "seed \(seed): \(script) gave no text")
                let parsed = try bytes.withUnsafeBufferPointer { try JSONParser.parse($0) }
                #expect(parsed == tree, "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
                writtenAsText += 1
            } else {
                #expect(text == nil, "seed \(seed): \(script) gave text \(String(decoding: text ?? [], as: UTF8.self))")
            }
        }
        #expect(writtenAsText > 0, "seed \(seed): nothing was written as text")
    }

    /// Types whose `Codable` the compiler writes — structs, optionals, arrays, dictionaries, enums with associated
    /// values, classes that encode their superclass into the same container — are what users' commands are.
    @Test(arguments: SeededGenerator.seeds(50))
    func synthesizedCodableIsWrittenAsText(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let order = Order.make(&random)
        let bytes = try #require(JSONTextEncoder.encode(order))
        let parsed = try bytes.withUnsafeBufferPointer { try JSONParser.parse($0) }
        #expect(parsed == (try JSONValue(encoding: order)), "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
        // Foundation reads it back as the same order.
        #expect(try JSONDecoder().decode(Order.self, from: Data(bytes)) == order)
        let express = ExpressOrder(order: order, courier: "c-\(random.next() % 100)")
        let expressBytes = try #require(JSONTextEncoder.encode(express))
        let expressParsed = try expressBytes.withUnsafeBufferPointer { try JSONParser.parse($0) }
        #expect(expressParsed == (try JSONValue(encoding: express)))
    }

    @Test func aPayloadTextIsTheEncodedPayloadOfARecordedCommand() throws {
        let order = Order(id: "o-1", lines: [.init(sku: "a\"b\u{1}", quantity: 2, price: 1.5e-7)], note: nil, tags: ["x": 1], state: .held(reason: "ß"))
        let payload = try #require(JSONTextPayloadEncoder().encode(order))
        #expect(payload.value == (try JSONValue(encoding: order)))
    }

    /// End to end: a chain recording into a compact log (and memory) captures each command as text, which both
    /// the in-memory trace and the log read back give as the tree's value; a version 1 log still gets values.
    @Test(arguments: SeededGenerator.seeds(10))
    func aRecordedCommandIsCapturedAsTextForACompactLog(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let orders = (0..<30).map { _ in Order.make(&random) }
        for format in [TraceLogSink.Format.compact, .jsonLines] {
            let path = TestFiles.directory.appendingPathComponent("payload-text-\(seed)-\(format).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            var options = TraceLogSink.Options()
            options.format = format
            let log = try TraceLogSink(path: path, options: options)
            let memory = InMemoryTraceSink()
            let chain = try Chain<Order, Int>(
                "orders", handlers: [Handler("Take") { _ in .accept(1) }], recorder: Recorder(sink: FanOutTraceSink([memory, log])))
            for order in orders { _ = try chain.send(order) }
            try log.close()
            let expected = try orders.map { try JSONValue(encoding: $0) }
            #expect(memory.traces.map(\.payload) == expected)
            #expect(memory.traces.allSatisfy { ($0.encodedPayload?.text != nil) == (format == .compact) }, "\(format)")
            #expect(try TraceLogReader.readAll(path: path).traces.map(\.payload) == expected, "\(format)")
        }
    }

    /// The writer is reused from one value to the next on a thread: an encoder kept from an earlier value writes
    /// nothing into a later one's text (the later value falls back to the tree), and a value whose encoding
    /// encodes another on the same thread gets the same text as the tree.
    @Test func aKeptEncoderNeverWritesIntoALaterValue() throws {
        _ = JSONTextEncoder.encode(KeepsItsEncoder())
        let later = UsesAKeptEncoder()
        let text = JSONTextEncoder.encode(later)
        let tree = try JSONValue(encoding: later)
        #expect(tree == ["b": 2])
        if let text {
            #expect(try text.withUnsafeBufferPointer { try JSONParser.parse($0) } == tree)
        }
        // The thread's writer still writes the next value exactly.
        let order = Order(id: "o", lines: [], note: "n", tags: [:], state: .open)
        let bytes = try #require(JSONTextEncoder.encode(order))
        #expect(try bytes.withUnsafeBufferPointer { try JSONParser.parse($0) } == (try JSONValue(encoding: order)))
    }

    @Test func aValueThatEncodesAnotherWhileEncodingGetsTheTreesText() throws {
        let value = EncodesAnother(order: Order(id: "in\"ner", lines: [.init(sku: "s", quantity: 1, price: 2.5)], note: nil, tags: [:], state: .open))
        let bytes = try #require(JSONTextEncoder.encode(value))
        #expect(try bytes.withUnsafeBufferPointer { try JSONParser.parse($0) } == (try JSONValue(encoding: value)))
    }

    struct KeepsItsEncoder: Encodable {
        nonisolated(unsafe) static var kept: (any Encoder)?
        func encode(to encoder: any Encoder) throws {
            Self.kept = encoder
            var container = encoder.container(keyedBy: Script.Key.self)
            try container.encode(1, forKey: Script.Key("a"))
        }
    }

    struct UsesAKeptEncoder: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Script.Key.self)
            try container.encode(2, forKey: Script.Key("b"))
            if let kept = KeepsItsEncoder.kept {
                var stale = kept.container(keyedBy: Script.Key.self)
                try? stale.encode(3, forKey: Script.Key("c"))
            }
        }
    }

    struct EncodesAnother: Encodable {
        let order: Order
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Script.Key.self)
            try container.encode(1, forKey: Script.Key("before"))
            let inner = JSONTextEncoder.encode(order).map { String(decoding: $0, as: UTF8.self) } ?? "none"
            try container.encode(inner, forKey: Script.Key("inner"))
            try container.encode(order, forKey: Script.Key("order"))
        }
    }

    // MARK: Generated values

    /// A value that encodes itself by a script of container operations.
    indirect enum Script: Encodable, Sendable, CustomStringConvertible {
        case integer(Int64)
        case unsigned(UInt64)
        case double(Double)
        case float(Float)
        case string(String)
        case bool(Bool)
        case null
        /// A keyed container with these members.
        case object([(String, Script)])
        /// An unkeyed container with these elements.
        case array([Script])
        /// Members written through `nestedContainer(keyedBy:forKey:)` and `nestedUnkeyedContainer(forKey:)`.
        case nested(key: String, inner: [(String, Script)], listKey: String, list: [Script])
        /// The same keyed container asked for twice, as a subclass and its superclass do.
        case twice([(String, Script)], [(String, Script)])
        /// A value through `encode(_:)` of a single value container that encodes a nested `Script`.
        case wrapped(Script)
        /// A nested container written to after its parent wrote a later member: one pass cannot.
        case interleaved
        /// A member through `superEncoder()`.
        case superEncoded(Script)
        /// Encodes nothing at all.
        case nothing
        /// A number JSON cannot hold.
        case nonFinite

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ string: String) { stringValue = string }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
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

        static func write(_ members: [(String, Script)], into container: inout KeyedEncodingContainer<Key>) throws {
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
        var onePass: Bool {
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

        static func make(_ random: inout SeededGenerator, depth: Int) -> Script {
            let leafOnly = depth >= 3
            switch random.next() % (leafOnly ? 8 : 16) {
            case 0: return .integer(random.pick([0, -1, 42, Int64.max, Int64.min, Int64(bitPattern: random.next())]))
            case 1: return .unsigned(random.pick([0, UInt64.max, UInt64(Int64.max) + 1, random.next() >> 3]))
            case 2: return .double(random.pick([0.5, -0.0, 1e300, 2.5e-308, 6.02214076e23, Double(Int64(bitPattern: random.next())) / 1e6, 3.0]))
            case 3: return .float(random.pick([0.1, 1e-30, 3.4e38, -7]))
            case 4: return .string(text(&random))
            case 5: return .bool(random.next() % 2 == 0)
            case 6: return .null
            case 7: return random.next() % 8 == 0 ? .nonFinite : .string(text(&random))
            case 8, 9: return .object(members(&random, depth: depth))
            case 10: return .array((0..<Int(random.next() % 5)).map { _ in make(&random, depth: depth + 1) })
            case 11:
                return .nested(
                    key: key(&random), inner: members(&random, depth: depth), listKey: key(&random),
                    list: (0..<Int(random.next() % 4)).map { _ in make(&random, depth: depth + 1) })
            case 12: return .twice(members(&random, depth: depth), members(&random, depth: depth))
            case 13: return .wrapped(make(&random, depth: depth + 1))
            case 14: return random.next() % 2 == 0 ? .interleaved : .superEncoded(make(&random, depth: depth + 1))
            default: return random.next() % 4 == 0 ? .nothing : .object(members(&random, depth: depth))
            }
        }

        static func members(_ random: inout SeededGenerator, depth: Int) -> [(String, Script)] {
            (0..<Int(random.next() % 12)).map { _ in (key(&random), make(&random, depth: depth + 1)) }
        }

        /// Keys from a small set (so some repeat), some needing escapes.
        static func key(_ random: inout SeededGenerator) -> String {
            random.pick(["id", "amount", "kind", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o",
                         "p", "q", "r", "s", "t", "u", "w", "x", "y", "z", "quo\"te", "back\\slash", "nl\n", "ü", "\u{FEFF}bom", "\u{202E}rtl", ""])
        }

        static func text(_ random: inout SeededGenerator) -> String {
            let pieces = ["plain", "ünï", "\"", "\\", "\n", "\t", "\u{0}", "\u{1F}", "\u{FEFF}", "日本", "😀", " ", "/", "</script>"]
            return (0..<Int(random.next() % 6)).map { _ in random.pick(pieces) }.joined()
        }

        var description: String {
            switch self {
            case .integer(let value): "\(value)"
            case .unsigned(let value): "\(value)u"
            case .double(let value): "\(value)"
            case .float(let value): "\(value)f"
            case .string(let value): value.debugDescription
            case .bool(let value): "\(value)"
            case .null: "null"
            case .object(let members): "{" + members.map { "\($0.0.debugDescription): \($0.1)" }.joined(separator: ", ") + "}"
            case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
            case .nested(let key, let inner, let listKey, let list): "nested(\(key): \(Script.object(inner)), \(listKey): \(Script.array(list)))"
            case .twice(let first, let second): "twice(\(Script.object(first)), \(Script.object(second)))"
            case .wrapped(let inner): "wrapped(\(inner))"
            case .interleaved: "interleaved"
            case .superEncoded(let inner): "super(\(inner))"
            case .nothing: "nothing"
            case .nonFinite: "nan"
            }
        }
    }

    // MARK: Synthesized Codable

    struct Order: Codable, Equatable {
        struct Line: Codable, Equatable {
            var sku: String
            var quantity: Int
            var price: Double
        }

        enum State: Codable, Equatable {
            case open
            case held(reason: String)
            case shipped(at: Int64, carrier: String?)
        }

        var id: String
        var lines: [Line]
        var note: String?
        var tags: [String: Int]
        var state: State

        static func make(_ random: inout SeededGenerator) -> Order {
            Order(
                id: "o-\(random.next() % 10_000)\(Script.text(&random))",
                lines: (0..<Int(random.next() % 5)).map { _ in
                    Line(sku: Script.text(&random), quantity: Int(random.next() % 100) - 50, price: Double(random.next() % 100_000) / 7.0)
                },
                note: random.next() % 2 == 0 ? nil : Script.text(&random),
                tags: Dictionary(uniqueKeysWithValues: (0..<Int(random.next() % 4)).map { ("t\($0)\(Script.text(&random))", $0) }),
                state: random.pick([.open, .held(reason: Script.text(&random)), .shipped(at: Int64(bitPattern: random.next()), carrier: nil)])
            )
        }
    }

    /// A class that encodes its superclass's members into its own container.
    class BaseOrder: Encodable {
        let order: Order
        init(order: Order) { self.order = order }
        enum CodingKeys: String, CodingKey { case order }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(order, forKey: .order)
        }
    }

    final class ExpressOrder: BaseOrder, @unchecked Sendable {
        let courier: String
        init(order: Order, courier: String) {
            self.courier = courier
            super.init(order: order)
        }
        enum ExpressKeys: String, CodingKey { case courier }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ExpressKeys.self)
            try container.encode(courier, forKey: .courier)
            try super.encode(to: encoder)
        }
    }
}
