import ChainTrace

/// What every diagram shares: which handlers are drawn, node identifiers, links contracted through hidden
/// handlers, long runs folded into rows, registries as clusters, the entry marker and the legend.
struct DiagramCanvas {
    /// A link between two drawn handlers, perhaps through hidden ones.
    struct DrawnLink {
        var from: String
        var to: String
        /// Hidden handlers skipped on the way; 0 for a direct link.
        var hidden: Int
        var isObservedOnly: Bool
    }

    let graph: ChainGraph
    /// The drawn handlers, in chain order.
    private(set) var drawn: [ChainGraph.Handler] = []
    /// Sentences about what is not drawn, for the legend.
    private(set) var hiddenNotes: [String] = []
    private var idByName: [String: String] = [:]
    private var drawnNames: Set<String> = []
    /// The graph's links by the handler they leave: the number (the place in ``nameOfNumber``) of the handler each
    /// goes to, and whether it is observed only, in the graph's order — walked through hidden handlers by number, not
    /// by name (see ``HiddenWalk``).
    private let outgoing: [[(to: Int, isObservedOnly: Bool)]]
    /// Every name a handler or link of the graph has, numbered: the handlers first, in order.
    private let nameOfNumber: [String]
    private let numberOfName: [String: Int]

    static let entryID = "entry"

    /// Turns the links' labels into `xlabel`s, placed after the layout, for a graph with clusters (registries).
    /// Graphviz 2.42 (Debian 12's) corrupts its heap laying out a labelled link between two nodes it puts on one
    /// rank when the graph has a cluster: `flat_edges` makes room for the label in the rank above by reallocating
    /// that rank's node list, which the clusters still point into, and frees it again when the layout is freed
    /// (the process aborts, or draws on). Which links end up on one rank depends on loops and on the order its
    /// tables happen to keep, so every link of such a graph is labelled outside the layout.
    static func labelLinksOutside(_ dot: inout DOTGraph) {
        for index in dot.edges.indices {
            dot.edges[index].attributes = dot.edges[index].attributes.map { attribute in
                attribute.name == "label" ? DOTGraph.Attribute("xlabel", attribute.value) : attribute
            }
        }
    }

    /// Chooses the drawn handlers: all but the ignored; with a focus only those and their neighbours; then, when
    /// `heat` is given and there are more than the maximum, the hottest.
    init(graph: ChainGraph, options: DiagramOptions, heat: ((String) -> Double)? = nil, heatUnit: String = "self time")
    {
        self.graph = graph
        var seenNames: Set<String> = []
        let nameOfNumber = (graph.handlers.map(\.name) + graph.links.flatMap { [$0.from, $0.to] }).filter {
            seenNames.insert($0).inserted
        }
        let numberOfName = Dictionary(uniqueKeysWithValues: nameOfNumber.enumerated().map { ($1, $0) })
        var outgoing = [[(to: Int, isObservedOnly: Bool)]](repeating: [], count: nameOfNumber.count)
        for link in graph.links {
            outgoing[numberOfName[link.from]!].append((numberOfName[link.to]!, link.isObservedOnly))
        }
        (self.outgoing, self.nameOfNumber, self.numberOfName) = (outgoing, nameOfNumber, numberOfName)
        for (index, handler) in graph.handlers.enumerated() { idByName[handler.name] = "h\(index)" }
        var names = graph.handlers.map(\.name)
        let ignored = Set(options.ignore)
        if !ignored.isEmpty {
            let before = names.count
            names.removeAll { ignored.contains($0) }
            if before > names.count {
                hiddenNotes.append(
                    "\(before - names.count) handler\(before - names.count == 1 ? "" : "s") hidden (ignored)"
                )
            }
        }
        if !options.focus.isEmpty {
            var kept = Set(options.focus)
            for link in graph.links where options.focus.contains(link.from) || options.focus.contains(link.to) {
                kept.insert(link.from)
                kept.insert(link.to)
            }
            let before = names.count
            names.removeAll { !kept.contains($0) }
            if before > names.count {
                hiddenNotes.append(
                    "\(before - names.count) handler\(before - names.count == 1 ? "" : "s") outside the focus hidden"
                )
            }
        }
        if let heat, let maximum = options.maximumHandlers, names.count > maximum {
            // Each handler's heat looked up once, not in every comparison.
            let ranked = names.enumerated().map { (offset: $0.offset, name: $0.element, heat: heat($0.element)) }
                .sorted { $0.heat != $1.heat ? $0.heat > $1.heat : $0.offset < $1.offset }
            let kept = Set(ranked.prefix(maximum).map(\.name))
            let threshold = ranked[maximum].heat
            let hidden = names.count - maximum
            names.removeAll { !kept.contains($0) }
            hiddenNotes.append(
                "\(hidden) of \(hidden + maximum) handlers hidden: the least \(heatUnit) (each ≤ \(DiagramText.nanoseconds(threshold))); a higher handler limit shows more"
            )
        }
        drawnNames = Set(names)
        drawn = graph.handlers.filter { drawnNames.contains($0.name) }
    }

