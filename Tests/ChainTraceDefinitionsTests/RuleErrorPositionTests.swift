import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// Rules with one member of the wrong type, anywhere in a generated rule however deeply nested (`kind`, `field`,
/// `in`, `min`, `max`, `matches`, `present`, `all`, `any`, `not`): the definition is refused with the line and
/// column of that very value and what was expected there — the place an editor should jump to.
@Suite("Rule errors name the nested value at fault")
struct RuleErrorPositionTests {
    /// Paths to members of `rule` that can be given a wrong value, and the wrong value to give each.
    static func targets(in rule: JSONValue, at path: [String] = []) -> [(path: [String], wrong: JSONValue)] {
        switch rule {
        case .object(let members):
            var result: [(path: [String], wrong: JSONValue)] = []
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                switch key {
                case "kind", "in", "all", "any": result.append((path + [key], .integer(5)))
                case "field":
                    result.append((path + [key], .integer(5)))
                    // An array element written as JavaScript and jq write it: a member name that matches nothing.
                    result.append((path + [key], .string("order.items[2][10].sku")))
                case "matches": result.append((path + [key], .integer(5)))
                case "min", "max": result.append((path + [key], .string("x")))
                case "present": result.append((path + [key], .string("x")))
                case "not": result.append((path + [key], .integer(5)))
                default: break
                }
                if key == "not" { result += targets(in: value, at: path + [key]) }
                if key == "all" || key == "any", case .array(let parts) = value {
                    for (index, part) in parts.enumerated() {
                        result += targets(in: part, at: path + [key, "\(index)"])
                    }
                }
            }
            return result
        default:
            return []
        }
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func aWrongValueDeepInARuleIsReportedWhereItIs(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var rule = GeneratedDefinition.rule(&random)
        while Self.targets(in: rule).isEmpty { rule = GeneratedDefinition.rule(&random) }
        let target = random.pick(Self.targets(in: rule))
        let broken = rule.changing(at: target.path[...], to: target.wrong)
        let definition: JSONValue = .object([
            "chain": .string("r"), "handlers": .array([.object(["name": .string("H0"), "accepts": broken])]),
        ])
        var writer = JSONWriter()
        writer.write(definition)
        // Break lines after commas so that lines and columns both count.
        let bytes = writer.bytes.flatMap { $0 == UInt8(ascii: ",") ? [$0, 0x0A] : [$0] }
        do {
            _ = try ChainDefinition.load(bytes: bytes, file: "r.chain.json")
            Issue.record("seed \(seed): \(target.path) = \(target.wrong) was accepted")
        } catch {
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            guard error.line >= 1, error.line <= lines.count else {
                Issue.record("seed \(seed): \(error)")
                return
            }
            let line = Array(lines[error.line - 1])
            guard error.column >= 1, error.column <= line.count else {
                Issue.record("seed \(seed): \(error)")
                return
            }
            let first: UInt8 = target.wrong == .integer(5) ? UInt8(ascii: "5") : UInt8(ascii: "\"")
            #expect(
                line[error.column - 1] == first,
                "seed \(seed): \(target.path): \(error) points at \(String(decoding: line[(error.column - 1)...], as: UTF8.self))"
            )
            if case .string(let text) = target.wrong, text.contains("[") {
                #expect(error.expected.contains(#"("order.items.2.10.sku")"#), "seed \(seed): \(error)")
            }
        }
    }
}
