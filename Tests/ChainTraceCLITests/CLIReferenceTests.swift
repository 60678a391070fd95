import ChainTraceTestSupport
import Foundation
import Testing

@Suite("Docs/CLI.md")
struct CLIReferenceTests {
    /// Each `### chaintrace …` heading of the reference and the text block under it.
    func sections() throws -> [(command: [String], text: String)] {
        let page = try String(
            contentsOf: BuiltProduct.packageRoot.appendingPathComponent("Docs/CLI.md"),
            encoding: .utf8
        )
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

    /// The subcommands `chaintrace --help` lists, in its order.
    static func subcommands() throws -> [String] {
        let help = try CLI.binary.run(["--help"]).standardOutput
        let section = try #require(help.components(separatedBy: "SUBCOMMANDS:").last)
        // A subcommand's line starts with two spaces and its name; its wrapped description is indented further.
        return section.components(separatedBy: "\n").compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else {
                return nil
            }
            return name == "See" ? nil : String(name)
        }
    }

    @Test func referenceIsTheToolsOwnHelpForEverySubcommand() throws {
        let sections = try sections()
        // Every subcommand the tool lists, in its order: a new one without a reference block fails here.
        #expect(sections.map { $0.command.joined(separator: " ") } == [""] + (try Self.subcommands()))
        for section in sections {
            let output = try CLI.binary.run(section.command + ["--help"])
            #expect(output.status == 0)
            #expect(
                normalized(output.standardOutput) == normalized(section.text),
                "Docs/CLI.md is out of date for `chaintrace \(section.command.joined(separator: " "))`: regenerate it from --help"
            )
        }
    }
}
