import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Keeps README.md and Docs/ honest: every Swift block they show must be a `// doc:` block of
/// DocumentationExamples.swift (compiled and run by these tests), and every example trace log must read back.
@Suite("Docs show only code that runs")
struct DocumentationSnippetTests {
    static let root = BuiltProduct.packageRoot

    /// README.md, the pages of Docs/, the articles of every DocC catalogue, and the samples' READMEs.
    static func markdownFiles() throws -> [URL] {
        let files = FileManager.default
        var folders = [root.appendingPathComponent("Docs")]
        for module in try files.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path) {
            let catalogue = root.appendingPathComponent("Sources/\(module)/\(module).docc")
            if files.fileExists(atPath: catalogue.path) { folders.append(catalogue) }
        }
        for sample in try files.contentsOfDirectory(atPath: root.appendingPathComponent("Samples").path) {
            folders.append(root.appendingPathComponent("Samples/\(sample)"))
        }
        var pages: [URL] = []
        for folder in folders where files.fileExists(atPath: folder.path) {
            pages += try files.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter {
                $0.pathExtension == "md"
            }
        }
        return [root.appendingPathComponent("README.md")] + pages.sorted { $0.path < $1.path }
    }

    /// A package manifest excerpt (its first line says so): checked against Package.swift, not compiled.
    static func isManifestExcerpt(_ block: [String]) -> Bool {
        block.first == "// In your Package.swift"
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

    /// The `// doc: name` … `// end` blocks of the DocumentationExamples.swift files, each as trimmed lines.
    static func exampleBlocks() throws -> [String: [String]] {
        // The framework integrations' examples compile only with their trait (Scripts/test-integrations.sh).
        let sources = try [
            "Tests/SampleTests/DocumentationExamples.swift",
            "Tests/ChainTraceHummingbirdTests/DocumentationExamples.swift",
            "Tests/ChainTraceVaporTests/DocumentationExamples.swift",
            "Tests/ChainTraceGRPCTests/DocumentationExamples.swift",
            "Tests/ChainTraceNIOTests/DocumentationExamples.swift",
        ].map { try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8) }
        var blocks: [String: [String]] = [:]
        var name: String?
        for line in sources.joined(separator: "\n").components(separatedBy: "\n") {
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
            for block in Self.swiftBlocks(in: text) where !Self.isManifestExcerpt(block) {
                checked += 1
                let isExample = examples.values.contains(block)
                #expect(
                    isExample,
                    "\(file.lastPathComponent): this Swift block is not a `// doc:` block of DocumentationExamples.swift:\n\(block.joined(separator: "\n"))"
                )
            }
        }
        #expect(checked >= 5)
    }

    /// Every product a manifest excerpt names is a library product of Package.swift, under the package identity
    /// a checkout named `chaintrace` has.
    @Test func manifestExcerptsNameRealProducts() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let libraries = Set(manifest.matches(of: /\.library\(name: "([A-Za-z]+)"/).map { String($0.1) })
        #expect(libraries.contains("ChainTrace") && libraries.contains("ChainTraceTesting"))
        var excerpts = 0
        for file in try Self.markdownFiles() {
            for block in Self.swiftBlocks(in: try String(contentsOf: file, encoding: .utf8))
            where Self.isManifestExcerpt(block) {
                excerpts += 1
                for match in block.joined(separator: "\n").matches(
                    of: /\.product\(name: "([A-Za-z]+)", package: "([a-z-]+)"\)/
                ) {
                    #expect(
                        libraries.contains(String(match.1)),
                        "\(file.lastPathComponent): no library product \(match.1)"
                    )
                    #expect(match.2 == "chaintrace", "\(file.lastPathComponent): package identity \(match.2)")
                }
            }
        }
        #expect(excerpts >= 1)
    }

    /// Every relative link in the pages points at a file that exists (anchors aside).
    @Test func relativeLinksResolve() throws {
        for file in try Self.markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: /\]\(([^)#\s]+)(#[^)]*)?\)/) {
                let target = String(match.1)
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                let resolved = file.deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: resolved.path), "\(file.path): broken link \(target)")
            }
        }
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
