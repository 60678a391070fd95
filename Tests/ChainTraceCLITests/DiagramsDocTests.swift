import ChainTraceTestSupport
import Foundation
import Testing

/// Every `chaintrace render` command shown in Docs/Diagrams.md and README.md runs as written and makes a valid picture.
@Suite("Render commands in Docs/Diagrams.md and README.md")
struct DiagramsDocTests {
    /// The `chaintrace render` commands of a page's `sh` blocks, continuation lines joined, `swift run` dropped.
    func commands(_ file: String) throws -> [[String]] {
        let page = try String(contentsOf: BuiltProduct.packageRoot.appendingPathComponent(file), encoding: .utf8)
        var commands: [[String]] = []
        var inBlock = false
        var pending = ""
        for line in page.components(separatedBy: "\n") {
            if line == "```sh" { inBlock = true; continue }
            if line == "```" { inBlock = false; continue }
            guard inBlock else { continue }
            pending += line.trimmingCharacters(in: .whitespaces)
            if pending.hasSuffix("\\") {
                pending = String(pending.dropLast()) + " "
            } else {
                var words = pending.split(separator: " ").map(String.init)
                if words.starts(with: ["swift", "run"]) { words.removeFirst(2) }
                if words.starts(with: ["chaintrace", "render"]) { commands.append(words) }
                pending = ""
            }
        }
        return commands
    }

    @Test func eachCommandDrawsItsSVG() throws {
        let commands = try commands("Docs/Diagrams.md") + commands("README.md")
        #expect(commands.count == 5)
        let directory = try CLI.temporaryDirectory()
        for command in commands {
            #expect(command.first == "chaintrace")
            var arguments = Array(command.dropFirst())
            // Write to a scratch file, not over the committed picture.
            let target = try #require(arguments.firstIndex(of: "-o")) + 1
            let committed = arguments[target]
            arguments[target] = directory.appendingPathComponent((committed as NSString).lastPathComponent).path
            let output = try CLI.binary.run(arguments)
            #expect(output.status == 0, "\(command): \(output.standardError)")
            let svg = try String(contentsOfFile: arguments[target], encoding: .utf8)
            #expect(svg.contains("<svg"))
            if committed.hasPrefix("Docs/") {
                #expect(FileManager.default.fileExists(atPath: BuiltProduct.packageRoot.appendingPathComponent(committed).path))
            }
        }
    }
}
