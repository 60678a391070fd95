import ChainTraceTestSupport
import Testing

@testable import ChainTraceGraphviz

/// A diagram's links between drawn handlers, contracted through hidden ones, against the plain walk they replace: a
/// fresh breadth-first walk by name from each of a drawn handler's links, a drawn handler reached again keeping the
/// first link's count — then at most ``DiagramCanvas/maximumLinksThroughHidden`` links through hidden handlers a
/// handler, the fewest hidden first. Generated graphs (chains, trees, loops, hubs linking to every handler, links to
/// names no handler has) with random handlers hidden; the entries too.
@Suite("Links through hidden handlers")
struct DiagramCanvasReachTests {
    /// The drawn handlers reachable from `start` through hidden ones, breadth first: the walk before.
    static func reach(from start: String, outgoing: [String: [ChainGraph.Link]], isDrawn: (String) -> Bool) -> [(
        String, Int
    )] {
        if isDrawn(start) { return [(start, 0)] }
        var found: [(String, Int)] = []
        var seen: Set<String> = [start]
        var frontier = [start]
        var depth = 1
        while !frontier.isEmpty {
            var next: [String] = []
            for name in frontier {
                for link in outgoing[name] ?? [] where seen.insert(link.to).inserted {
                    if isDrawn(link.to) { found.append((link.to, depth)) } else { next.append(link.to) }
                }
            }
            frontier = next
            depth += 1
        }
        return found
    }

    static func graph(_ random: inout SeededGenerator) -> ChainGraph {
        let names = (0..<Int.random(in: 1...40, using: &random)).map { "H\($0)" }
        var links: [ChainGraph.Link] = []
        switch Int.random(in: 0...3, using: &random) {
        case 0:  // a chain
            links = zip(names, names.dropFirst()).map { ChainGraph.Link(from: $0, to: $1) }
        case 1:  // a hub forwarding to every other, which forward on at random
            links = names.dropFirst().map { ChainGraph.Link(from: names[0], to: $0) }
            links += names.dropFirst().compactMap { name in
                random.chance(0.5) ? ChainGraph.Link(from: name, to: random.pick(names)) : nil
            }
        default:  // random links, loops included
            for _ in 0..<Int.random(in: 0...(names.count * 3), using: &random) {
                links.append(
                    ChainGraph.Link(
                        from: random.pick(names),
                        to: random.pick(names),
                        isObservedOnly: random.chance(0.3)
                    )
                )
            }
        }
        // Now and then a link to a name no handler has.
        if random.chance(0.2) { links.append(ChainGraph.Link(from: random.pick(names), to: "Elsewhere")) }
        var seenPairs: Set<[String]> = []
        links = links.filter { seenPairs.insert([$0.from, $0.to]).inserted }
        let entries = Array(
            Set((0..<Int.random(in: 1...3, using: &random)).map { _ in random.pick(names + ["Nowhere"]) })
        ).sorted()
        return ChainGraph(
            name: "c",
            handlers: names.map { ChainGraph.Handler(name: $0) },
            links: links,
            entries: entries
        )
    }

