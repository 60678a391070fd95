import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// Commands become trace payloads through ChainTrace's own encoder (no JSON text in between). On generated values
/// of nested `Codable` types — structs, arrays, dictionaries, optionals, string and associated-value enums,
/// integers of every width, doubles — it gives exactly what Foundation's `JSONEncoder` writes, read back as a
/// value; and a value JSON cannot hold (a non-finite double) is an error naming where it is.
@Suite("Payload encoding against Foundation's JSONEncoder")
struct JSONValueEncodingTests {
    enum Kind: String, Codable, CaseIterable { case standard, express, pickup }

    enum Payment: Codable, Equatable {
        case card(number: String, expiry: Int)
        case cash(Double)
        case none
    }

    struct Line: Codable {
        var sku: String
        var count: UInt16
        var grid: [[Int]]
        var discount: Double?
    }

    struct Order: Codable {
        var id: String
        var quantity: Int
        var price: Double
        var tags: [String]
        var note: String?
        var lines: [Line]
        var attributes: [String: Int]
        var kind: Kind
        var payment: Payment
        var big: UInt64
        var small: Int8
        var flag: Bool
    }

    static func order(_ random: inout SeededGenerator) -> Order {
        func text() -> String { random.chance(0.5) ? random.hostileName(maximumLength: 6) : "plain" }
        let lines = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            Line(
                sku: text(),
                count: UInt16.random(in: 0 ... .max, using: &random),
                grid: (0..<Int.random(in: 0...2, using: &random)).map { _ in [Int.random(in: -9...9, using: &random)] },
                discount: random.chance(0.5) ? nil : Double(Int.random(in: 0...100, using: &random)) / 8
            )
        }
        var attributes: [String: Int] = [:]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            attributes[text()] = Int.random(in: .min ... .max, using: &random)
        }
        let payment: Payment =
            switch Int.random(in: 0..<3, using: &random) {
            case 0: .card(number: text(), expiry: Int.random(in: 2000...2100, using: &random))
            case 1: .cash(Double(Int.random(in: 0...10_000, using: &random)) / 4)
            default: .none
            }
        return Order(
            id: text(),
            quantity: Int.random(in: .min ... .max, using: &random),
            price: random.pick([
                0, -0.5, 1e-9, 123.25, 6.02e23, Double(Int.random(in: -1000...1000, using: &random)) / 3,
            ]),
            tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in text() },
            note: random.chance(0.5) ? nil : text(),
            lines: lines,
            attributes: attributes,
            kind: random.pick(Kind.allCases),
            payment: payment,
            big: UInt64.random(in: 0...UInt64(Int64.max), using: &random),
            small: Int8.random(in: .min ... .max, using: &random),
            flag: random.chance(0.5)
        )
    }

    /// Equal as JSON values: numbers by value (Foundation writes 2.0 as 2), everything else exactly.
    static func same(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)): return Double(a) == b
        case (.double(let a), .double(let b)): return a == b || abs(a - b) <= abs(a) * 1e-15
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
        default: return left == right
        }
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func encodingMatchesFoundation(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let order = Self.order(&random)
        let ours = try JSONValue(encoding: order)
        let text = try JSONEncoder().encode(order)
        // Foundation's text, read by ChainTrace's strict parser (tested on its own against JSONSerialization).
        let theirs = try JSONDocument(bytes: Array(text), file: "foundation.json").root
        #expect(
            Self.same(ours, theirs),
            "seed \(seed): ours \(ours) vs Foundation \(String(decoding: text, as: UTF8.self))"
        )
    }

    @Test func aNonFiniteNumberIsAnErrorNamingItsPlace() {
        var random = SeededGenerator(seed: 7)
        var order = Self.order(&random)
        order.lines = [Line(sku: "a", count: 1, grid: [], discount: .nan)]
        #expect {
            _ = try JSONValue(encoding: order)
        } throws: { error in
            (error as? JSONValueEncodingError)?.path.hasSuffix("discount") == true
        }
    }
}
