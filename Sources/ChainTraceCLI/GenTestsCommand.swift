import ArgumentParser
import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
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
            makeRecordedChain(), which the test target must define. A command recorded without its payload, or after \
            chain changes made while the log was recorded (a log names what changed, not the rules of the handlers \
            that came and went, so the tests do not make them), may take another path: its test says so, and a \
            warning counts them.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The recorded trace log: one or more files, directories or quoted patterns read as one log; - for standard input.",
            valueName: "log"
        ),
        transform: StandardInput.path
    )
    var logs: [String]

    @Option(
        name: .long,
        help: ArgumentHelp("The chain definition the tests replay through.", valueName: "file"),
        transform: StandardInput.path
    )
    var definition: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write tests for this chain's commands only (default: the definition's chain, with --definition; else every command). A log recorded in an app holds every chain its recorder saw.",
            valueName: "name"
        )
    )
    var chain: String?

    @Option(name: .long, help: "exhaustive (path and outcome) or lenient (outcome only).")
    var mode: SwiftTestGenerator.Mode = .exhaustive

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write the file here (whole or not at all; gzip-compressed when the name ends in .gz) instead of to standard output (- is standard output too).",
            valueName: "file"
        ),
        transform: StandardOutput.path
    )
    var output: String?

    @Flag(
        name: .long,
        help:
            "One test per distinct behaviour — command kind, entry, path with each hop's decision, and outcome — from the first command that behaved so, its test saying how many did: a production log's representative tests, not one per command."
    )
    var distinct = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The name of the generated suite's type, a Swift identifier; each generated file of a test target needs its own (default: from the output file's name, RecordedLoginTests.swift or recorded-login.swift giving RecordedLoginTests; RecordedSessionTests on standard output).",
            valueName: "name"
        )
    )
    var suite: String?

    func validate() throws {
        try StandardInput.checkReadOnce(logs + [definition])
        if let suite, !SwiftTestGenerator.isTypeName(suite) {
            throw ValidationError(
                "--suite: expected a Swift type name (ASCII letters, digits and underscores, not starting with a digit, "
                    + "not a keyword), found '\(TerminalText.shown(suite))'"
            )
        }
    }

    func run() throws {
        try OutputTarget.check(output, reading: logs + (definition.map { [$0] } ?? []))
        let loaded = try definition.map { path throws(FormatError) in try ChainDefinition.load(path: path) }
        let onlyChain = chain ?? loaded?.name
        let reader = try TraceLogReader(paths: logs)
        var arguments = ["chaintrace", "gen-tests"] + logs
        if let definition { arguments += ["--definition", definition] }
        if let chain { arguments += ["--chain", chain] }
        if mode != .exhaustive { arguments += ["--mode", mode.rawValue] }
        if distinct { arguments += ["--distinct"] }
        var generator = SwiftTestGenerator(
            logName: Self.logName(logs),
            definitionPath: definition,
            mode: mode,
            commandLine: arguments.joined(separator: " "),
            typeName: suite ?? output.flatMap {
                $0 == StandardOutput.path ? nil : SwiftTestGenerator.typeName(forFile: $0)
            }
                ?? SwiftTestGenerator.defaultTypeName
        )
        let severalFiles = reader.files.count > 1
        // Read whole before writing: a chain change is judged by each trace's chain version, and its record may
        // come after traces that were recorded before it.
        // With --distinct, only the first trace of each behaviour is kept (every trace still counts for the chain
        // changes), so memory grows with the behaviours, not the log.
        var recorded: [(trace: Trace, line: Int, file: String?)] = []
        var changes = ChangesWhileRecording()
        var behaviours: [Behaviour: Int] = [:]
        var alike: [Int] = []
        var commands = 0
        var otherChains: [String: Int] = [:]
        var chains: Set<String> = []
        while let trace = try reader.next() {
            if let onlyChain, trace.chain != onlyChain {
                otherChains[trace.chain, default: 0] += 1
                continue
            }
            chains.insert(trace.chain)
            changes.add(trace)
            commands += 1
            if distinct {
                let behaviour = Behaviour(trace)
                if let index = behaviours[behaviour] {
                    alike[index] += 1
                    continue
                }
                behaviours[behaviour] = recorded.count
                alike.append(1)
            }
            recorded.append(
                (trace, reader.line, severalFiles ? reader.file.split(separator: "/").last.map(String.init) : nil)
            )
        }
        let logNames = TerminalText.paths(logs)
        if let onlyChain, !otherChains.isEmpty {
            let listed = TerminalText.counts(otherChains)
            if recorded.isEmpty {
                throw CommandFailure.badInput(
                    "\(logNames): expected traces of chain '\(TerminalText.shown(onlyChain))', found only other chains' (\(listed)): "
                        + "give --chain, or the definition of one of those"
                )
            }
            Terminal.standardError.writeText(
                "chaintrace: warning: set aside \(TerminalText.counted(otherChains.values.reduce(0, +), "command")) of \(logNames) "
                    + "recorded on other chains than '\(TerminalText.shown(onlyChain))' (\(listed)): --chain writes tests of another\n"
            )
        } else if onlyChain == nil, chains.count > 1 {
            let named = chains.sorted().map { "'\(TerminalText.shown($0))'" }.joined(separator: ", ")
            Terminal.standardError.writeText(
                "chaintrace: warning: \(logNames) holds \(chains.count) chains (\(named)), and every test sends its command "
                    + "through makeRecordedChain(): --chain NAME writes tests of one\n"
            )
        }
        changes.set(reader.chainEdits)
        var withoutPayload = 0
        var afterChanges = 0
        for (index, (trace, line, file)) in recorded.enumerated() {
            if trace.payload == nil { withoutPayload += 1 }
            if !changes.made(before: trace).isEmpty { afterChanges += 1 }
            var notes = Self.notes(for: trace, changes: changes)
            if distinct {
                let how = "with this kind, entry, path and outcome."
                notes.insert(
                    alike[index] == 1
                        ? "The only command in the log \(how)"
                        : "The first of \(alike[index]) commands in the log \(how)",
                    at: 0
                )
            }
            generator.add(trace, line: line, file: file, notes: notes)
        }
        let source = generator.source
        if let output {
            let file = try OutputTarget.file(output)
            try file.write(Array(source.utf8))
            try file.commit()
            Terminal.standardError.writeText(
                "Wrote \(TerminalText.shown(output)): \(TerminalText.counted(recorded.count, "test")) from "
                    + (distinct ? "\(TerminalText.counted(commands, "command")) in " : "")
                    + "\(TerminalText.counted(reader.files.count, "file")).\n"
            )
        } else {
            Terminal.standardOutput.writeData(source)
        }
        if !distinct, recorded.count > Self.manyTests {
            Terminal.standardError.writeText(
                "chaintrace: warning: wrote \(TerminalText.counted(recorded.count, "test")), more than a test target compiles "
                    + "comfortably; --distinct writes one per distinct kind, entry, path and outcome\n"
            )
        }
        if withoutPayload > 0 {
            Terminal.standardError.writeText(
                "chaintrace: warning: \(TerminalText.share(withoutPayload, of: recorded.count, "command")) in \(logNames) "
                    + "\(TerminalText.agreeing(withoutPayload, "has", "have")) no payload "
                    + "(recorded without payloads: a recorder captures them only with `payloads: .captured`); their tests send them with empty fields, so they may take "
                    + "another path than the recorded one (each such test says so)\n"
            )
        }
        if afterChanges > 0 {
            Terminal.standardError.writeText(
                "chaintrace: warning: \(TerminalText.share(afterChanges, of: recorded.count, "command")) in \(logNames) "
                    + "\(TerminalText.agreeing(afterChanges, "was", "were")) recorded after "
                    + "\(TerminalText.counted(changes.madeWhileRecording.count, "chain change")) made while it was recorded, "
                    + "which the generated tests do not make (a log names what changed, not the rules of the handlers that "
                    + "came and went); their tests send them through the chain as the tests build it, so they may take "
                    + "another path (each such test names the changes)\n"
            )
        }
    }
}

