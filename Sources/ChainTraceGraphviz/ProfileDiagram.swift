import ChainTrace
public import ChainTraceAnalysis

extension ChainDiagram {
    /// A profile of many commands, drawn by pprof's rules: a handler's font grows with its self time, its fill
    /// darkens with its share of all self time, a link's width grows with the commands that went along it.
    /// Handlers the slow-handler rule flags get a red border, and the legend states the rule and the numbers
    /// behind each flag. Beyond ``DiagramOptions/maximumHandlers`` only the hottest handlers are drawn.
    public static func profile(
        _ profile: ChainProfile,
        over graph: ChainGraph,
        options: DiagramOptions = DiagramOptions()
    ) -> DOTGraph {
        var graph = graph
        graph.addObserved(profile)
        var profile = profile
        for handler in graph.handlers
        where handler.budgetNanoseconds != nil && profile.statistics(of: handler.name)?.budgetNanoseconds == nil {
            profile.declare(handler.name, budgetNanoseconds: handler.budgetNanoseconds)
        }
        let flags = options.slowRule.flags(in: profile)
        let flagged = Dictionary(flags.map { ($0.handler, $0) }, uniquingKeysWith: { first, _ in first })
        let totalSelf = Double(profile.totalSelfNanoseconds)
        let largestSelf = Double(profile.handlers.map(\.totalSelfNanoseconds).max() ?? 0)
        let edges = profile.edges
        let largestCount = Double(edges.values.max() ?? 0)
        let canvas = DiagramCanvas(
            graph: graph,
            options: options,
            heat: { Double(profile.statistics(of: $0)?.totalSelfNanoseconds ?? 0) }
        )
        var legend = [
            "\(DiagramText.plural(profile.commands, "command")): \(profile.accepted) accepted, \(profile.fellOffTheEnd) fell off the end, \(profile.failed) failed · all self time \(DiagramText.nanoseconds(totalSelf))",
            "font size grows with self time (10–30 pt, √ scale) · fill: share of all self time, white 0% → red 100% (√ scale) · link width and label: commands along it",
            "⚠ red border: slow — \(DOTText.html(options.slowRule.description))",
        ]
        legend += flags.map {
            "⚠ <b>\(DOTText.htmlName($0.handler))</b>: \(DOTText.html($0.reasons.joined(separator: "; ")))"
        }
        if flags.isEmpty { legend.append("no handler is slow by this rule") }
        legend.append(shapesLegend(graph))
        return canvas.dot(
            title: "Profile of \(DiagramText.chainName(graph.name))",
            legend: legend,
            options: options,
            node: { handler in
                guard let statistics = profile.statistics(of: handler.name), statistics.seen > 0 else {
                    return greyed(handler, note: "not reached")
                }
                var attributes = roleAttributes(of: handler)
                let selfTime = Double(statistics.totalSelfNanoseconds)
                let share = totalSelf > 0 ? selfTime / totalSelf : 0
                let size = 10 + 20 * (largestSelf > 0 ? (selfTime / largestSelf).squareRoot() : 0)
                var lines = roleLines(of: handler)
                lines.append(
                    "self p50 \(DiagramText.nanoseconds(statistics.selfTime(atPercentile: 50))) · p95 \(DiagramText.nanoseconds(statistics.selfTime(atPercentile: 95)))"
                )
                lines.append("\(DiagramText.percent(share)) of self time · \(statistics.seen) seen")
                lines.append(
                    Decision.allCases.compactMap { decision in
                        let count = statistics.count(of: decision)
                        return count > 0 ? "\(count) \(decision.rawValue)" : nil
                    }.joined(separator: " · ")
                )
                var mark = ""
                if let flag = flagged[handler.name] {
                    mark = "⚠ "
                    let colour = share > 0.5 ? "#ffffff" : "#b00020"
                    lines.append(
                        "<font color=\"\(colour)\"><b>slow:</b> \(DOTText.html(flag.reasons.joined(separator: "; ")))</font>"
                    )
                    attributes += [.init("color", "#b00020"), .init("penwidth", .number(3))]
                }
                attributes += [
                    .init("fontsize", .number(size)),
                    .init("fillcolor", .text(DiagramText.blend((255, 255, 255), (215, 48, 39), share.squareRoot()))),
                    .init("label", DiagramText.label(name: handler.name, mark: mark, lines: lines)),
                ]
                if share > 0.5 { attributes.append(.init("fontcolor", "white")) }
                return attributes
            },
            link: { link in
                let count = link.hidden == 0 ? edges[ChainProfile.Edge(from: link.from, to: link.to)] ?? 0 : 0
                guard count > 0 else {
                    return linkAttributes(link)
                        + (link.hidden == 0 ? [.init("color", "#c8c8c8"), .init("style", "dashed")] : [])
                }
                return linkAttributes(link) + width(count: count, largest: largestCount)
            },
            entryLink: { entry in
                let count = entry.hidden == 0 ? edges[ChainProfile.Edge(from: nil, to: entry.name)] ?? 0 : 0
                return count > 0
                    ? width(count: count, largest: largestCount)
                    : [.init("color", "#c8c8c8"), .init("style", "dashed")]
            }
        )
    }

    private static func width(count: Int, largest: Double) -> [DOTGraph.Attribute] {
        [
            .init("penwidth", .number(1 + 5 * Double(count) / max(largest, 1))),
            .init("label", .text(String(count))),
        ]
    }
}
