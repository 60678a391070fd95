import ChainTrace
import ChainTraceDefinitions
import ChainTraceTestSupport
import Testing

/// Where commands enter a chain made from a generated definition: the entries it declares, else every handler no
/// other forwards to, in file order, else the first; the first is the default. A command sent without an entry
/// starts at the default; one naming an entry starts there.
@Suite("Definition entries")
struct DefinitionEntriesTests {
    @Test(arguments: SeededGenerator.seeds(60))
    func entriesAreDeclaredOrTheRootsAndTheFirstIsTheDefault(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...8, using: &random)
        // Each handler forwards to a later one, or to none: roots are those nobody forwards to.
        let next: [Int?] = (0..<count).map { index in index + 1 < count && random.chance(0.6) ? Int.random(in: (index + 1)..<count, using: &random) : nil }
        let handlers = (0..<count).map { index in
            #"{"name":"H\#(index)","accepts":{"kind":["K\#(index)"]}\#(next[index].map { #","next":"H\#($0)""# } ?? "")}"#
        }
        let declared: [String]? = random.chance(0.4) ? Array((0..<count).map { "H\($0)" }.shuffled(using: &random).prefix(Int.random(in: 1...count, using: &random))) : nil
        let entriesMember = declared.map { #","entries":[\#($0.map { "\"\($0)\"" }.joined(separator: ","))]"# } ?? ""
        let definition = try ChainDefinition.load(
            bytes: Array(#"{"chain":"e","handlers":[\#(handlers.joined(separator: ","))]\#(entriesMember)}"#.utf8), file: "e.json")
        let targets = Set(next.compactMap { $0 })
        let roots = (0..<count).filter { !targets.contains($0) }.map { "H\($0)" }
        let expected = declared ?? (roots.isEmpty ? ["H0"] : roots)
        #expect(definition.entries == expected, "seed \(seed): \(definition.entries) vs \(expected)")

        let chain = try definition.makeChain()
        let sink = InMemoryTraceSink()
        chain.recorder = Recorder(sink: sink)
        _ = try chain.send(JSONCommand(kind: "nothing"))
        #expect(sink.traces.last?.entry == expected[0], "seed \(seed): default entry")
        let other = random.pick(expected)
        _ = try chain.send(JSONCommand(kind: "nothing"), from: other)
        #expect(sink.traces.last?.entry == other && sink.traces.last?.path.first == other, "seed \(seed)")
    }
}
