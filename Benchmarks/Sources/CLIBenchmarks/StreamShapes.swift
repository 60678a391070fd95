import Foundation

/// Command streams of the shapes users' streams have, generated from a fixed seed, so that the replay rate is
/// measured on more than one shape (a decoder fitted to one shape is fast only on it).
///
/// Every shape carries what the benchmark chain's rules read — a `kind` of `Coin` or `Token` most of the time,
/// and a numeric `weight` — among other members.
enum StreamShape: String, CaseIterable {
    /// The same five keys in the same order on every line: the best case for a decoder that remembers keys.
    case flat
    /// 5–30 keys in varying order, string ids, several kinds, floats with exponents, booleans and nulls, escaped
    /// and non-ASCII strings, nested objects and arrays.
    case varied
    /// Few top-level keys, most of each line a nested order: objects in arrays in objects, several levels deep.
    case nested
    /// Text-heavy: long strings with escapes (quotes, backslashes, newlines, `\u` escapes with surrogate pairs)
    /// and raw non-ASCII text.
    case escaped
    /// The stream the production-cost issue measured (1 M commands, 94 MB): ~95 bytes a line, string ids,
    /// several kinds, 5–8 keys in varying order, floats (some with exponents), now and then a small nested
    /// object or a non-ASCII string. Last, so that the other shapes keep their seeds.
    case mixed

    /// The shape's own seed: the same streams on every machine, and a shape's stream does not change when another
    /// shape is added after it.
    var seed: UInt64 {
        0xC4A1_7EAC_E000_0000 &+ UInt64(Self.allCases.firstIndex(of: self) ?? 0)
    }

    /// `count` lines of this shape, from its ``seed``.
    func write(_ count: Int, to path: String) throws {
        var random = SplitMix(seed: seed)
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        var chunk = ""
        for index in 0..<count {
            chunk += line(index, &random)
            chunk += "\n"
            if chunk.utf8.count > 1 << 20 {
                handle.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        handle.write(Data(chunk.utf8))
        try handle.close()
    }

    private func line(_ index: Int, _ random: inout SplitMix) -> String {
        let kind = ["Coin", "Token", "Coin", "Token", "Refund", "Query"][random.below(6)]
        let weight = "\(Double(random.below(10_000)) / 1000)"
        switch self {
        case .flat:
            return #"{"id":"c\#(index)","kind":"Coin","weight":\#(weight),"diameter":21.5,"country":"NZ"}"#
        case .mixed:
            var members = [#""id":"u\#(random.below(1 << 24))""#, #""kind":"\#(kind)""#, #""weight":\#(weight)"#]
            let extras = [
                #""qty":\#(1 + random.below(20))"#,
                #""price":\#(Double(random.below(100_000)) / 100)\#(random.below(4) == 0 ? "e1" : "")"#,
                #""ok":\#(random.below(2) == 0)"#,
                #""tag":"\#(["std", "gift", "café", "promo"][random.below(4)])""#,
                #""at":{"x":\#(random.below(100)),"y":\#(random.below(100))}"#,
            ]
            for extra in extras.shuffled(using: &random).prefix(2 + random.below(4)) { members.append(extra) }
            return "{" + members.shuffled(using: &random).joined(separator: ",") + "}"
        case .varied:
            var members = [
                #""id":"cmd-\#(index)-\#(random.below(1 << 20))""#, #""kind":"\#(kind)""#, #""weight":\#(weight)"#,
            ]
            for key in Self.extraKeys.shuffled(using: &random).prefix(2 + random.below(26)) {
                members.append(#""\#(key)":\#(value(&random, depth: 0))"#)
            }
            return "{" + members.shuffled(using: &random).joined(separator: random.below(2) == 0 ? "," : ", ") + "}"
        case .nested:
            let items = (0..<(1 + random.below(5))).map { _ in
                #"{"sku":"SKU-\#(random.below(100_000))","quantity":\#(1 + random.below(9)),"price":{"amount":\#(random.below(100_000)),"currency":"EUR","tax":{"rate":0.\#(random.below(30)),"inclusive":\#(random.below(2) == 0)}},"tags":["\#(random.below(50))","gift"]}"#
            }
            return
                #"{"kind":"\#(kind)","id":"order-\#(index)","weight":\#(weight),"order":{"customer":{"id":\#(random.below(1 << 30)),"address":{"city":"Zürich","lines":["Bahnhofstrasse \#(random.below(200))",null]}},"items":[\#(items.joined(separator: ","))],"total":\#(Double(random.below(1 << 20)) / 100)e2}}"#
        case .escaped:
            let texts = (0..<(2 + random.below(4))).map { _ in Self.texts[random.below(Self.texts.count)] }
            return
                #"{"kind":"\#(kind)","id":"msg \"\#(index)\"","weight":\#(weight),"subject":"\#(texts[0])","body":"\#(texts.joined(separator: "\\n"))","from":"Ünïcödé Ñame <a@b.c>"}"#
        }
    }

    private func value(_ random: inout SplitMix, depth: Int) -> String {
        switch random.below(depth > 1 ? 7 : 9) {
        case 0: return "\(random.below(1_000_000))"
        case 1: return "\(Double(random.below(1_000_000)) / 997)e\(Int(random.below(20)) - 10)"
        case 2: return ["true", "false", "null"][random.below(3)]
        case 3: return #""v\#(random.below(1_000_000))""#
        case 4: return #""é-\#(random.below(999)) \"q\" \\ ok""#
        case 5: return #""\u00e9t\u00e9 \ud83d\ude00 \#(random.below(99))""#
        case 6: return "-\(random.below(1000)).\(random.below(1000))E+\(random.below(5))"
        case 7:
            return "[" + (0..<random.below(5)).map { _ in value(&random, depth: depth + 1) }.joined(separator: ",")
                + "]"
        default:
            let keys = ["a", "b", "c", "d"].prefix(1 + random.below(4))
            return "{" + keys.map { #""\#($0)":\#(value(&random, depth: depth + 1))"# }.joined(separator: ",") + "}"
        }
    }

    private static let extraKeys = [
        "customerName", "region", "note", "tags", "meta", "score", "count", "flag", "currency", "ts", "device",
        "sessionId", "attempt", "ratio", "label", "path", "origin", "lang", "tz", "version", "build", "channel",
        "segment", "tier", "plan", "referrer", "campaign", "experiment",
    ]

    private static let texts = [
        #"She said \"hello\" and left"#, #"C:\\Users\\ana\\file.txt"#, #"tab\there"#, "naïve café – déjà vu",
        #"emoji \ud83d\ude80 and \u00fc"#, "日本語のテキスト", #"a\/b\/c"#, "plain words of a message body",
    ]
}

/// A small seeded generator (SplitMix64): the same seed gives the same streams on every machine.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}

/// Any JSON value, for JSONDecoder to read lines of any shape into (what a user without ChainTrace would write).
enum AnyJSON: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }
}
