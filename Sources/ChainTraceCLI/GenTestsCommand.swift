import ArgumentParser
import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestGeneration
import ChainTraceTraceLog

/// `chaintrace gen-tests LOG`: a recorded session as a Swift Testing regression test.
struct GenTestsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gen-tests",
        abstract: "Write a Swift Testing file that replays each recorded command and checks what happened to it.",
        discussion: """
            Each command of the log becomes a test that sends it through the chain and checks, in exhaustive mode, \
            the whole path and the outcome, in lenient mode only the outcome (who accepted it, that nobody did, or \
            where it failed). The file needs the ChainTraceTesting library. With --definition the tests load that \
            chain definition (its path as given, relative to where the tests run); without it they call \
            makeRecordedChain(), which the test target must define.
            """
    )

    @Argument(help: ArgumentHelp("The recorded trace log: one or more files, directories or quoted patterns read as one log; - for standard input.", valueName: "log"), transform: StandardInput.path)
    var logs: [String]

    @Option(name: .long, help: ArgumentHelp("The chain definition the tests replay through.", valueName: "file"), transform: StandardInput.path)
    var definition: String?

    @Option(name: .long, help: "exhaustive (path and outcome) or lenient (outcome only).")
    var mode: SwiftTestGenerator.Mode = .exhaustive

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the file here (whole or not at all; gzip-compressed when the name ends in .gz) instead of to standard output (- is standard output too).", valueName: "file"), transform: StandardOutput.path)
    var output: String?

    func validate() throws {
        try StandardInput.checkReadOnce(logs + [definition])
    }

    func run() throws {
        try OutputTarget.check(output, reading: logs + (definition.map { [$0] } ?? []))
        if let definition { _ = try ChainDefinition.load(path: definition) }
        let reader = try TraceLogReader(paths: logs)
        var arguments = ["chaintrace", "gen-tests"] + logs
        if let definition { arguments += ["--definition", definition] }
        if mode != .exhaustive { arguments += ["--mode", mode.rawValue] }
        var generator = SwiftTestGenerator(
            logName: logs.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: ", "), definitionPath: definition, mode: mode,
            commandLine: arguments.joined(separator: " "))
        let severalFiles = reader.files.count > 1
        while let trace = try reader.next() {
            generator.add(trace, line: reader.line, file: severalFiles ? reader.file.split(separator: "/").last.map(String.init) : nil)
        }
        let source = generator.source
        if let output {
            let file = try OutputTarget.file(output)
            try file.write(Array(source.utf8))
            try file.commit()
        } else {
            Terminal.standardOutput.writeData(source)
        }
    }
}

extension SwiftTestGenerator.Mode: ExpressibleByArgument {}
