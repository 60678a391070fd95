import ChainTrace

/// The four diagrams: a chain's structure, one command's path over it, a profile of many commands, and the
/// difference between two runs. Each returns a ``DOTGraph``; ``GraphvizRenderer`` turns it into SVG, PNG or PDF.
///
/// ```swift
/// let graph = ChainGraph(definition: try ChainDefinition.load(path: "chain.json"))
/// let dot = ChainDiagram.structure(graph).text
/// let svg = try GraphvizRenderer.render(dot, as: .svg).bytes
/// ```
public enum ChainDiagram {
    /// The lines every diagram puts under a handler's name for what it is (observer, weight, budget, origin).
    static func roleLines(of handler: ChainGraph.Handler) -> [String] {
        var lines: [String] = []
        if handler.isRegistry { lines.append("registry · asks its members") }
        if handler.role == .observer { lines.append("observer · continues") }
        if let weight = handler.weight { lines.append("weight \(weight)") }
        if let budget = handler.budgetNanoseconds { lines.append("budget \(DiagramText.nanoseconds(budget))") }
        if handler.isObservedOnly { lines.append("<i>not in the definition</i>") }
        return lines
    }

    /// Shape and outline for what a handler is: observers rounded and dashed, handlers only a log showed purple.
    static func roleAttributes(of handler: ChainGraph.Handler) -> [DOTGraph.Attribute] {
        var attributes: [DOTGraph.Attribute] = [.init("tooltip", .text(handler.name))]
        if handler.isRegistry { attributes.append(.init("shape", "folder")) }
        if handler.role == .observer { attributes.append(.init("style", "filled,rounded,dashed")) }
        if handler.isObservedOnly { attributes.append(.init("color", "#8e44ad")) }
        return attributes
    }

    /// A handler the diagram has nothing to say about (not visited, not reached), drawn grey with `note`.
    static func greyed(_ handler: ChainGraph.Handler, note: String) -> [DOTGraph.Attribute] {
        roleAttributes(of: handler) + [
            .init("color", "#c8c8c8"), .init("fontcolor", "#9a9a9a"),
            .init("label", DiagramText.label(name: handler.name, lines: roleLines(of: handler) + [note])),
        ]
    }

    /// The legend line explaining the shapes `graph` uses, shared by every diagram.
    static func shapesLegend(_ graph: ChainGraph) -> String {
        var parts = ["box: a handler (the chain stops where one accepts)"]
        if graph.handlers.contains(where: { $0.role == .observer }) {
            parts.append("rounded dashed box: an observer (continues)")
        }
        if graph.handlers.contains(where: \.isRegistry) {
            parts.append("folder in a dashed frame: a registry and its members")
        }
        if graph.handlers.contains(where: \.isObservedOnly) { parts.append("purple: only in the log") }
        return parts.joined(separator: " · ")
    }

    /// A link's base look: dashed and labelled when it skips hidden handlers, purple when only a log shows it.
    static func linkAttributes(_ link: DiagramCanvas.DrawnLink) -> [DOTGraph.Attribute] {
        var attributes: [DOTGraph.Attribute] = []
        if link.hidden > 0 {
            attributes += [
                .init("style", "dashed"),
                .init("label", .text("⋯ \(DiagramText.plural(link.hidden, "hidden handler"))")),
            ]
        }
        if link.isObservedOnly { attributes.append(.init("color", "#8e44ad")) }
        return attributes
    }
}
