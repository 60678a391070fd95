public import ChainTraceJSON

/// Generated JSON values and member names (hostile ones among them), for the property tests of every format.
public enum GeneratedJSON {
    public static func string(_ random: inout SeededGenerator) -> String {
        random.chance(0.5)
            ? random.hostileName(maximumLength: 10) : random.pick(["", "plain", "é", "a\"b\\c", "tab\there", "🚀"])
    }

    public static func value(_ random: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0...(depth > 2 ? 5 : 7), using: &random) {
        case 0: return .null
        case 1: return .bool(random.chance(0.5))
        case 2:
            return .integer(
                random.pick([Int64.min, -1, 0, 1, 42, Int64.max, Int64.random(in: .min ... .max, using: &random)])
            )
        case 3:
            return .double(
                random.pick([0.5, -2.25, 1e-7, 6.02e23, -0.0001, Double.random(in: -1e6...1e6, using: &random)])
            )
        case 4, 5: return .string(string(&random))
        case 6: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in value(&random, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                members[string(&random)] = value(&random, depth: depth + 1)
            }
            return .object(members)
        }
    }
}

/// JSON text of a value, as one line of a file.
public enum CLILine {
    public static func text(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