    func id(of name: String) -> String { idByName[name] ?? "missing" }

    func isDrawn(_ name: String) -> Bool { drawnNames.contains(name) }

    /// The links between drawn handlers; a link into a hidden handler is followed until it reaches drawn ones.
    /// Each drawn handler's links are followed in order, breadth first, and a drawn handler reached again keeps the
    /// first link's count of hidden handlers (and whether it was observed only).
    ///
    /// A handler keeps at most ``maximumLinksThroughHidden`` links through hidden handlers — those with the fewest
    /// hidden on the way (then in order) — and `leftOut` counts the rest: with most handlers hidden, every drawn one
    /// may reach every other through them, and a profile of 80 drawn handlers among 50 000 (one forwarding to all)
    /// had 6 321 links, which Graphviz was still laying out after nine minutes.
    func drawnLinks() -> (links: [DrawnLink], leftOut: Int) {
        var result: [DrawnLink] = []
        var leftOut = 0
        var walk = HiddenWalk(canvas: self)
        for handler in drawn {
            guard let from = numberOfName[handler.name] else { continue }
            walk.restart()
            var own: [DrawnLink] = []
            for link in outgoing[from] {
                walk.reach(from: link.to) { target, hidden in
                    own.append(
                        DrawnLink(
                            from: handler.name,
                            to: nameOfNumber[target],
                            hidden: hidden,
                            isObservedOnly: link.isObservedOnly
                        )
                    )
                }
            }
            let throughHidden = own.indices.filter { own[$0].hidden > 0 }
            if throughHidden.count > Self.maximumLinksThroughHidden {
                let kept = Set(
                    throughHidden.sorted { (own[$0].hidden, $0) < (own[$1].hidden, $1) }.prefix(
                        Self.maximumLinksThroughHidden
                    )
                )
                leftOut += throughHidden.count - kept.count
                own = own.indices.filter { own[$0].hidden == 0 || kept.contains($0) }.map { own[$0] }
            }
            result += own
        }
        return (result, leftOut)
    }

    /// The most links through hidden handlers one drawn handler keeps (see ``drawnLinks()``). Two: a profile of 80
    /// drawn handlers among 10 000 had 325 links with four, which Graphviz took 5.1 s to lay out, and 165 with
    /// two, 0.64 s (`chaintrace report` of its log: 6.2 s, 1.7 s).
    static var maximumLinksThroughHidden: Int { 2 }

    /// How many links make a diagram one whose layout is bounded (see ``dot(title:legend:options:node:link:entryLink:extra:)``).
    static var manyLinks: Int { 200 }

    /// The drawn handlers commands enter at, each with how many hidden handlers precede it.
    func drawnEntries() -> [(name: String, hidden: Int)] {
        var result: [(name: String, hidden: Int)] = []
        var walk = HiddenWalk(canvas: self)
        for entry in graph.entries {
            guard let start = numberOfName[entry] else { continue }
            walk.reach(from: start) { result.append((nameOfNumber[$0], $1)) }
        }
        return result
    }

