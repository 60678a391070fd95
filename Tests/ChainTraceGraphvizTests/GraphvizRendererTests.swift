import ChainTraceGraphviz
import ChainTraceTestSupport
import Foundation
import Testing

/// libgvc in-process: each format's output is what it claims to be, errors come back as values, calls are serialised.
@Suite("Rendering through libgvc", .tags(.concurrent))
struct GraphvizRendererTests {
    @Test func svgIsXMLAndPNGAndPDFCarryTheirSignatures() throws {
        let dot = ChainDiagram.structure(try DiagramFixtures.graph()).text
        let svg = try GraphvizRenderer.render(dot, as: .svg)
        #expect(try SVGDocument(svg.bytes).text.contains("DetailScreen"))
        let png = try GraphvizRenderer.render(dot, as: .png).bytes
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let pdf = try GraphvizRenderer.render(dot, as: .pdf).bytes
        #expect(String(decoding: pdf.prefix(5), as: UTF8.self) == "%PDF-")
        #expect(String(decoding: pdf.suffix(7), as: UTF8.self).contains("%%EOF"))
        #expect(try GraphvizRenderer.render(dot, as: .dot).bytes == Array(dot.utf8))
    }

    @Test func badDOTIsATypedErrorCarryingGraphvizsMessage() {
        #expect {
            _ = try GraphvizRenderer.render("digraph { a -> ; }", as: .svg)
        } throws: { error in
            guard let error = error as? GraphvizError, case .syntax = error.kind else { return false }
            return error.messages.contains { $0.contains("syntax error in line") }
                && error.description.hasPrefix("Graphviz could not read the DOT text: ")
        }
    }

    @Test func warningsAreReturnedNotLeftOnStandardError() throws {
        // An unknown attribute value makes Graphviz warn; the picture is still drawn.
        let output = try GraphvizRenderer.render("digraph { a [shape=nosuchshape]; }", as: .svg)
        #expect(try SVGDocument(output.bytes).elements.contains("svg"))
        #expect(output.warnings.contains { $0.contains("nosuchshape") })
    }

    @Test func aPNGTooBigForCairoIsRefusedWithItsSize() {
        let nodes = (0..<1500).map { "n\($0) [label=\"handler number \($0)\"]" }.joined(separator: "; ")
        let chain = (0..<1499).map { "n\($0) -> n\($0 + 1)" }.joined(separator: "; ")
        #expect {
            _ = try GraphvizRenderer.render("digraph { rankdir=LR; \(nodes); \(chain); }", as: .png)
        } throws: { error in
            guard let error = error as? GraphvizError, case .tooLarge(let width, _, let limit) = error.kind else {
                return false
            }
            return width > limit && limit == 32_767 && error.description.contains("write SVG or PDF instead")
        }
    }

    @Test func concurrentRendersAreSerialisedAndAgree() async throws {
        let dot = ChainDiagram.structure(try DiagramFixtures.graph()).text
        let outputs = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 { group.addTask { try GraphvizRenderer.render(dot, as: .svg).bytes } }
            return try await group.reduce(into: [[UInt8]]()) { $0.append($1) }
        }
        #expect(outputs.count == 8)
        #expect(Set(outputs).count == 1)
    }

    @Test func formatsFollowFileExtensions() {
        #expect(GraphvizFormat(fileExtension: "out/chain.SVG") == .svg)
        #expect(GraphvizFormat(fileExtension: "profile.pdf") == .pdf)
        #expect(GraphvizFormat(fileExtension: "dir.png/file") == nil)
        #expect(GraphvizFormat(fileExtension: "chain.jpeg") == nil)
    }
}