extension GenTestsCommand {
    /// More tests than this in one file draw a warning that points to `--distinct`.
    static let manyTests = 10_000

    /// What a generated test checks of a command, and its kind: two commands alike in these get the same test.
    struct Behaviour: Hashable {
        var kind: String
        var entry: String
        var hops: [String]
        var decisions: [Decision]
        var outcome: Outcome

        init(_ trace: Trace) {
            kind = trace.commandKind
            entry = trace.entry
            hops = trace.path
            decisions = trace.hops.map(\.decision)
            outcome = trace.outcome
        }
    }

    /// The logs' file names, as the generated file's header and suite name give them: a few in full, many as the
    /// first two and the last around their count.
    static func logName(_ logs: [String]) -> String {
        FileListText.listed(logs.map { $0.split(separator: "/").last.map(String.init) ?? $0 })
    }

    /// What the test of `trace` cannot reproduce of how its command was recorded, as lines of text: a payload left
    /// out, or chain changes made while recording, before the command ran, which the test's chain does not make.
    static func notes(for trace: Trace, changes: ChangesWhileRecording) -> [String] {
        var notes: [String] = []
        if trace.payload == nil {
            notes.append(
                "Recorded without its payload (a recorder captures payloads only with `payloads: .captured`): "
                    + "sent with empty fields, it may take another path."
            )
        }
        let before = changes.made(before: trace)
        if !before.isEmpty {
            let shown = before.suffix(3).map(\.description).joined(separator: "; ")
            let more = before.count > 3 ? " (and \(before.count - 3) earlier)" : ""
            notes.append(
                "Recorded on version \(trace.chainVersion) of \(trace.chain), after \(before.count == 1 ? "a change" : "changes") "
                    + "made while recording that this test's chain does not make: \(shown)\(more)."
            )
        }
        return notes
    }
}

extension SwiftTestGenerator.Mode: ExpressibleByArgument {}
