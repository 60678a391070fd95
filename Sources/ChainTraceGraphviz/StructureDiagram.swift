extension ChainDiagram {
    /// The chain's structure: handlers and observers, registries as clusters in weight order, links, entries.
    public static func structure(_ graph: ChainGraph, options: DiagramOptions = DiagramOptions()) -> DOTGraph {
        let canvas = DiagramCanvas(graph: graph, options: options)
        return canvas.dot(
            title: graph.name.isEmpty ? "An unnamed chain" : "Chain \(graph.name)",
            legend: [
                "\(DiagramText.plural(graph.handlers.count, "handler")), \(DiagramText.plural(graph.entries.count, "entry", "entries"))",
                shapesLegend(graph),
            ],
            options: options,
            node: { handler in
                roleAttributes(of: handler) + [
                    .init("label", DiagramText.label(name: handler.name, lines: roleLines(of: handler)))
                ]
            },
            link: linkAttributes,
            entryLink: { entry in
                entry.hidden > 0 ? [.init("style", "dashed"), .init("label", .text("⋯ \(entry.hidden) hidden"))] : []
            }
        )
    }
}
