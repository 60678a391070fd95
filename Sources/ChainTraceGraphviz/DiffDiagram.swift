public import ChainTraceAnalysis

extension ChainDiagram {
    /// What changed between two runs of the same commands: handlers slower (red) or faster (green) — the p95 self
    /// time moved by at least 10% and 100 ns, and the runs' self times differ by a rank test (`LatencyChange`) —,
    /// handlers only one run reached, and links that appeared (green, bold) or vanished (red, dashed).
    public static func diff(
        before: ChainProfile,
        after: ChainProfile,
        over graph: ChainGraph,
        options: DiagramOptions = DiagramOptions()
    ) -> DOTGraph {
        var graph = graph
        graph.addObserved(before)
        graph.addObserved(after)
        let changes = Dictionary(
            LatencyChange.between(before, after).map { ($0.handler, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        let edgesBefore = before.edges
        let edgesAfter = after.edges
        let canvas = DiagramCanvas(
            graph: graph,
            options: options,
            heat: { name in
                Double(
                    max(
                        before.statistics(of: name)?.totalSelfNanoseconds ?? 0,
                        after.statistics(of: name)?.totalSelfNanoseconds ?? 0
                    )
                )
            }
        )
        let counts = Dictionary(grouping: changes.values, by: \.verdict).mapValues(\.count)
        let appeared = edgesAfter.keys.filter { edgesBefore[$0] == nil }.count
        let vanished = edgesBefore.keys.filter { edgesAfter[$0] == nil }.count
        let legend = [
            "\(before.commands) → \(after.commands) commands · \(counts[.slower] ?? 0) slower, \(counts[.faster] ?? 0) faster, \(counts[.new] ?? 0) new, \(counts[.gone] ?? 0) gone · \(appeared) links appeared, \(vanished) vanished",
            "red: p95 self time rose · green: fell (by ≥ 10% and ≥ 100ns, and the self times differ: Mann–Whitney p below 0.05) · blue: only the second run reached it · grey dashed: only the first",
            "links: green bold appeared · red dashed vanished · label: commands before → after",
            shapesLegend(graph),
        ]
        return canvas.dot(
            title: "Difference in \(DiagramText.chainName(graph.name))",
            legend: legend,
            options: options,
            node: { handler in
                guard let change = changes[handler.name] else { return greyed(handler, note: "reached by neither") }
                var attributes = roleAttributes(of: handler)
                var lines = roleLines(of: handler)
                let p95 =
                    "p95 \(DiagramText.nanoseconds(change.p95Before)) → \(DiagramText.nanoseconds(change.p95After))"
                switch change.verdict {
                case .slower, .faster, .unchanged:
                    let ratio = change.p95RatioText.map { " (\(DOTText.html($0)))" } ?? ""
                    lines.append(p95 + ratio)
                case .new: lines.append("new · p95 \(DiagramText.nanoseconds(change.p95After))")
                case .gone: lines.append("gone · p95 was \(DiagramText.nanoseconds(change.p95Before))")
                }
                lines.append("seen \(change.seenBefore) → \(change.seenAfter)")
                let look: [DOTGraph.Attribute] =
                    switch change.verdict {
                    case .slower:
                        [.init("fillcolor", "#f8c9c4"), .init("color", "#b00020"), .init("penwidth", .number(2))]
                    case .faster:
                        [.init("fillcolor", "#cdebd3"), .init("color", "#1b7a34"), .init("penwidth", .number(2))]
                    case .new: [.init("fillcolor", "#d6e6fa"), .init("color", "#1f5fbf")]
                    case .gone:
                        [.init("style", "filled,dashed"), .init("fillcolor", "#f2f2f2"), .init("color", "#8a8a8a")]
                    case .unchanged: []
                    }
                attributes +=
                    look + [
                        .init(
                            "label",
                            DiagramText.label(name: handler.name, lines: lines + ["<i>\(change.verdict.rawValue)</i>"])
                        )
                    ]
                return attributes
            },
            link: { link in
                guard link.hidden == 0 else { return linkAttributes(link) }
                let edge = ChainProfile.Edge(from: link.from, to: link.to)
                return change(before: edgesBefore[edge], after: edgesAfter[edge])
            },
            entryLink: { entry in
                guard entry.hidden == 0 else { return [.init("style", "dashed")] }
                let edge = ChainProfile.Edge(from: nil, to: entry.name)
                return change(before: edgesBefore[edge], after: edgesAfter[edge])
            }
        )
    }

    private static func change(before: Int?, after: Int?) -> [DOTGraph.Attribute] {
        switch (before, after) {
        case (nil, nil):
            [.init("color", "#c8c8c8"), .init("style", "dashed")]
        case (nil, let after?):
            [
                .init("color", "#1b7a34"), .init("penwidth", .number(2.5)), .init("fontcolor", "#1b7a34"),
                .init("label", .text("new · \(after)")),
            ]
        case (let before?, nil):
            [
                .init("color", "#b00020"), .init("style", "dashed"), .init("fontcolor", "#b00020"),
                .init("label", .text("gone · \(before)")),
            ]
        case (let before?, let after?):
            [.init("color", "#555555"), .init("label", .text("\(before) → \(after)"))]
        }
    }
}
