import ChainTraceTestSupport
import Foundation
import Testing

/// Every `chaintrace` command shown in a `sh` block of README.md or Docs/ runs as written and succeeds; those that
/// draw (`render … -o FILE`, `report … -o FILE`) make a valid picture or page, written to a scratch file rather than over a committed one.
@Suite("chaintrace commands in README.md and Docs/")
struct DocumentedCommandTests {
    /// The `chaintrace` commands of a page's `sh` blocks, continuation lines joined, `swift run` dropped, quotes removed.
    func commands(_ file: String) throws -> [[String]] {
        let page = try String(contentsOf: BuiltProduct.packageRoot.appendingPathComponent(file), encoding: .utf8)
        var commands: [[String]] = []
        var inBlock = false
        var pending = ""
        for line in page.components(separatedBy: "\n") {
            if line == "```sh" {
                inBlock = true
                continue
            }
            if line == "```" {
                inBlock = false
                continue
            }
            guard inBlock else { continue }
            pending += line.trimmingCharacters(in: .whitespaces)
            if pending.hasSuffix("\\") {
                pending = String(pending.dropLast()) + " "
            } else {
                var words = pending.split(separator: " ").map {
                    $0.trimmingCharacters(in: CharacterSet(charactersIn: "'"))
                }
                if words.starts(with: ["swift", "run"]) { words.removeFirst(2) }
                if words.first == "chaintrace" { commands.append(words) }
                pending = ""
            }
        }
        return commands
    }

    @Test func eachCommandRunsAsWritten() throws {
        let pages = ["README.md", "Docs/Diagrams.md", "Docs/Report.md"]
        let commands = try pages.flatMap(commands)
        #expect(commands.count == 9)
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for command in commands {
            var arguments = Array(command.dropFirst())
            var picture: String?
            if let option = arguments.firstIndex(of: "-o") {
                let committed = arguments[option + 1]
                if committed.hasPrefix("Docs/") {
                    #expect(
                        FileManager.default.fileExists(
                            atPath: BuiltProduct.packageRoot.appendingPathComponent(committed).path
                        )
                    )
                }
                arguments[option + 1] = directory.appendingPathComponent((committed as NSString).lastPathComponent).path
                picture = arguments[option + 1]
            }
            let output = try CLI.binary.run(arguments)
            #expect(output.status == 0, "\(command.joined(separator: " ")): \(output.standardError)")
            if let picture {
                #expect(try String(contentsOfFile: picture, encoding: .utf8).contains("<svg"))
            }
        }
    }
}
