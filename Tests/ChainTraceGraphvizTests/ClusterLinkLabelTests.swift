import ChainTrace
import ChainTraceAnalysis
import ChainTraceGraphviz
import ChainTraceTestSupport
import Testing

/// Graphviz 2.42 corrupts its heap laying out a labelled link between two nodes of one rank in a graph with a
/// cluster (a registry): a log of a chain relinked into a loop through a registry made `render` and `report` abort
/// ("corrupted double-linked list"). Generated chains with registries, loops and folded rows: every diagram with a
/// registry labels its links outside the layout (`xlabel`) and draws; one without keeps `label`.
@Suite("Link labels in diagrams with registries")
struct ClusterLinkLabelTests {
    static func labels(_ dot: DOTGraph) -> (inside: Int, outside: Int) {
        let names = dot.edges.flatMap { $0.attributes.map(\.name) }
        return (names.filter { $0 == "label" }.count, names.filter { $0 == "xlabel" }.count)
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func diagramsWithARegistryLabelTheirLinksOutsideTheLayoutAndDraw(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let hasRegistry = random.chance(0.7)
        let names = (0..<Int.random(in: 2...9, using: &random)).map { "H\($0)" }
        let members = hasRegistry ? (0..<Int.random(in: 1...3, using: &random)).map { "R/m\($0)" } : []
        var handlers = names.map { ChainGraph.Handler(name: $0) }
        if hasRegistry {
            handlers.append(ChainGraph.Handler(name: "R", isRegistry: true))
            handlers += members.enumerated().map { ChainGraph.Handler(name: $1, registry: "R", weight: $0) }
        }
        let line = names + (hasRegistry ? ["R"] : [])
        let graph = ChainGraph(
            name: "c",
            handlers: handlers,
            links: zip(line, line.dropFirst()).map { ChainGraph.Link(from: $0, to: $1) },
            entries: [line[0]]
        )
        // Paths that loop back (a chain relinked into a circle) and pass through the registry's members.
        func trace(_ index: Int) -> Trace {
            var path: [String] = []
            for _ in 0..<Int.random(in: 1...10, using: &random) {
                path.append(random.pick(line + members))
            }
            let hops = path.enumerated().map { position, name in
                Hop(handler: name, position: position, decision: .passed, inclusiveDuration: 100, selfDuration: 100)
            }
            return Trace(
                id: UInt64(index),
                commandKind: "K",
                commandID: "c\(index)",
                entry: path[0],
                chain: "c",
                hops: hops,
                outcome: .fellOffTheEnd,
                duration: 1
            )
        }
        let before = (0..<15).map(trace)
        let after = (0..<15).map(trace)
        let options = DiagramOptions(rowLength: Int.random(in: 2...4, using: &random))
        let diagrams = [
            ChainDiagram.path(before[0], over: graph, options: options),
            ChainDiagram.profile(ChainProfile(before), over: graph, options: options),
            ChainDiagram.profile(
                ChainProfile(before),
                over: ChainGraph(profile: ChainProfile(before)),
                options: options
            ),
            ChainDiagram.diff(before: ChainProfile(before), after: ChainProfile(after), over: graph, options: options),
        ]
        for dot in diagrams {
            let (inside, outside) = Self.labels(dot)
            let clustered = dot.subgraphs.contains { $0.id.hasPrefix("cluster") }
            #expect(
                clustered ? inside == 0 : outside == 0,
                "seed \(seed): \(inside) labels, \(outside) xlabels\n\(dot.text)"
            )
            _ = try GraphvizRenderer.render(dot.text, as: .svg)
        }
    }
}
