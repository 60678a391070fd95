import ChainTrace
import ChainTraceFiles
import ChainTraceReplay
import ChainTraceTraceLog
import Testing

@testable import ChainTraceDefinitions

/// Replays test rules in their compiled form (slot reads, `all`/`any` of two parts without a loop, of any other
/// number with one); whatever the shape, a compiled rule must decide exactly as the written rule does.
@Suite("Compiled rules")
struct CompiledRuleTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    static func rule(depth: Int, using generator: inout Generator) -> Rule {
        let leaves: [Rule] = [
            .always(true), .always(false), .kind(["A"]), .kind(["A", "B"]),
            .range(FieldPath("w"), minimum: 2, maximum: 6), .range(FieldPath("w"), minimum: nil, maximum: 4),
            .equals(FieldPath("c"), "x"), .oneOf(FieldPath("c"), ["x", 3]), .present(FieldPath("p"), true),
            .present(FieldPath("p"), false),
            // Bounds past 2^53, which a `Double` cannot hold exactly, and one it can.
            .range(FieldPath("w"), minimum: 9_007_199_254_740_993, maximum: nil),
            .range(FieldPath("w"), minimum: 9_007_199_254_740_992, maximum: nil),
            .range(FieldPath("w"), minimum: nil, maximum: 9_007_199_254_740_992.0),
            .range(FieldPath("w"), minimum: -9_223_372_036_854_775_807, maximum: 9_223_372_036_854_775_806),
            .equals(FieldPath("w"), .integer(9_007_199_254_740_993)),
        ]
        if depth == 0 || Int.random(in: 0..<3, using: &generator) == 0 {
            return leaves.randomElement(using: &generator)!
        }
        // One to four parts, so the one-, two- and many-part forms are all made.
        let parts = (0..<Int.random(in: 1...4, using: &generator)).map { _ in rule(depth: depth - 1, using: &generator)
        }
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: return .all(parts)
        case 1: return .any(parts)
        default: return .not(parts[0])
        }
    }

    static func line(using generator: inout Generator) -> String {
        let colon = [":", ": ", " :"].randomElement(using: &generator)!
        func member(_ key: String, _ value: String) -> String { "\"\(key)\"\(colon)\(value)" }
        var members = [member("kind", "\"\(["A", "B", "C"].randomElement(using: &generator)!)\"")]
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: members.append(member("w", "\(Double(Int.random(in: 0...80, using: &generator)) / 10)"))
        case 4:
            // Around 2^53 and the ends of 64 bits, as integers and as floats.
            let edges = [
                "9007199254740992", "9007199254740993", "9007199254740992.0", "9007199254740994e0",
                "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e300", "-0.0",
            ]
            members.append(member("w", edges.randomElement(using: &generator)!))
        case 1: members.append(member("w", "\"3\""))
        case 2: members.append(member("w", "null"))
        default: break
        }
        if let c = ["\"x\"", "\"y\"", "3", nil].randomElement(using: &generator)! { members.append(member("c", c)) }
        if let p = ["1", "null", nil].randomElement(using: &generator)! { members.append(member("p", p)) }
        // Keys close to the ones read — longer, shorter, sharing their start — so a decoder that remembers the
        // keys of the line before by position must tell them apart.
        for distractor in ["ww", "w2", "cw", "pp", "kindly", "wide-and-long-key"] where Bool.random(using: &generator) {
            members.append(member(distractor, ["1", "\"w\"", "true"].randomElement(using: &generator)!))
        }
        return "{"
            + members.shuffled(using: &generator).joined(separator: [",", ", "].randomElement(using: &generator)!) + "}"
    }

    @Test func compiledRulesDecideAsWrittenRulesWithAndWithoutSlots() throws {
        var generator = Generator(state: 42)
        let schema = FieldSchema(names: ["w", "c", "p"])
        let rules = (0..<300).map { _ in Self.rule(depth: 3, using: &generator) }
        let lines = (0..<200).map { _ in Self.line(using: &generator) }
        let bytes = Array(lines.joined(separator: "\n").utf8) + [UInt8(ascii: "\n")]
        var compared = 0
        for withSlots in [true, false] {
            let compiled = rules.map { RuleCompiler.compile($0, schema: withSlots ? schema : nil) }
            let stream = CommandStreamReader(bytes: bytes, name: "commands.jsonl", schema: withSlots ? schema : nil)
            while let (line, item) = try stream.next() {
                guard case .command(let command) = item else {
                    Issue.record("line \(line) is not a command")
                    return
                }
                for (rule, compiledRule) in zip(rules, compiled)
                where compiledRule.matches(command) != rule.matches(command) {
                    Issue.record("\(rule) on \(lines[line - 1]) (slots: \(withSlots))")
                }
                compared += rules.count
            }
        }
        #expect(compared == 2 * rules.count * lines.count)
    }
}
