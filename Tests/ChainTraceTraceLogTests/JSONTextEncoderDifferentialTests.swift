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
        let order = Order(
            id: "o-1",
            lines: [.init(sku: "a\"b\u{1}", quantity: 2, price: 1.5e-7)],
            note: nil,
            tags: ["x": 1],
            state: .held(reason: "ß")
        )
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
                "orders",
                handlers: [Handler("Take") { _ in .accept(1) }],
                recorder: Recorder(sink: FanOutTraceSink([memory, log]), payloads: .captured)
            )
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
        let value = EncodesAnother(
            order: Order(
                id: "in\"ner",
                lines: [.init(sku: "s", quantity: 1, price: 2.5)],
                note: nil,
                tags: [:],
                state: .open
            )
        )
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

    typealias Script = EncodingScript

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
                    Line(
                        sku: Script.text(&random),
                        quantity: Int(random.next() % 100) - 50,
                        price: Double(random.next() % 100_000) / 7.0
                    )
                },
                note: random.next() % 2 == 0 ? nil : Script.text(&random),
                tags: Dictionary(
                    uniqueKeysWithValues: (0..<Int(random.next() % 4)).map { ("t\($0)\(Script.text(&random))", $0) }
                ),
                state: random.pick([
                    .open, .held(reason: Script.text(&random)),
                    .shipped(at: Int64(bitPattern: random.next()), carrier: nil),
                ])
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
