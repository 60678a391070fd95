import ChainTrace
import ChainTraceAnalysis
import ChainTraceGraphviz
import ChainTraceTestSupport
import Testing

/// Every node and edge of every diagram names each attribute once, also where two looks meet — a handler only the
/// log shows (purple) that is slow (red) or not visited (grey) — and the last look given is the one drawn, as
/// Graphviz would read a list that repeats a name. Generated chains, with handlers the logs visit that the
/// definition lacks.
@Suite("Diagram attributes are named once")
struct AttributeOnceTests {
    static func namedOnce(_ dot: DOTGraph) -> Bool {
        (dot.nodes.map(\.attributes) + dot.edges.map(\.attributes)).allSatisfy { attributes in
            Set(attributes.map(\.name)).count == attributes.count
        }
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func everyDiagramNamesEachAttributeOnce(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let defined = (0..<Int.random(in: 1...5, using: &random)).map { "D\($0)" }
        let graph = ChainGraph(
            name: "c",
            handlers: defined.map { ChainGraph.Handler(name: $0) },
            links: zip(defined, defined.dropFirst()).map { ChainGraph.Link(from: $0, to: $1) },
            entries: [defined[0]]
        )
        let logOnly = (0..<Int.random(in: 1...3, using: &random)).map { "L\($0)" }
        func trace(_ index: Int) -> Trace {
            let path = Array((defined + logOnly).shuffled(using: &random).prefix(Int.random(in: 1...6, using: &random)))
            let hops = path.enumerated().map { position, name in
                // Some hops far slower than the rest, so the rule flags their handlers.
                let time = UInt64(random.chance(0.2) ? 50_000_000 : Int.random(in: 100...2_000, using: &random))
                return Hop(
                    handler: name,
                    position: position,
                    decision: position == path.count - 1 ? .accepted : .passed,
                    inclusiveDuration: time,
                    selfDuration: time
                )
            }
            return Trace(
                id: UInt64(index),
                commandKind: "K",
                commandID: "c\(index)",
                entry: path[0],
                chain: "c",
                hops: hops,
                outcome: .accepted(by: path.last!),
                duration: 1
            )
        }
        let before = (0..<20).map(trace)
        let after = (0..<20).map(trace)
        let diagrams = [
            ChainDiagram.structure(graph),
            ChainDiagram.path(before[0], over: graph),
            ChainDiagram.profile(ChainProfile(before), over: graph),
            ChainDiagram.diff(before: ChainProfile(before), after: ChainProfile(after), over: graph),
        ]
        for dot in diagrams {
            #expect(Self.namedOnce(dot), "seed \(seed): \(dot.text)")
            _ = try GraphvizRenderer.render(dot.text, as: .svg)
        }
    }

    @Test func aRepeatedAttributeKeepsItsLastValueAtItsFirstPlace() {
        var dot = DOTGraph()
        dot.addNode("n0", [.init("color", "#8e44ad"), .init("label", .text("x")), .init("color", "#b00020")])
        dot.addEdge(from: "n0", to: "n0", [.init("style", "dashed"), .init("style", "bold")])
        #expect(dot.nodes[0].attributes.map(\.name) == ["color", "label"])
        #expect(dot.nodes[0].attributes[0].value == "#b00020")
        #expect(dot.edges[0].attributes.map(\.value) == ["bold"])
    }
}
