import CGraphviz
import ChainTrace
import ChainTraceGraphviz
import ChainTraceTestSupport
import Testing

/// Every string that reaches DOT goes through ``DOTText``: random names — brackets, braces, quotes, backslashes,
/// entities, control characters, bidi overrides, any Unicode — give DOT that libcgraph reads back, each label and
/// tooltip carrying exactly the name as diagrams display it, and a render that Graphviz draws without an error.
@Suite("DOT escaping round trip", .serialized)
struct DOTRoundTripTests {
    /// An HTML-like label's text as Graphviz shows it: the entities and line breaks ``DOTText/html(_:)`` writes.
    static func unescapeHTML(_ text: String) -> String {
        var out = text.replacingAll("<br/>", with: "\n")
        for (entity, character) in [
            ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#91;", "["), ("&#93;", "]"),
        ] {
            out = out.replacingAll(entity, with: character)
        }
        return out.replacingAll("&amp;", with: "&")
    }

    /// A quoted string as Graphviz's label layer reads it once cgraph has unquoted it: `\\` is a backslash, `\n`
    /// a line break, and entities are decoded.
    static func unescapeQuoted(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var escaped = false
        for scalar in text.unicodeScalars {
            if escaped {
                out.append(scalar == "n" ? "\n" : scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                out.append(scalar)
            }
        }
        return String(out).replacingAll("&amp;", with: "&")
    }

    static func attribute(_ object: UnsafeMutableRawPointer, _ name: String) -> String? {
        name.withCString { key in
            agget(object, UnsafeMutablePointer(mutating: key)).map { String(cString: $0) }
        }
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func labelsAndTooltipsRoundTripThroughLibcgraph(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let names = (0..<12).map { _ in random.hostileName(maximumLength: 10) }
        var graph = DOTGraph()
        for (index, name) in names.enumerated() {
            graph.addNode("n\(index)", [.init("label", .html(DOTText.html(name))), .init("tooltip", .text(name))])
        }
        for index in names.indices.dropLast() {
            graph.addEdge(from: "n\(index)", to: "n\(index + 1)", [.init("label", .text(names[index]))])
        }
        let dot = graph.text
        GraphvizRenderer.withGraphvizLock {
            let parsed: UnsafeMutablePointer<Agraph_t>? = dot.withCString { agmemread($0) }
            guard let parsed else {
                Issue.record("seed \(seed): libcgraph could not read the DOT:\n\(dot)")
                return
            }
            defer { agclose(parsed) }
            for (index, name) in names.enumerated() {
                let node = "n\(index)".withCString { agnode(parsed, UnsafeMutablePointer(mutating: $0), 0) }
                guard let node else {
                    Issue.record("seed \(seed): node n\(index) is missing")
                    continue
                }
                let label = Self.attribute(UnsafeMutableRawPointer(node), "label") ?? ""
                let tooltip = Self.attribute(UnsafeMutableRawPointer(node), "tooltip") ?? ""
                #expect(
                    Self.unescapeHTML(label) == DOTText.displayed(name),
                    "seed \(seed): label of \(name.debugDescription)"
                )
                #expect(
                    Self.unescapeQuoted(tooltip) == DOTText.displayed(name),
                    "seed \(seed): tooltip of \(name.debugDescription)"
                )
            }
        }
        // And Graphviz lays it out and draws it with no error (an error would throw).
        let svg = try GraphvizRenderer.render(dot, as: .svg)
        #expect(!svg.bytes.isEmpty)
    }

    @Test func aLabelGraphvizCannotReadIsAnErrorNotASubstitute() {
        #expect(throws: GraphvizError.self) {
            try GraphvizRenderer.render(#"digraph { a [label=<<b>]</b>>]; }"#, as: .svg)
        }
    }
}

extension String {
    /// Replaces by Unicode scalars, not characters: a combining mark after an entity must not hide it.
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        let source = Array(unicodeScalars)
        let pattern = Array(target.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < source.count {
            if index + pattern.count <= source.count, Array(source[index..<(index + pattern.count)]) == pattern {
                out.append(contentsOf: replacement.unicodeScalars)
                index += pattern.count
            } else {
                out.append(source[index])
                index += 1
            }
        }
        return String(out)
    }
}