    /// The drawn handlers reachable from several starts in turn through hidden handlers only, breadth first (fewest
    /// skipped), each found once: from the first start that reaches it.
    ///
    /// One walk for all the starts: a hidden handler an earlier start went through is not gone through again, for
    /// every drawn handler past it was found then — and a later start's shortest way to a drawn handler not found
    /// yet passes through no hidden handler walked already, so the answers are those of a fresh walk from each start
    /// (`DiagramCanvasReachTests` compares the two). Handlers are walked by number, marked with the walk's
    /// generation. A fresh walk by name from each of a handler's links went through every hidden handler once a
    /// link: a report of a log of 50 000 handler names, one handler forwarding to all of them, was still drawing
    /// its profile after four minutes; with one walk by name a handler, the links took 2.6 s; by number, 0.17 s.
    private struct HiddenWalk {
        private let outgoing: [[(to: Int, isObservedOnly: Bool)]]
        private let isDrawn: [Bool]
        /// For each handler, the generation of the walk that went through or found it last.
        private var mark: [Int]
        private var generation = 0

        init(canvas: DiagramCanvas) {
            outgoing = canvas.outgoing
            isDrawn = canvas.nameOfNumber.map(canvas.isDrawn)
            mark = Array(repeating: -1, count: canvas.nameOfNumber.count)
        }

        /// Starts another walk: every handler unseen again.
        mutating func restart() { generation += 1 }

        mutating func reach(from start: Int, _ found: (_ handler: Int, _ hidden: Int) -> Void) {
            guard mark[start] != generation else { return }
            mark[start] = generation
            if isDrawn[start] { return found(start, 0) }
            var frontier = [start]
            var depth = 1
            while !frontier.isEmpty {
                var next: [Int] = []
                for handler in frontier {
                    for (target, _) in outgoing[handler] where mark[target] != generation {
                        mark[target] = generation
                        if isDrawn[target] { found(target, depth) } else { next.append(target) }
                    }
                }
                frontier = next
                depth += 1
            }
        }
    }

