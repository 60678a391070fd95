import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceGraphviz
import ChainTraceTraceLog
import Foundation
import Testing

/// The examples under `Docs/examples` the diagrams are drawn from: an editor's responder tree with an observer, a
/// weighted registry and a budget, and two trace logs of its commands with fixed times (the second has a
/// responder registered at run time, `Window` three times slower and `Search` four times faster).
enum DiagramFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func path(_ name: String) -> String {
        directory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Docs/examples/\(name)"
        ).path
    }

    static func definition() throws -> ChainDefinition { try ChainDefinition.load(path: path("editor.chain.json")) }

    static func graph() throws -> ChainGraph { ChainGraph(definition: try definition()) }

    static func traces(_ name: String) throws -> [Trace] { try TraceLogReader.readAll(path: path(name)).traces }

    static func profile(_ name: String) throws -> ChainProfile {
        ChainProfile(try traces(name))
    }

    static func trace(_ id: String, in name: String = "editor-after.traces.jsonl") throws -> Trace {
        try #require(try traces(name).first { $0.commandID == id })
    }

    /// Compares `text` with the golden file `name`; with `CHAINTRACE_UPDATE_GOLDEN=1` rewrites the file instead.
    static func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent("Golden/\(name)")
        if ProcessInfo.processInfo.environment["CHAINTRACE_UPDATE_GOLDEN"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        guard text != expected else { return }
        let actualLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let first =
            zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actualLines.count, expectedLines.count)
        let expectedLine = first < expectedLines.count ? String(expectedLines[first]) : "<end>"
        let actualLine = first < actualLines.count ? String(actualLines[first]) : "<end>"
        Issue.record(
            "\(name) differs at line \(first + 1)\n  expected: \(expectedLine)\n    actual: \(actualLine)\n(set CHAINTRACE_UPDATE_GOLDEN=1 to accept)",
            sourceLocation: sourceLocation
        )
    }
}
