import ChainTrace
import ChainTraceAnalysis
import ChainTraceGraphviz
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Handler names, reasons and errors are user text: whatever they hold, the DOT stays valid and the SVG inert.
@Suite("Hostile names")
struct EscapingTests {
    static let names = [
        "Quote\"Handler", "Back\\slash\\", "Two\nLines", "<script>alert('x')</script>", "&amp; &lt;b&gt; &#x41;",
        "Ünïcødé 漢字 🙂", "Nul\u{0}Bell\u{7}", "]]><!--", "\\N \\G \\L", "onload=alert(1)", "-> [label=x];",
        // Empty: Graphviz rejects an empty `<b></b>` or label; shown as "(empty name)".
        "",
    ]

    static func hostileGraph() -> (ChainGraph, Trace) {
        let handlers = names.map { ChainGraph.Handler(name: $0) }
        let links = zip(names, names.dropFirst()).map { ChainGraph.Link(from: $0, to: $1) }
        let graph = ChainGraph(name: "<chain \"x\">", handlers: handlers, links: links, entries: [names[0]])
        let hops = names.prefix(4).enumerated().map { index, name in
            Hop(
                handler: name,
                position: index,
                decision: index == 3 ? .failed : .passed,
                reason: index == 1 ? "<b>why</b> & \"how\"" : nil,
                inclusiveDuration: 1_000,
                selfDuration: 500
            )
        }
        let trace = Trace(
            id: 1,
            commandKind: "Kind<script>",
            commandID: "id\"&",
            entry: names[0],
            chain: "<chain \"x\">",
            hops: hops,
            outcome: .failed(at: names[3], error: "</font><script>boom</script>"),
            duration: 2_000
        )
        return (graph, trace)
    }

    @Test func quotedStringsEscapeQuotesBackslashesAndLineBreaks() {
        #expect(DOTText.quoted("a\"b\\c\nd&") == "\"a\\\"b\\\\c\\nd&amp;\"")
        #expect(DOTText.html("<script>&\"'\n") == "&lt;script&gt;&amp;&quot;&#39;<br/>")
        #expect(DOTText.html("Nul\u{0}Bell\u{7}") == "Nul\u{2400}Bell\u{2407}")
        #expect(DOTText.quoted("Ünïcødé 漢字 🙂") == "\"Ünïcødé 漢字 🙂\"")
    }

    @Test(arguments: ["structure", "path"])
    func hostileNamesGiveValidDOTAndInertSVG(kind: String) throws {
        let (graph, trace) = Self.hostileGraph()
        let dot = kind == "structure" ? ChainDiagram.structure(graph).text : ChainDiagram.path(trace, over: graph).text
        // Names never become identifiers: every node is h<number>.
        for line in dot.split(separator: "\n") where line.hasPrefix("  h") && line.contains(" [") {
            #expect(line.split(separator: " ")[0].allSatisfy { $0 == "h" || $0.isNumber })
        }
        let svg = try GraphvizRenderer.render(dot, as: .svg)
        let document = try SVGDocument(svg.bytes)
        #expect(document.elements.contains("svg"))
        #expect(!document.elements.contains("script"))
        #expect(document.attributes.allSatisfy { !$0.lowercased().hasPrefix("on") })
        // The names survive as text, Unicode included.
        #expect(document.text.contains("<script>alert('x')</script>"))
        #expect(document.text.contains("Ünïcødé 漢字 🙂"))
        #expect(document.text.contains("Quote\"Handler"))
        #expect(document.text.contains("&amp; &lt;b&gt; &#x41;"))
        if kind == "path" { #expect(document.text.contains("</font><script>boom</script>")) }
    }
}

extension EscapingTests {
    /// A profile and a diff of traces through every hostile name, the empty one slow enough to be flagged: its node,
    /// its legend line and its flag all say "(empty name)", and Graphviz draws them.
    @Test func hostileNamesInProfilesAndDiffsGiveValidDOT() throws {
        let (graph, _) = Self.hostileGraph()
        func traces(slowness: UInt64) -> [Trace] {
            (0..<20).map { id in
                let hops = Self.names.enumerated().map { index, name in
                    let time: UInt64 = name.isEmpty ? slowness : 100 + UInt64(index)
                    return Hop(
                        handler: name,
                        position: index,
                        decision: .passed,
                        inclusiveDuration: time,
                        selfDuration: time
                    )
                }
                return Trace(
                    id: UInt64(id),
                    commandKind: "K",
                    entry: Self.names[0],
                    chain: "<chain \"x\">",
                    hops: hops,
                    outcome: .fellOffTheEnd,
                    duration: 10_000_000
                )
            }
        }
        let before = ChainProfile(traces(slowness: 5_000_000))
        let after = ChainProfile(traces(slowness: 50))
        for dot in [
            ChainDiagram.profile(before, over: graph).text,
            ChainDiagram.diff(before: before, after: after, over: graph).text,
        ] {
            let document = try SVGDocument(try GraphvizRenderer.render(dot, as: .svg).bytes)
            #expect(document.text.contains("(empty name)"), "\(dot)")
        }
        let profile = ChainDiagram.profile(before, over: graph).text
        #expect(
            profile.components(separatedBy: "(empty name)").count - 1 == 2,
            "the node and the legend's flag: \(profile)"
        )
    }

    /// A chain with the empty name — what `traceHop` records when given no `chain` — is titled as unnamed in every
    /// diagram, not "Profile of " with nothing after it.
    @Test func anUnnamedChainIsTitledAsOne() throws {
        let graph = ChainGraph(name: "", handlers: [.init(name: "A")], links: [], entries: ["A"])
        let trace = Trace(
            id: 1,
            commandKind: "K",
            entry: "A",
            chain: "",
            hops: [Hop(handler: "A", position: 0, decision: .accepted, inclusiveDuration: 5, selfDuration: 5)],
            outcome: .accepted(by: "A"),
            duration: 5
        )
        let profile = ChainProfile([trace])
        let titles = [
            (ChainDiagram.structure(graph).text, "An unnamed chain"),
            (ChainDiagram.profile(profile, over: graph).text, "Profile of (unnamed chain)"),
            (ChainDiagram.path(trace, over: graph).text, "Path of K through (unnamed chain)"),
            (ChainDiagram.diff(before: profile, after: profile, over: graph).text, "Difference in (unnamed chain)"),
        ]
        for (dot, title) in titles {
            #expect(dot.contains("<b>\(title)</b>"), "\(title): \(dot)")
            _ = try GraphvizRenderer.render(dot, as: .svg)
        }
    }
}

/// What an SVG holds, read with an XML parser: a parse error fails the test.
struct SVGDocument {
    var elements: Set<String> = []
    var attributes: Set<String> = []
    var text = ""

    init(_ bytes: [UInt8]) throws {
        let delegate = Collector()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = delegate
        guard parser.parse() else {
            throw CocoaError(
                .propertyListReadCorrupt,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "SVG is not XML: \(parser.parserError.map(String.init(describing:)) ?? "?")"
                ]
            )
        }
        elements = delegate.elements
        attributes = delegate.attributes
        text = delegate.text
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: Set<String> = []
        var attributes: Set<String> = []
        var text = ""

        func parser(
            _ parser: XMLParser,
            didStartElement name: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String]
        ) {
            elements.insert(name)
            self.attributes.formUnion(attributes.keys)
            text += "\n"
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    }
}
