import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// The lint walks each entry's path once: its `shadowed` findings equal a plain reference that walks the path
/// again for every handler (the linter's former way, cubic in the chain's length), on generated definitions with
/// trees, observers and registries; and a chain of thousands of handlers is linted, its one shadowed handler found.
@Suite("Lint at scale")
struct LintAtScaleTests {
    /// The reference: for each responder with a rule, the responders met before it from each entry, found by
    /// walking that entry's path from its start.
    static func shadowedByWalkingEveryTime(_ definition: ChainDefinition) -> Set<String> {
        func node(_ name: String) -> HandlerDefinition? { definition.handlers.first { $0.name == name } }
        func respondersBefore(_ name: String, from entry: String) -> [HandlerDefinition]? {
            var earlier: [HandlerDefinition] = []
            var visited: [String] = []
            var current: String? = entry
            while let nodeName = current, !visited.contains(nodeName), let node = node(nodeName) {
                visited.append(nodeName)
                if let members = node.members {
                    for member in ChainDefinitionLinter.ordered(members) {
                        if member.name == name { return earlier }
                        if member.role == .responder { earlier.append(member) }
                    }
                } else {
                    if node.name == name { return earlier }
                    if node.role == .responder { earlier.append(node) }
                }
                current = node.next
            }
            return nil
        }
        var shadowed: Set<String> = []
        let all = definition.handlers.flatMap { [$0] + ($0.members ?? []) }
        for handler in all where handler.role == .responder && !handler.isRegistry && handler.type == nil {
            guard let rule = handler.accepts, !rule.isUnsatisfiable else { continue }
            var everyEntryShadows = false
            for entry in definition.entries {
                guard let earlier = respondersBefore(handler.name, from: entry) else { continue }
                guard earlier.contains(where: { $0.accepts.map { rule.implies($0) } ?? false }) else {
                    everyEntryShadows = false
                    break
                }
                everyEntryShadows = true
            }
            if everyEntryShadows { shadowed.insert(handler.name) }
        }
        return shadowed
    }

    @Test(arguments: SeededGenerator.seeds(150))
    func shadowedFindingsEqualTheReference(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let bytes = GeneratedDefinition.makeBytes(&random)
        let findings = ChainDefinitionLinter.lint(bytes: bytes, file: "g.chain.json")
        guard !findings.contains(where: { $0.severity == .error }) else { return }
        let definition = try ChainDefinition.load(bytes: bytes, file: "g.chain.json")
        let found = Set(findings.filter { $0.check == .shadowed }.compactMap(\.handler))
        #expect(found == Self.shadowedByWalkingEveryTime(definition), "seed \(seed)")
    }

    @Test func aChainOfThousandsOfHandlersIsLinted() throws {
        let count = 4_000
        var handlers: [JSONValue] = (0..<count).map { index in
            var handler: [String: JSONValue] = [
                "name": .string("H\(index)"), "accepts": ["field": "x", "equals": .integer(Int64(index))],
            ]
            if index + 1 < count { handler["next"] = .string("H\(index + 1)") }
            return .object(handler)
        }
        // The last accepts what the first does: shadowed, thousands of handlers down the path.
        handlers[count - 1] = ["name": .string("H\(count - 1)"), "accepts": ["field": "x", "equals": 0]]
        var writer = JSONWriter()
        writer.write(["chain": "long", "handlers": .array(handlers)])
        let findings = ChainDefinitionLinter.lint(bytes: writer.bytes, file: "long.chain.json")
        #expect(
            findings.map(\.check) == [.shadowed] && findings.first?.handler == "H\(count - 1)",
            "\(findings.prefix(3))"
        )
        // And it is built into a chain, as replay and which build it.
        let chain = try ChainDefinition.load(bytes: writer.bytes, file: "long.chain.json").makeChain()
        #expect(
            try chain.whoWouldHandle(JSONCommand(kind: "K", fields: ["x": .integer(Int64(count - 2))])).handler
                == "H\(count - 2)"
        )
    }
}