    /// The DOT graph: title and legend on top, the entry marker, the nodes (registries as clusters, long runs
    /// folded into rows), the links, and whatever `extra` adds.
    func dot(
        title: String,
        legend: [String],
        options: DiagramOptions,
        node: (ChainGraph.Handler) -> [DOTGraph.Attribute],
        link: (DrawnLink) -> [DOTGraph.Attribute],
        entryLink: ((name: String, hidden: Int)) -> [DOTGraph.Attribute],
        extra: (inout DOTGraph) -> Void = { _ in }
    ) -> DOTGraph {
        var dot = DOTGraph()
        let (links, leftOut) = drawnLinks()
        var notes = hiddenNotes
        if leftOut > 0 {
            notes.append(
                "\(leftOut) link\(leftOut == 1 ? "" : "s") through hidden handlers not drawn: each handler keeps its \(Self.maximumLinksThroughHidden) shortest"
            )
        }
        let legendRows = (legend + notes).map { "<tr><td align=\"left\">\($0)</td></tr>" }.joined()
        dot.attributes = [
            .init("rankdir", .bare("TB")), .init("nodesep", .number(0.3)), .init("ranksep", .number(0.45)),
            .init("fontname", "Helvetica"), .init("fontsize", .number(11)), .init("labelloc", "t"),
            .init("labeljust", "l"),
            .init(
                "label",
                .html(
                    "<table border=\"0\" cellborder=\"0\" cellspacing=\"0\" cellpadding=\"1\"><tr><td align=\"left\"><font point-size=\"14\"><b>\(DOTText.html(title))</b></font></td></tr>\(legendRows)</table>"
                )
            ),
        ]
        dot.nodeDefaults = [
            .init("shape", "box"), .init("style", "filled"), .init("fillcolor", "white"),
            .init("fontname", "Helvetica"), .init("fontsize", .number(11)),
        ]
        dot.edgeDefaults = [
            .init("fontname", "Helvetica"), .init("fontsize", .number(9)), .init("arrowsize", .number(0.7)),
        ]
        dot.addNode(
            Self.entryID,
            [
                .init("shape", "circle"), .init("label", "in"), .init("width", .number(0.35)),
                .init("fixedsize", .bare("true")), .init("fillcolor", "#eeeeee"),
                .init("tooltip", "where commands enter"),
            ]
        )
        for handler in drawn { dot.addNode(id(of: handler.name), node(handler)) }
        for (index, registry) in graph.registries.enumerated() {
            let members = registry.members.filter(isDrawn)
            guard !members.isEmpty else { continue }
            dot.subgraphs.append(
                DOTGraph.Subgraph(
                    id: "cluster_registry\(index)",
                    attributes: [
                        .init(
                            "label",
                            .html("registry <b>\(DOTText.htmlName(registry.name))</b> — asked in weight order")
                        ),
                        .init("style", "rounded,dashed"), .init("color", "#7a7a7a"), .init("fontsize", .number(10)),
                    ],
                    nodeIDs: members.map(id(of:))
                )
            )
        }
        let rows = rows(links: links, length: options.rowLength)
        var wraps: Set<String> = []
        for (index, row) in rows.enumerated() {
            dot.subgraphs.append(
                DOTGraph.Subgraph(id: "row\(index)", attributes: [.init("rank", "same")], nodeIDs: row.map(id(of:)))
            )
        }
        // Rows read like text: each starts under the one before (an invisible, heavy edge), and the link from a
        // row's end to the next row's start pulls on nothing.
        for (row, next) in zip(rows, rows.dropFirst()) {
            guard let last = row.last, let first = next.first,
                links.contains(where: { $0.from == last && $0.to == first })
            else { continue }
            wraps.insert(last + "\u{0}" + first)
            dot.addEdge(
                from: id(of: row[0]),
                to: id(of: next[0]),
                [.init("style", "invis"), .init("weight", .bare("100"))]
            )
        }
        for entry in drawnEntries() { dot.addEdge(from: Self.entryID, to: id(of: entry.name), entryLink(entry)) }
        for drawnLink in links {
            var attributes = link(drawnLink)
            if wraps.contains(drawnLink.from + "\u{0}" + drawnLink.to) {
                attributes.append(.init("weight", .bare("0")))
            }
            dot.addEdge(from: id(of: drawnLink.from), to: id(of: drawnLink.to), attributes)
        }
        extra(&dot)
        if dot.subgraphs.contains(where: { $0.id.hasPrefix("cluster") }) { Self.labelLinksOutside(&dot) }
        if dot.edges.count > Self.manyLinks {
            // Fewer passes of network simplex, which places ranks and nodes: Graphviz laid out 81 handlers with 321
            // links through hidden ones in 16.6 s with its default, 5.1 s so. Smaller diagrams keep the default.
            dot.attributes += [.init("nslimit", .number(3)), .init("nslimit1", .number(3))]
        }
        return dot
    }

    /// Straight runs (each handler with one link in and one out, outside registries) longer than `length`,
    /// cut into rows of `length`.
    private func rows(links: [DrawnLink], length: Int) -> [[String]] {
        var incoming: [String: Int] = [:]
        var successors: [String: [String]] = [:]
        for link in links {
            incoming[link.to, default: 0] += 1
            successors[link.from, default: []].append(link.to)
        }
        var predecessors: [String: [String]] = [:]
        for link in links { predecessors[link.to, default: []].append(link.from) }
        let inRegistry = Set(graph.handlers.filter { $0.registry != nil }.map(\.name))
        let straight = { (name: String) -> Bool in !inRegistry.contains(name) }
        var placed: Set<String> = []
        var rows: [[String]] = []
        for handler in drawn where !placed.contains(handler.name) && straight(handler.name) {
            // A run starts where the line is not continued from a single straight predecessor.
            let before = predecessors[handler.name] ?? []
            if before.count == 1, let predecessor = before.first, straight(predecessor),
                successors[predecessor]?.count == 1, !placed.contains(predecessor), predecessor != handler.name
            {
                continue
            }
            var run = [handler.name]
            placed.insert(handler.name)
            var current = handler.name
            while let targets = successors[current], targets.count == 1, let next = targets.first,
                incoming[next] == 1, straight(next), !placed.contains(next)
            {
                run.append(next)
                placed.insert(next)
                current = next
            }
            if run.count > length {
                rows += stride(from: 0, to: run.count, by: length).map { Array(run[$0..<min($0 + length, run.count)]) }
            }
        }
        return rows
    }
}
