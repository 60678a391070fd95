import ChainTrace
public import ChainTraceJSON

/// Chain definitions as users write them, generated: handlers H0…Hn in a line or a tree, observers, registries
/// of weighted members, rules of every kind over the fields `size`, `weight`, `card.type` and `name` and the kinds
/// `Tap`, `Swipe` and `Coin`, failures and budgets.
public enum GeneratedDefinition {
    /// A rule of any kind, nested up to three deep.
    public static func rule(_ random: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        let field = random.pick(["size", "weight", "card.type", "name"])
        switch Int.random(in: 0...(depth > 1 ? 5 : 8), using: &random) {
        case 0: return .bool(random.chance(0.5))
        case 1: return .object(["kind": .array([.string(random.pick(["Tap", "Swipe", "Coin"]))])])
        case 2:
            return .object(["field": .string(field), "equals": random.pick([.string("M"), .integer(2), .double(2.5)])])
        case 3: return .object(["field": .string(field), "in": .array([.string("S"), .string("M")])])
        case 4: return .object(["field": .string(field), "min": .integer(1), "max": .double(9.5)])
        case 5: return .object(["field": .string(field), "present": .bool(random.chance(0.5))])
        case 6: return .object(["all": .array([rule(&random, depth: depth + 1), rule(&random, depth: depth + 1)])])
        case 7: return .object(["any": .array([rule(&random, depth: depth + 1)])])
        default: return .object(["not": rule(&random, depth: depth + 1)])
        }
    }

    /// A valid definition, and the paths of the members that can be given a wrong value, with the value to give.
    /// A generated definition as the JSON text of a file.
    public static func makeBytes(_ random: inout SeededGenerator) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(make(&random).0)
        return writer.bytes
    }

    public static func make(_ random: inout SeededGenerator) -> (
        JSONValue, [(path: [String], wrong: JSONValue, first: UInt8)]
    ) {
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
                    // A whole number, now and then written as a float (`2.0`): a weight by its value.
                    let weight = Int64.random(in: 0...3, using: &random)
                    return .object([
                        "name": .string("H\(index)m\(member)"),
                        "weight": random.chance(0.3) ? .double(Double(weight)) : .integer(weight),
                        "accepts": rule(&random),
                    ])
                }
                // A registry's members decide: it has no rules, role or budget of its own.
                handler["registry"] = .array(members)
                for key in ["accepts", "fails", "role", "budget"] { handler[key] = nil }
                targets.removeAll {
                    $0.path.count >= 3 && $0.path[1] == "\(index)"
                        && ["accepts", "fails", "role", "budget"].contains($0.path[2])
                }
                targets.append(
                    (["handlers", "\(index)", "registry", "0", "weight"], .string("heavy"), UInt8(ascii: "\""))
                )
                targets.append((["handlers", "\(index)", "registry", "0", "weight"], .double(2.5), UInt8(ascii: "2")))
            }
            handlers.append(.object(handler))
        }
        return (.object(["chain": .string("generated"), "handlers": .array(handlers)]), targets)
    }
}
