public import ChainTrace

extension ChainDiagram {
    /// One command's path over the structure: hops numbered in order with their decision, self and inclusive
    /// time; the accepting handler with a double border; a failing one red with its error; handlers not visited
    /// grey; and, when nobody took the command, an explicit "fell off the end".
    ///
    /// Handlers and links the trace went along but `graph` lacks are added (drawn purple).
    public static func path(_ trace: Trace, over graph: ChainGraph, options: DiagramOptions = DiagramOptions())
        -> DOTGraph
    {
        var graph = graph
        graph.addObserved(trace)
        let canvas = DiagramCanvas(graph: graph, options: options)
        let hops = trace.hops
        var hopNumbers: [String: [Int]] = [:]
        for (index, hop) in hops.enumerated() { hopNumbers[hop.handler, default: []].append(index + 1) }
        var stepNumbers: [String: [Int]] = [:]
        for (index, source) in trace.hopSources.enumerated() where source >= 0 {
            stepNumbers[hops[source].handler + "\u{0}" + hops[index].handler, default: []].append(index + 1)
        }
        let outcome = trace.outcome
        let name = trace.commandID.map { "\(trace.commandKind) \($0)" } ?? trace.commandKind
        var legend = [
            DOTText.html(
                "\(outcome) · \(DiagramText.plural(hops.count, "hop")) in \(DiagramText.nanoseconds(trace.duration)) · entry \(trace.entry)"
            ),
            "numbers: hop order · double border: accepted · red: failed · grey: not visited · times: self / inclusive",
            shapesLegend(graph),
        ]
        if hops.isEmpty { legend.insert("no handler saw this command", at: 1) }
        return canvas.dot(
            title: "Path of \(name) through \(DiagramText.chainName(trace.chain))",
            legend: legend,
            options: options,
            node: { handler in
                guard let numbers = hopNumbers[handler.name] else { return greyed(handler, note: "not visited") }
                var attributes = roleAttributes(of: handler)
                var lines: [String] = []
                for number in numbers {
                    let hop = hops[number - 1]
                    var line =
                        "#\(number) \(hop.decision.rawValue) · \(DiagramText.nanoseconds(hop.selfDuration)) / \(DiagramText.nanoseconds(hop.inclusiveDuration))"
                    // A failed hop's reason is its error, shown in red below.
                    if let reason = hop.reason, hop.decision != .failed { line += " · " + DOTText.html(reason) }
                    lines.append(line)
                }
                if case .failed(let failing, let error) = outcome, failing == handler.name {
                    lines.append("<font color=\"#b00020\">error: \(DOTText.html(error))</font>")
                    attributes += [
                        .init("color", "#b00020"), .init("penwidth", .number(2)), .init("fillcolor", "#fde2e2"),
                    ]
                } else if outcome.acceptingHandler == handler.name {
                    attributes += [
                        .init("peripheries", .bare("2")), .init("penwidth", .number(1.5)),
                        .init("fillcolor", "#dff3e3"),
                    ]
                } else {
                    attributes += [
                        .init("fillcolor", hops[numbers[0] - 1].decision == .continued ? "#fff4d6" : "#e7f0fb")
                    ]
                }
                attributes.append(
                    .init("label", DiagramText.label(name: handler.name, lines: roleLines(of: handler) + lines))
                )
                return attributes
            },
            link: { link in
                guard let numbers = stepNumbers[link.from + "\u{0}" + link.to], link.hidden == 0 else {
                    return linkAttributes(link) + [.init("color", "#c8c8c8")]
                }
                return [
                    .init("color", "#1f5fbf"), .init("penwidth", .number(2)),
                    .init("label", .text(numbers.map(String.init).joined(separator: ", "))),
                    .init("fontcolor", "#1f5fbf"),
                ]
            },
            entryLink: { entry in
                entry.name == hops.first?.handler
                    ? [
                        .init("color", "#1f5fbf"), .init("penwidth", .number(2)), .init("label", "1"),
                        .init("fontcolor", "#1f5fbf"),
                    ]
                    : [.init("color", "#c8c8c8")]
            },
            extra: { dot in
                guard case .fellOffTheEnd = outcome else { return }
                dot.addNode(
                    "end",
                    [
                        .init("shape", "octagon"), .init("fillcolor", "#fff0c2"), .init("color", "#b58900"),
                        .init(
                            "label",
                            .html("<b>fell off the end</b><br/><font point-size=\"9\">no handler accepted</font>")
                        ),
                    ]
                )
                if let last = hops.last?.handler, canvas.isDrawn(last) {
                    dot.addEdge(
                        from: canvas.id(of: last),
                        to: "end",
                        [.init("color", "#b58900"), .init("style", "dashed"), .init("penwidth", .number(2))]
                    )
                } else {
                    dot.addEdge(
                        from: DiagramCanvas.entryID,
                        to: "end",
                        [.init("color", "#b58900"), .init("style", "dashed")]
                    )
                }
            }
        )
    }
}
