import ChainTrace
import ChainTraceDefinitions
import ChainTraceTestSupport
import Testing

/// Registries in generated definitions, made into chains: each registry's members run highest weight first, equal
/// weights in file order, in the chain's own member list, its real run and its dry run; registering at run time
/// puts a member among equal weights ahead of those already there; names are unique across registries and the
/// chain, and a registry cannot be used as a handler or the other way round.
@Suite("Registries from definitions")
struct DefinitionRegistryTests {
    @Test(arguments: SeededGenerator.seeds(50))
    func membersRunByWeightThenFileOrder(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...6, using: &random)
        let weights = (0..<count).map { _ in Int.random(in: 0...2, using: &random) }
        let members = (0..<count).map { index in
            #"{"name":"M\#(index)","weight":\#(weights[index]),"accepts":{"kind":["K\#(index)"]}}"#
        }
        let text =
            #"{"chain":"r","handlers":[{"name":"Head","next":"R"},{"name":"R","registry":[\#(members.joined(separator: ","))],"next":"Tail"},{"name":"Tail"}]}"#
        let chain = try ChainDefinition.load(bytes: Array(text.utf8), file: "r.json").makeChain()
        let order = (0..<count).sorted { (weights[$0], -$0) > (weights[$1], -$1) }.map { "M\($0)" }
        #expect(try chain.registry("R").members().map(\.name) == order, "seed \(seed)")

        let sink = InMemoryTraceSink()
        chain.recorder = Recorder(sink: sink)
        _ = try chain.send(JSONCommand(kind: "nothing"))
        #expect(sink.traces.last?.path == ["Head", "R"] + order + ["Tail"], "seed \(seed)")
        #expect(
            try chain.whoWouldHandle(JSONCommand(kind: "nothing")).path == ["Head", "R"] + order + ["Tail"],
            "seed \(seed)"
        )
        for hop in sink.traces.last?.hops ?? [] where hop.handler.hasPrefix("M") {
            #expect(hop.registry == "R", "seed \(seed): \(hop.handler)")
        }

        // At run time, a new member goes ahead of those of equal weight.
        let weight = Int.random(in: 0...2, using: &random)
        try chain.registry("R").register(Handler("New") { _ in .pass }, weight: weight)
        let firstEqualOrLighter = order.firstIndex { weights[Int($0.dropFirst())!] <= weight } ?? order.count
        var withNew = order
        withNew.insert("New", at: firstEqualOrLighter)
        #expect(try chain.registry("R").members().map(\.name) == withNew, "seed \(seed): weight \(weight)")

        #expect(throws: ChainError.self) { try chain.registry("R").register(Handler("Tail") { _ in .pass }, weight: 1) }
        #expect(throws: ChainError.self) { try chain.registry("Head") }
        #expect(try chain.registry("R").deregister("Ghost") == false, "seed \(seed)")
    }
}
