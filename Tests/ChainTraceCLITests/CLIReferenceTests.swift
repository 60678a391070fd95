import ChainTraceTestSupport
import Foundation
import Testing

@Suite("Docs/CLI.md")
struct CLIReferenceTests {
    /// Each `### chaintrace …` heading of the reference and the text block under it.
    func sections() throws -> [(command: [String], text: String)] {
        let page = try String(contentsOf: BuiltProduct.packageRoot.appendingPathComponent("Docs/CLI.md"), encoding: .utf8)
        var result: [(command: [String], text: String)] = []
        var current: [String]?
        var block: [String]?
        for line in page.components(separatedBy: "\n") {
            if line.hasPrefix("### chaintrace") {
                current = Array(line.split(separator: " ").dropFirst(2).map(String.init))
            } else if let command = current, line == "```text" {
                block = []
                current = command
            } else if line == "```", let lines = block, let command = current {
                result.append((command, lines.joined(separator: "\n")))
                block = nil
                current = nil
            } else if block != nil {
                block?.append(line)
            }
        }
        return result
    }

    func normalized(_ text: String) -> String {
        text.components(separatedBy: "\n").map { line in
            String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n").trimmingCharacters(in: .newlines)
    }

    @Test func referenceIsTheToolsOwnHelpForEverySubcommand() throws {
        let sections = try sections()
        #expect(sections.map { $0.command.joined(separator: " ") } == ["", "replay", "which", "validate", "stats", "diff", "gen-tests", "export", "render"])
        for section in sections {
            let output = try CLI.binary.run(section.command + ["--help"])
            #expect(output.status == 0)
            #expect(
                normalized(output.standardOutput) == normalized(section.text),
                "Docs/CLI.md is out of date for `chaintrace \(section.command.joined(separator: " "))`: regenerate it from --help")
        }
    }
}
