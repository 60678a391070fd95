import ArgumentParser
import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON

/// `chaintrace validate DEF`: the lint.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Lint a chain definition.",
        discussion: """
            Reports every problem with its file, line and column: invalid JSON or fields (invalid-json, \
            invalid-field), invalid rules (invalid-rule), unknown or duplicate names (unknown-handler, \
            duplicate-name), cycles, named in order (cycle), handlers no entry reaches (unreachable), and handlers \
            that can never accept — no rule, a rule nothing matches, or an earlier handler that always takes their \
            commands (never-accepts, shadowed). Exit status 1 when there are errors (or warnings, with --strict).
            """
    )

    @Argument(help: "The chain definition (JSON); - for standard input.", transform: StandardInput.path)
    var definition: String

    @Flag(name: .long, help: "Treat warnings as errors for the exit status.")
    var strict = false

    @OptionGroup var output: OutputOptions

    func run() throws {
        let findings = try ChainDefinitionLinter.lint(path: definition)
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.count - errors
        switch output.format {
        case .json:
            let report: JSONValue = [
                "file": .string(definition), "errors": .integer(Int64(clamping: errors)),
                "warnings": .integer(Int64(clamping: warnings)),
                "findings": try JSONValue(encoding: findings),
            ]
            Terminal.standardOutput.writeData(report.printed)
        case .text:
            let style = output.style
            var text = ""
            for finding in findings {
                let line = finding.description
                text += (finding.severity == .error ? style.red(line) : style.yellow(line)) + "\n"
            }
            if findings.isEmpty {
                text += style.green("\(definition): no problems found") + "\n"
            } else {
                text += "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\n"
            }
            Terminal.standardOutput.writeText(text)
        }
        if errors > 0 || (strict && warnings > 0) { throw CommandFailure.found }
    }
}
