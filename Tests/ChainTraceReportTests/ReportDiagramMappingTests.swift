import ChainTrace
import ChainTraceAnalysis
import ChainTraceGraphviz
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

@testable import ChainTraceReport

/// What the page's script relies on to draw a command's path: the diagram's node `h<i>` is the handler
/// `names[i]` of the data — with a chain definition that names handlers no command reached, and handlers the log
/// shows but the definition lacks, in any order — and every listed hop names a handler of `names`.
@Suite("Report data against its diagram")
struct ReportDiagramMappingTests {
    /// The page's data block, read back.
    static func data(of html: String) throws -> JSONValue {
        let opening = #"<script type="application/json" id="chaintrace-data">"#
        let start = try #require(html.range(of: opening)).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        return try JSONParser.parse(String(html[start..<end]))
    }

    /// The label text Graphviz drew for each node titled `h<i>`, by i.
    static func nodeTexts(of html: String) -> [Int: String] {
        var texts: [Int: String] = [:]
        for group in html.components(separatedBy: #"class="node""#).dropFirst() {
            guard
                let title = group.components(separatedBy: "<title>").dropFirst().first?.components(
                    separatedBy: "</title>"
                ).first,
                title.hasPrefix("h"), let index = Int(title.dropFirst())
            else { continue }
            let body = group.components(separatedBy: "</g>").first ?? ""
            texts[index] = body.components(separatedBy: ">").compactMap { $0.components(separatedBy: "<").first }
                .joined(separator: " ")
        }
        return texts
    }

    @Test(arguments: SeededGenerator.seeds(12))
    func diagramNodesAreTheDataNamesAndHopsNameThem(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let defined = (0..<Int.random(in: 0...6, using: &random)).map { "Defined\($0)" }
        let observed = (0..<Int.random(in: 1...5, using: &random)).map { "Observed\($0)" }
        let pool = Array(defined.prefix(Int.random(in: 0...defined.count, using: &random))) + observed
        let traces = (0..<Int.random(in: 1...80, using: &random)).map { index in
            let path = (0..<Int.random(in: 1...4, using: &random)).map { _ in random.pick(pool) }
            let hops = path.enumerated().map { position, name in
                Hop(
                    handler: name,
                    position: position,
                    decision: position == path.count - 1 ? .accepted : .passed,
                    startOffset: UInt64(position) * 100,
                    inclusiveDuration: 100,
                    selfDuration: UInt64.random(in: 1...100, using: &random)
                )
            }
            return Trace(
                id: UInt64(index),
                commandKind: "K",
                entry: path[0],
                chain: "c",
                hops: hops,
                outcome: .accepted(by: path[path.count - 1]),
                duration: UInt64(path.count) * 100
            )
        }
        var collected = TraceReport.Collector(limit: 50)
        for trace in traces { collected.add(trace) }
        let graph: ChainGraph? =
            defined.isEmpty
            ? nil
            : ChainGraph(
                name: "c",
                handlers: defined.map { ChainGraph.Handler(name: $0) },
                links: zip(defined, defined.dropFirst()).map { ChainGraph.Link(from: $0, to: $1) },
                entries: [defined[0]]
            )
        let page = try TraceReport(profile: ChainProfile(traces), collected: collected, sources: ["log"], graph: graph)
            .page()
        let data = try Self.data(of: page.html)
        guard case .array(let nameValues)? = data["names"], case .integer(let drawn)? = data["diagramNodes"] else {
            Issue.record("seed \(seed): no names")
            return
        }
        let names = nameValues.compactMap(\.stringValue)
        let texts = Self.nodeTexts(of: page.html)
        #expect(texts.count == Int(drawn), "seed \(seed): \(texts.count) nodes drawn, data says \(drawn)")
        for (index, text) in texts {
            // The label starts with the handler's name (a slow one has "⚠ " before it).
            #expect(index < names.count && text.contains(names[index]), "seed \(seed): node h\(index) reads \(text)")
        }
        #expect(
            Set(defined + observed.filter { name in traces.contains { $0.visited(name) } })
                == Set(names.prefix(Int(drawn))),
            "seed \(seed)"
        )
        guard case .array(let listed)? = data["traces"] else { return }
        #expect(listed.count == page.listedCommands && listed.count == min(50, traces.count), "seed \(seed)")
        for entry in listed {
            guard case .integer(let number)? = entry["n"], case .array(let hops)? = entry["hops"] else { continue }
            let path = hops.compactMap { hop -> String? in
                guard case .array(let fields) = hop, case .integer(let handler)? = fields.first else { return nil }
                return names[Int(handler)]
            }
            #expect(path == traces[Int(number) - 1].path, "seed \(seed): command #\(number)")
        }
    }
}
