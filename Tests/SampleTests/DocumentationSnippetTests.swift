import ChainTraceTestSupport
import ChainTraceFormats
import Foundation
import Testing

/// Keeps README.md and Docs/ honest: every Swift block they show must be a `// doc:` block of
/// DocumentationExamples.swift (compiled and run by these tests), and every example trace log must read back.
@Suite("Docs show only code that runs")
struct DocumentationSnippetTests {
    static let root = BuiltProduct.packageRoot

    static func markdownFiles() throws -> [URL] {
        let docs = root.appendingPathComponent("Docs")
        let pages = try FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
        return [root.appendingPathComponent("README.md")] + pages.sorted { $0.path < $1.path }
    }

    /// The ```swift blocks of a Markdown text, each as trimmed lines.
    static func swiftBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(trimmed)
            }
        }
        return blocks
    }

    /// The `// doc: name` … `// end` blocks of DocumentationExamples.swift, each as trimmed lines.
    static func exampleBlocks() throws -> [String: [String]] {
        let source = try String(
            contentsOf: root.appendingPathComponent("Tests/SampleTests/DocumentationExamples.swift"),
            encoding: .utf8
        )
        var blocks: [String: [String]] = [:]
        var name: String?
        for line in source.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// doc: ") {
                name = String(trimmed.dropFirst("// doc: ".count))
                blocks[name!] = []
            } else if trimmed == "// end" {
                name = nil
            } else if let current = name {
                blocks[current]!.append(trimmed)
            }
        }
        return blocks
    }

    @Test func everySwiftBlockInTheDocsIsAnExampleThatIsCompiledAndRun() throws {
        let examples = try Self.exampleBlocks()
        var checked = 0
        for file in try Self.markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for block in Self.swiftBlocks(in: text) {
                checked += 1
                #expect(
                    examples.values.contains(block),
                    "\(file.lastPathComponent): this Swift block is not a `// doc:` block of DocumentationExamples.swift:\n\(block.joined(separator: "\n"))"
                )
            }
        }
        #expect(checked >= 5)
    }

    @Test func exampleTraceLogsInTheDocsReadBack() throws {
        let examples = Self.root.appendingPathComponent("Docs/examples")
        let logs = try FileManager.default.contentsOfDirectory(at: examples, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(".traces.jsonl") }
        #expect(!logs.isEmpty)
        for log in logs {
            let read = try TraceLogReader.readAll(path: log.path)
            #expect(!read.traces.isEmpty, "\(log.lastPathComponent) has no traces")
            #expect(read.tornTail == nil)
        }
    }
}
