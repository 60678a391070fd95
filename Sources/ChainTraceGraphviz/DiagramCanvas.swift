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
    /// The graph's links by the handler they leave.
    private let outgoing: [String: [ChainGraph.Link]]

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
    init(graph: ChainGraph, options: DiagramOptions, heat: ((String) -> Double)? = nil, heatUnit: String = "self time") {
        self.graph = graph
        outgoing = Dictionary(grouping: graph.links, by: \.from)
        for (index, handler) in graph.handlers.enumerated() { idByName[handler.name] = "h\(index)" }
        var names = graph.handlers.map(\.name)
        let ignored = Set(options.ignore)
        if !ignored.isEmpty {
            let before = names.count
            names.removeAll { ignored.contains($0) }
            if before > names.count { hiddenNotes.append("\(before - names.count) handler\(before - names.count == 1 ? "" : "s") hidden (ignored)") }
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
                hiddenNotes.append("\(before - names.count) handler\(before - names.count == 1 ? "" : "s") outside the focus hidden")
            }
        }
        if let heat, let maximum = options.maximumHandlers, names.count > maximum {
            let ranked = names.enumerated().sorted { heat($0.element) != heat($1.element) ? heat($0.element) > heat($1.element) : $0.offset < $1.offset }
            let kept = Set(ranked.prefix(maximum).map(\.element))
            let threshold = heat(ranked[maximum].element)
            let hidden = names.count - maximum
            names.removeAll { !kept.contains($0) }
            hiddenNotes.append(
                "\(hidden) of \(hidden + maximum) handlers hidden: the least \(heatUnit) (each ≤ \(DiagramText.nanoseconds(threshold))); a higher handler limit shows more")
        }
        drawnNames = Set(names)
        drawn = graph.handlers.filter { drawnNames.contains($0.name) }
    }

    func id(of name: String) -> String { idByName[name] ?? "missing" }

    func isDrawn(_ name: String) -> Bool { drawnNames.contains(name) }

    /// The links between drawn handlers; a link into a hidden handler is followed until it reaches drawn ones.
    func drawnLinks() -> [DrawnLink] {
        var result: [DrawnLink] = []
        for handler in drawn {
            var targets: Set<String> = []
            for link in outgoing[handler.name] ?? [] {
                for (target, hidden) in reach(from: link.to) {
                    guard targets.insert(target).inserted else { continue }
                    result.append(DrawnLink(from: handler.name, to: target, hidden: hidden, isObservedOnly: link.isObservedOnly))
                }
            }
        }
        return result
    }

    /// The drawn handlers commands enter at, each with how many hidden handlers precede it.
    func drawnEntries() -> [(name: String, hidden: Int)] {
        var result: [(name: String, hidden: Int)] = []
        for entry in graph.entries {
            for (target, hidden) in reach(from: entry) where !result.contains(where: { $0.name == target }) {
                result.append((target, hidden))
            }
        }
        return result
    }

    /// The drawn handlers reachable from `start` through hidden ones only (breadth first, fewest skipped).
    private func reach(from start: String) -> [(String, Int)] {
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
        let legendRows = (legend + hiddenNotes).map { "<tr><td align=\"left\">\($0)</td></tr>" }.joined()
        dot.attributes = [
            .init("rankdir", .bare("TB")), .init("nodesep", .number(0.3)), .init("ranksep", .number(0.45)),
            .init("fontname", "Helvetica"), .init("fontsize", .number(11)), .init("labelloc", "t"), .init("labeljust", "l"),
            .init("label", .html(
                "<table border=\"0\" cellborder=\"0\" cellspacing=\"0\" cellpadding=\"1\"><tr><td align=\"left\"><font point-size=\"14\"><b>\(DOTText.html(title))</b></font></td></tr>\(legendRows)</table>")),
        ]
        dot.nodeDefaults = [.init("shape", "box"), .init("style", "filled"), .init("fillcolor", "white"), .init("fontname", "Helvetica"), .init("fontsize", .number(11))]
        dot.edgeDefaults = [.init("fontname", "Helvetica"), .init("fontsize", .number(9)), .init("arrowsize", .number(0.7))]
        dot.addNode(Self.entryID, [.init("shape", "circle"), .init("label", "in"), .init("width", .number(0.35)), .init("fixedsize", .bare("true")), .init("fillcolor", "#eeeeee"), .init("tooltip", "where commands enter")])
        for handler in drawn { dot.addNode(id(of: handler.name), node(handler)) }
        for (index, registry) in graph.registries.enumerated() {
            let members = registry.members.filter(isDrawn)
            guard !members.isEmpty else { continue }
            dot.subgraphs.append(DOTGraph.Subgraph(
                id: "cluster_registry\(index)",
                attributes: [
                    .init("label", .html("registry <b>\(DOTText.htmlName(registry.name))</b> — asked in weight order")),
                    .init("style", "rounded,dashed"), .init("color", "#7a7a7a"), .init("fontsize", .number(10)),
                ],
                nodeIDs: members.map(id(of:))))
        }
        let links = drawnLinks()
        let rows = rows(links: links, length: options.rowLength)
        var wraps: Set<String> = []
        for (index, row) in rows.enumerated() {
            dot.subgraphs.append(DOTGraph.Subgraph(id: "row\(index)", attributes: [.init("rank", "same")], nodeIDs: row.map(id(of:))))
        }
        // Rows read like text: each starts under the one before (an invisible, heavy edge), and the link from a
        // row's end to the next row's start pulls on nothing.
        for (row, next) in zip(rows, rows.dropFirst()) {
            guard let last = row.last, let first = next.first, links.contains(where: { $0.from == last && $0.to == first })
            else { continue }
            wraps.insert(last + "\u{0}" + first)
            dot.addEdge(from: id(of: row[0]), to: id(of: next[0]), [.init("style", "invis"), .init("weight", .bare("100"))])
        }
        for entry in drawnEntries() { dot.addEdge(from: Self.entryID, to: id(of: entry.name), entryLink(entry)) }
        for drawnLink in links {
            var attributes = link(drawnLink)
            if wraps.contains(drawnLink.from + "\u{0}" + drawnLink.to) { attributes.append(.init("weight", .bare("0"))) }
            dot.addEdge(from: id(of: drawnLink.from), to: id(of: drawnLink.to), attributes)
        }
        extra(&dot)
        if dot.subgraphs.contains(where: { $0.id.hasPrefix("cluster") }) { Self.labelLinksOutside(&dot) }
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
