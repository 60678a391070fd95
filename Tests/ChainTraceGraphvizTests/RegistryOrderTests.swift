import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceGraphviz
import ChainTraceReplay
import ChainTraceTestSupport
import Testing

/// One registry order everywhere: a definition loaded from a file, the chain it makes, the dry run, the replay,
/// the linter's view and the diagram all ask registry members highest weight first, equal weights in file order;
/// a running registry asks equal weights newest first.
@Suite("Registry order")
struct RegistryOrderTests {
    /// The documented order, written out independently: for each weight from the highest down, the members of
    /// that weight in file order.
    static func documentedOrder(_ members: [(name: String, weight: Int)]) -> [String] {
        Set(members.map(\.weight)).sorted(by: >).flatMap { weight in members.filter { $0.weight == weight }.map(\.name)
        }
    }

    @Test(arguments: SeededGenerator.seeds(200))
    func everyConsumerOfADefinitionUsesTheDocumentedOrder(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...8, using: &random)
        let members = (0..<count).map { (name: "M\($0)", weight: Int.random(in: -2...2, using: &random)) }
        let expected = Self.documentedOrder(members)
        // Written as a user writes the file; nobody accepts, so a command visits every member in order.
        let memberText = members.map { #"{"name":"\#($0.name)","weight":\#($0.weight),"accepts":false}"# }
        let text =
            #"{"chain":"c","handlers":[{"name":"R","registry":[\#(memberText.joined(separator: ","))],"next":"End"},{"name":"End"}]}"#
        let definition = try ChainDefinition.load(bytes: Array(text.utf8), file: "ties.chain.json")
        let visited = ["R"] + expected + ["End"]

        let chain = try definition.makeChain(unknownTypes: .modelFromRules)
        #expect(try chain.registry("R").members().map(\.name) == expected, "seed \(seed)")
        #expect(try chain.whoWouldHandle(JSONCommand(kind: "A")).path == visited, "seed \(seed): dry run")

        let session = try ReplaySession(definition: definition)
        let report = try session.run(
            CommandStreamReader(bytes: Array(#"{"kind":"A"}"#.utf8) + [10], schema: session.schema)
        )
        #expect(report.paths.first?.trace.path == visited, "seed \(seed): replay")

        #expect(
            ChainDefinitionLinter.ordered(definition.handlers[0].members ?? []).map(\.name) == expected,
            "seed \(seed)"
        )
        #expect(
            ChainGraph(definition: definition).registries.first?.members == ["R"] + expected,
            "seed \(seed): diagram"
        )
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func aRunningRegistryAsksEqualWeightsNewestFirst(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let chain = try Chain<String, String>("c", handlers: [])
        let registry = try chain.addRegistry("R", next: nil)
        var registered: [(name: String, weight: Int)] = []
        for index in 0..<Int.random(in: 1...10, using: &random) {
            if !registered.isEmpty, random.chance(0.2) {
                let gone = registered.remove(at: Int.random(in: 0..<registered.count, using: &random))
                #expect(try registry.deregister(gone.name))
                continue
            }
            let member = (name: "M\(index)", weight: Int.random(in: 0...2, using: &random))
            try registry.register(Handler(member.name) { _ in .pass }, weight: member.weight)
            registered.append(member)
        }
        // Newest first among equal weights: the documented order of the registrations read backwards.
        #expect(try registry.members().map(\.name) == Self.documentedOrder(registered.reversed()), "seed \(seed)")
        let path = try chain.whoWouldHandle("x").path
        #expect(path == ["R"] + Self.documentedOrder(registered.reversed()), "seed \(seed)")
    }
}
