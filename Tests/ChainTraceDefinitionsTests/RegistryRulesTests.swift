import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// What a registry member may be, in generated registries with one mistake planted: a member with a `next`, a
/// registry inside a registry, a name used twice — among the members or with a handler outside — is an error at
/// that member (a repeated name at its second use); a member without a weight weighs 0 and takes its place among equal weights by file
/// order; an observer member is allowed.
@Suite("Registry members")
struct RegistryRulesTests {
    enum Mistake: CaseIterable { case next, nested, duplicateMember, duplicateOutside, none }

    @Test(arguments: SeededGenerator.seeds(60))
    func eachPlantedMistakeIsAnErrorAtItsMember(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...5, using: &random)
        var members = (0..<count).map { index -> [String: String] in
            var member = ["name": #""M\#(index)""#]
            if random.chance(0.6) { member["weight"] = "\(Int.random(in: 0...2, using: &random))" }
            if random.chance(0.2) {
                member["role"] = #""observer""#
            } else {
                member["accepts"] = #"{"kind":["K\#(index)"]}"#
            }
            return member
        }
        let victim = Int.random(in: 0..<count, using: &random)
        let mistake = random.pick(Mistake.allCases)
        var outside = #"{"name":"Tail"}"#
        switch mistake {
        case .next: members[victim]["next"] = #""Tail""#
        case .nested: members[victim]["registry"] = #"[{"name":"Deep"}]"#
        case .duplicateMember where count > 1: members[victim]["name"] = #""M\#((victim + 1) % count)""#
        case .duplicateOutside: outside = #"{"name":"M\#(victim)"}"#
        default: break
        }
        let planted = mistake == .duplicateMember && count == 1 ? Mistake.none : mistake
        let text =
            "{\"chain\":\"c\",\"handlers\":[{\"name\":\"R\",\"registry\":[\n"
            + members.map {
                "{" + $0.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
            }.joined(separator: ",\n")
            + "\n]},\n" + outside + "]}"
        let errors = ChainDefinitionLinter.lint(bytes: Array(text.utf8), file: "r.json").filter {
            $0.severity == .error
        }
        if planted == .none {
            #expect(errors.isEmpty, "seed \(seed): \(errors.map(\.description))")
            let definition = try ChainDefinition.load(bytes: Array(text.utf8), file: "r.json")
            let loaded = try #require(definition.handler(named: "R")?.members)
            #expect(
                loaded.map(\.weight) == members.map { Int($0["weight"] ?? "0")! },
                "seed \(seed): a missing weight is 0"
            )
            _ = try definition.makeChain()
        } else {
            #expect(!errors.isEmpty, "seed \(seed): \(planted) was accepted")
            // A name used twice is reported at its second use, in file order.
            let memberLine =
                switch planted {
                case .duplicateOutside: count + 3
                case .duplicateMember: max(victim, (victim + 1) % count) + 2
                default: victim + 2
                }
            #expect(
                errors.contains { $0.error.line == memberLine },
                "seed \(seed): \(planted) at line \(memberLine): \(errors.map(\.description))"
            )
            #expect(throws: FormatError.self, "seed \(seed)") {
                try ChainDefinition.load(bytes: Array(text.utf8), file: "r.json").makeChain()
            }
        }
    }
}
