import ChainTrace
import ChainTraceFormats
import ChainTraceTestSupport
import Testing

/// Chain definitions as users write them — generated with observers, trees, registries, rules of every kind,
/// failures, budgets — load and build a chain; and one member given a value of the wrong type is an error at
/// that value's line and column, saying what was expected.
@Suite("Chain definitions: generated valid files load, one wrong member is reported where it is")
struct DefinitionErrorPositionTests {
    static func rule(_ random: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        let field = random.pick(["size", "weight", "card.type", "name"])
        switch Int.random(in: 0...(depth > 1 ? 5 : 8), using: &random) {
        case 0: return .bool(random.chance(0.5))
        case 1: return .object(["kind": .array([.string(random.pick(["Tap", "Swipe", "Coin"]))])])
        case 2: return .object(["field": .string(field), "equals": random.pick([.string("M"), .integer(2), .double(2.5)])])
        case 3: return .object(["field": .string(field), "in": .array([.string("S"), .string("M")])])
        case 4: return .object(["field": .string(field), "min": .integer(1), "max": .double(9.5)])
        case 5: return .object(["field": .string(field), "present": .bool(random.chance(0.5))])
        case 6: return .object(["all": .array([rule(&random, depth: depth + 1), rule(&random, depth: depth + 1)])])
        case 7: return .object(["any": .array([rule(&random, depth: depth + 1)])])
        default: return .object(["not": rule(&random, depth: depth + 1)])
        }
    }

    /// A valid definition, and the paths of the members that can be given a wrong value, with the value to give.
    static func definition(_ random: inout SeededGenerator) -> (JSONValue, [(path: [String], wrong: JSONValue, first: UInt8)]) {
        let count = Int.random(in: 1...6, using: &random)
        var handlers: [JSONValue] = []
        var targets: [(path: [String], wrong: JSONValue, first: UInt8)] = [(["chain"], .integer(5), UInt8(ascii: "5"))]
        for index in 0..<count {
            var handler: [String: JSONValue] = ["name": .string("H\(index)")]
            targets.append((["handlers", "\(index)", "name"], .integer(5), UInt8(ascii: "5")))
            if index + 1 < count, random.chance(0.7) {
                handler["next"] = .string("H\(Int.random(in: (index + 1)..<count, using: &random))")
                targets.append((["handlers", "\(index)", "next"], .array([]), UInt8(ascii: "[")))
            }
            if random.chance(0.2) {
                handler["role"] = .string("observer")
                targets.append((["handlers", "\(index)", "role"], .string("boss"), UInt8(ascii: "\"")))
            } else if random.chance(0.8) {
                handler["accepts"] = rule(&random)
                targets.append((["handlers", "\(index)", "accepts"], .integer(7), UInt8(ascii: "7")))
            }
            if random.chance(0.3) {
                handler["fails"] = .object(["when": rule(&random), "error": .string("boom \(index)")])
                targets.append((["handlers", "\(index)", "fails", "error"], .integer(3), UInt8(ascii: "3")))
            }
            if random.chance(0.3) {
                handler["budget"] = .string(random.pick(["250ns", "20us", "1.5ms", "2s"]))
                targets.append((["handlers", "\(index)", "budget"], .string("fast"), UInt8(ascii: "\"")))
            }
            if random.chance(0.2) {
                let members = (0..<Int.random(in: 1...3, using: &random)).map { member -> JSONValue in
                    .object([
                        "name": .string("H\(index)m\(member)"), "weight": .integer(Int64.random(in: 0...3, using: &random)),
                        "accepts": rule(&random),
                    ])
                }
                // A registry's members decide: it has no rules, role or budget of its own.
                handler["registry"] = .array(members)
                for key in ["accepts", "fails", "role", "budget"] { handler[key] = nil }
                targets.removeAll { $0.path.count >= 3 && $0.path[1] == "\(index)" && ["accepts", "fails", "role", "budget"].contains($0.path[2]) }
                targets.append((["handlers", "\(index)", "registry", "0", "weight"], .string("heavy"), UInt8(ascii: "\"")))
            }
            handlers.append(.object(handler))
        }
        return (.object(["chain": .string("generated"), "handlers": .array(handlers)]), targets)
    }

    static func bytes(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        // One member per line, as people write them, so lines and columns both matter.
        return writer.bytes.flatMap { $0 == UInt8(ascii: ",") ? [$0, 0x0A, 0x20, 0x20] : [$0] }
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func validFilesLoadAndAWrongMemberIsReportedWhereItIs(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (value, targets) = Self.definition(&random)
        let valid = Self.bytes(value)
        let definition = try ChainDefinition.load(bytes: valid, file: "generated.chain.json")
        let chain = try definition.makeChain()
        #expect(chain.name == "generated", "seed \(seed)")
        #expect(definition.handlers.count == targets.filter { $0.path.count == 3 && $0.path[2] == "name" }.count, "seed \(seed)")
        // Every command goes somewhere without trapping: a dry run and a real run.
        for kind in ["Tap", "Coin", "Other"] {
            let command = JSONCommand(kind: kind, fields: ["size": "M", "weight": 2, "card": ["type": "visa"]])
            _ = try chain.whoWouldHandle(command)
            _ = try? chain.send(command)
        }

        let target = random.pick(targets)
        let invalid = Self.bytes(value.changing(at: target.path[...], to: target.wrong))
        do {
            _ = try ChainDefinition.load(bytes: invalid, file: "generated.chain.json")
            Issue.record("seed \(seed): \(target.path) = \(target.wrong) was accepted")
        } catch {
            let lines = invalid.split(separator: 0x0A, omittingEmptySubsequences: false)
            #expect(error.line >= 1 && error.line <= lines.count, "seed \(seed): \(error)")
            guard error.line >= 1 && error.line <= lines.count else { return }
            let line = Array(lines[error.line - 1])
            #expect(error.column >= 1 && error.column <= line.count, "seed \(seed): \(error)")
            guard error.column >= 1 && error.column <= line.count else { return }
            #expect(line[error.column - 1] == target.first, "seed \(seed): \(target.path): \(error) points at \(String(decoding: line[(error.column - 1)...], as: UTF8.self))")
            #expect(error.description.hasPrefix("generated.chain.json:\(error.line):\(error.column): expected "), "seed \(seed): \(error.description)")
        }
    }
}
