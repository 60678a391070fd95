import ChainTrace
import ChainTraceAnalysis
import ChainTraceGraphviz
import Foundation
import Testing

/// Big chains stay readable: long runs fold into rows, profiles keep the hottest handlers and say what they hid,
/// and --focus / --ignore cut the picture down without losing where links lead.
@Suite("Large chains and cut-down diagrams")
struct LargeChainTests {
    static func line(_ count: Int) -> ChainGraph {
        let names = (0..<count).map { "Handler\($0)" }
        return ChainGraph(
            name: "long",
            handlers: names.map { ChainGraph.Handler(name: $0) },
            links: zip(names, names.dropFirst()).map { ChainGraph.Link(from: $0, to: $1) },
            entries: [names[0]]
        )
    }

    @Test func aThousandHandlerChainFoldsIntoRowsAndFitsAPNG() throws {
        let dot = ChainDiagram.structure(Self.line(1000), options: DiagramOptions(rowLength: 10)).text
        #expect(dot.components(separatedBy: "rank=\"same\"").count - 1 == 100)
        let png = try GraphvizRenderer.render(dot, as: .png).bytes
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        // Rows of ten: about ten boxes wide, not a 1000-box strip scaled down to nothing.
        #expect(width < 3_000)
        #expect(height < GraphvizRenderer.maximumPNGSide)
        #expect(width > 500)
    }

    @Test func profilesKeepTheHottestHandlersAndSayHowManyWereHidden() throws {
        let graph = Self.line(1000)
        var profile = ChainProfile()
        for command in 0..<20 {
            let hops = (0..<1000).map { position in
                // Every 50th handler is hot; the rest take 100 ns.
                Hop(
                    handler: "Handler\(position)",
                    position: position,
                    decision: position == 999 ? .accepted : .passed,
                    inclusiveDuration: position % 50 == 0 ? 50_000 : 100,
                    selfDuration: position % 50 == 0 ? 50_000 : 100
                )
            }
            profile.add(
                Trace(
                    id: UInt64(command),
                    commandKind: "Tap",
                    entry: "Handler0",
                    chain: "long",
                    hops: hops,
                    outcome: .accepted(by: "Handler999"),
                    duration: 1_000_000
                )
            )
        }
        let dot = ChainDiagram.profile(profile, over: graph, options: DiagramOptions(maximumHandlers: 30)).text
        let drawn = dot.split(separator: "\n").filter { $0.hasPrefix("  h") && $0.contains(" [tooltip=\"Handler") }
        #expect(drawn.count == 30)
        #expect(dot.contains("970 of 1000 handlers hidden: the least self time (each ≤ 2µs)"))
        // All twenty hot handlers are drawn.
        for hot in stride(from: 0, to: 1000, by: 50) { #expect(dot.contains("<b>⚠ Handler\(hot)</b>")) }
        #expect(dot.contains("label=\"⋯ 49 hidden handlers\""))
    }

    @Test func focusKeepsNeighboursAndIgnoreBridgesTheGap() throws {
        let graph = try DiagramFixtures.graph()
        let focused = ChainDiagram.structure(graph, options: DiagramOptions(focus: ["Window"])).text
        for name in ["Window", "Search", "AppDelegate"] { #expect(focused.contains("<b>\(name)</b>")) }
        #expect(!focused.contains("<b>Cell</b>"))
        #expect(focused.contains("6 handlers outside the focus hidden"))

        let ignored = ChainDiagram.structure(graph, options: DiagramOptions(ignore: ["Analytics"])).text
        #expect(!ignored.contains("<b>Analytics</b>"))
        #expect(ignored.contains("h2 -> h4 [style=\"dashed\", xlabel=\"⋯ 1 hidden handler\"]"))
        #expect(ignored.contains("1 handler hidden (ignored)"))
    }
}
