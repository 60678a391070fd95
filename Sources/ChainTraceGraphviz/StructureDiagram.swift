extension ChainDiagram {
    /// The chain's structure: handlers and observers, registries as clusters in weight order, links, entries.
    public static func structure(_ graph: ChainGraph, options: DiagramOptions = DiagramOptions()) -> DOTGraph {
        let canvas = DiagramCanvas(graph: graph, options: options)
        let entries = graph.entries.count
        return canvas.dot(
            title: "Chain \(graph.name)",
            legend: [
                "\(DiagramText.plural(graph.handlers.count, "handler")), \(DiagramText.plural(entries, "entry").replacingLastWord(entries == 1 ? "entry" : "entries"))",
                shapesLegend(graph),
            ],
            options: options,
            node: { handler in
                roleAttributes(of: handler) + [.init("label", DiagramText.label(name: handler.name, lines: roleLines(of: handler)))]
            },
            link: linkAttributes,
            entryLink: { entry in
                entry.hidden > 0 ? [.init("style", "dashed"), .init("label", .text("⋯ \(entry.hidden) hidden"))] : []
            })
    }
}

extension String {
    /// The text with its last word replaced.
    func replacingLastWord(_ word: String) -> String {
        guard let space = lastIndex(of: " ") else { return word }
        return String(self[...space]) + word
    }
}
