import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// A misspelt member anywhere in a generated definition — top level, a handler, a registry member, a rule, a
/// failure — is an error naming that member, at its line (or the rule holding it), never ignored: a typo such as
/// `"acepts"` would otherwise leave a handler that silently passes everything.
@Suite("Misspelt members are errors")
struct MisspeltMemberTests {
    /// Paths to every object in `value`.
    static func objects(in value: JSONValue, at path: [String] = []) -> [[String]] {
        switch value {
        case .object(let members):
            return [path] + members.sorted { $0.key < $1.key }.flatMap { objects(in: $0.value, at: path + [$0.key]) }
        case .array(let elements):
            return elements.enumerated().flatMap { objects(in: $0.element, at: path + ["\($0.offset)"]) }
        default:
            return []
        }
    }

    static func adding(_ key: String, to value: JSONValue, at path: ArraySlice<String>) -> JSONValue {
        switch value {
        case .object(var members):
            guard let first = path.first else {
                members[key] = .integer(1)
                return .object(members)
            }
            members[first] = members[first].map { adding(key, to: $0, at: path.dropFirst()) }
            return .object(members)
        case .array(var elements):
            guard let first = path.first, let index = Int(first), elements.indices.contains(index) else { return value }
            elements[index] = adding(key, to: elements[index], at: path.dropFirst())
            return .array(elements)
        default:
            return value
        }
    }

    @Test(arguments: SeededGenerator.seeds(80))
    func aMisspeltMemberAnywhereIsAnErrorNamingIt(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (value, _) = GeneratedDefinition.make(&random)
        // Objects whose members the format defines (a rule's `equals` value is data, not format).
        let places = Self.objects(in: value).filter { !$0.contains("equals") && !$0.contains("in") }
        let place = random.pick(places)
        let typo = random.pick(["acepts", "nxt", "nmae", "wieght", "feild", "budgett", "fial", "chian", "handlerz"])
        var writer = JSONWriter()
        writer.write(Self.adding(typo, to: value, at: place[...]))
        let bytes = writer.bytes.flatMap { $0 == UInt8(ascii: ",") ? [$0, 0x0A] : [$0] }
        let error = try #require(throws: FormatError.self, "seed \(seed): \(typo) at \(place) was accepted") {
            try ChainDefinition.load(bytes: bytes, file: "typo.chain.json")
        }
        #expect(error.description.contains(typo), "seed \(seed): \(error)")
        // At the member itself, or (inside a rule, which is one value) at the rule that holds it.
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let typoLine = (lines.firstIndex { String(decoding: $0, as: UTF8.self).contains("\"\(typo)\"") } ?? -1) + 1
        #expect(error.line >= 1 && error.line <= typoLine, "seed \(seed): \(error), typo on line \(typoLine)")
    }
}