    @Test(arguments: SeededGenerator.seeds(400))
    func linksAreThoseOfAFreshWalkFromEachLinkCapped(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let graph = Self.graph(&random)
        let ignored = graph.handlers.map(\.name).filter { _ in random.chance(random.pick([0.0, 0.3, 0.7, 0.95])) }
        let canvas = DiagramCanvas(graph: graph, options: DiagramOptions(ignore: ignored))
        let outgoing = Dictionary(grouping: graph.links, by: \.from)
        let isDrawn = { (name: String) in graph.handlers.contains { $0.name == name } && !ignored.contains(name) }

        var expected: [DiagramCanvas.DrawnLink] = []
        var expectedLeftOut = 0
        for handler in graph.handlers where isDrawn(handler.name) {
            var own: [DiagramCanvas.DrawnLink] = []
            var targets: Set<String> = []
            for link in outgoing[handler.name] ?? [] {
                for (target, hidden) in Self.reach(from: link.to, outgoing: outgoing, isDrawn: isDrawn)
                where targets.insert(target).inserted {
                    own.append(
                        DiagramCanvas.DrawnLink(
                            from: handler.name,
                            to: target,
                            hidden: hidden,
                            isObservedOnly: link.isObservedOnly
                        )
                    )
                }
            }
            let through = own.enumerated().filter { $0.element.hidden > 0 }
            let kept = Set(
                through.sorted { ($0.element.hidden, $0.offset) < ($1.element.hidden, $1.offset) }
                    .prefix(DiagramCanvas.maximumLinksThroughHidden).map(\.offset)
            )
            expectedLeftOut += through.count - kept.count
            expected += own.enumerated().filter { $0.element.hidden == 0 || kept.contains($0.offset) }.map(\.element)
        }
        let (links, leftOut) = canvas.drawnLinks()
        let describe = { (links: [DiagramCanvas.DrawnLink]) in
            links.map { "\($0.from)→\($0.to)/\($0.hidden)/\($0.isObservedOnly)" }
        }
        #expect(describe(links) == describe(expected), "seed \(seed)")
        #expect(leftOut == expectedLeftOut, "seed \(seed)")

        var entries: [(name: String, hidden: Int)] = []
        for entry in graph.entries {
            for (target, hidden) in Self.reach(from: entry, outgoing: outgoing, isDrawn: isDrawn)
            where !entries.contains(where: { $0.name == target }) {
                entries.append((target, hidden))
            }
        }
        #expect(
            canvas.drawnEntries().map { "\($0.name)/\($0.hidden)" } == entries.map { "\($0.name)/\($0.hidden)" },
            "seed \(seed)"
        )

        // The diagram says how many it left out, and bounds its layout when it has many links.
        let dot = canvas.dot(
            title: "t",
            legend: [],
            options: DiagramOptions(ignore: ignored),
            node: { _ in [] },
            link: { _ in [] },
            entryLink: { _ in [] }
        )
        #expect(dot.text.contains("through hidden handlers not drawn") == (leftOut > 0), "seed \(seed)")
        #expect(dot.text.contains("nslimit") == (dot.edges.count > DiagramCanvas.manyLinks), "seed \(seed)")
    }

    /// Handlers named per instance: 1 500 screens a window forwards to, each on to three others, nearly all hidden. Each
    /// drawn handler reaches every other through hidden ones; the diagram keeps a few links each, says how many it
    /// left out, and bounds its layout — and Graphviz lays it out.
    @Test func aHubAmongThousandsOfHiddenHandlersStaysDrawable() throws {
        var random = SeededGenerator(seed: 7)
        let screens = (0..<1_500).map { "Screen#\($0)" }
        let links =
            screens.map { ChainGraph.Link(from: "Window", to: $0) }
            + screens.flatMap { screen in
                Set((0..<3).map { _ in random.pick(screens) }).sorted().map { ChainGraph.Link(from: screen, to: $0) }
            }
        let graph = ChainGraph(
            name: "ui",
            handlers: [ChainGraph.Handler(name: "Window")] + screens.map { ChainGraph.Handler(name: $0) },
            links: links,
            entries: ["Window"]
        )
        let drawn = Set(["Window"] + screens.filter { _ in random.chance(0.02) })
        let options = DiagramOptions(ignore: screens.filter { !drawn.contains($0) })
        let canvas = DiagramCanvas(graph: graph, options: options)
        let (drawnLinks, leftOut) = canvas.drawnLinks()
        #expect(leftOut > 0)
        #expect(drawnLinks.filter { $0.hidden > 0 }.count <= drawn.count * DiagramCanvas.maximumLinksThroughHidden)
        let dot = ChainDiagram.structure(graph, options: options)
        #expect(dot.text.contains("through hidden handlers not drawn"))
        #expect(dot.text.contains("nslimit") == (dot.edges.count > DiagramCanvas.manyLinks))
        _ = try GraphvizRenderer.render(dot.text, as: .svg)
        // More of them drawn: over 200 links, laid out with fewer network-simplex passes (not laid out here).
        let more = DiagramOptions(ignore: screens.filter { _ in random.chance(0.85) })
        let large = ChainDiagram.structure(graph, options: more)
        #expect(large.edges.count > DiagramCanvas.manyLinks)
        #expect(large.text.contains("nslimit=3"))
    }
}
