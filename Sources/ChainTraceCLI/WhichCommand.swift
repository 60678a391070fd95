import ArgumentParser
import ChainTrace
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay

/// `chaintrace which DEF COMMAND-JSON`: the dry run.
struct WhichCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "which",
        abstract: "Who would take a command, and by which path — without running any handler.",
        discussion: """
            The command is one line of a command stream, e.g. '{"kind":"Tap","entry":"Cell","x":3}', or @FILE \
            to read it from a file holding that one command (a second is an error: replay runs streams). The dry run decides as replay does (a handler's "fails" rule included) \
            but runs nothing. Exit status 1 when no handler would take it: it would fall off the end or fail.
            """
    )

    @Argument(help: "The chain definition (JSON); - for standard input.", transform: StandardInput.path)
    var definition: String

    @Argument(
        help: ArgumentHelp(
            "The command as JSON, or @FILE holding one command (@- for standard input).",
            valueName: "command-json"
        )
    )
    var command: String

    @Option(name: .long, help: "Send it to this handler instead of the command's own entry or the chain's first.")
    var entry: String?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        try StandardInput.checkReadOnce([
            definition, command.hasPrefix("@") ? StandardInput.path(String(command.dropFirst())) : nil,
        ])
    }

    func run() throws {
        let definition = try ChainDefinition.load(path: definition)
        let chain = try definition.makeChain(unknownTypes: .modelFromRules)
        if command == "-" {
            // As the definition is read from standard input: but a command argument is JSON, and "-" is none.
            throw CommandFailure.badInput(
                "<command>: expected a command as JSON, found \"-\"; write @- to read the command from standard input"
            )
        }
        let name = command.hasPrefix("@") ? StandardInput.path(String(command.dropFirst())) : "<command>"
        let stream =
            command.hasPrefix("@")
            ? try CommandStreamReader(path: name) : CommandStreamReader(bytes: Array((command + "\n").utf8), name: name)
        let first: (line: Int, item: CommandStreamReader.Item)?
        do {
            first = try stream.next()
        } catch {
            guard !command.hasPrefix("@"), LineReader.isRegularFile(command) else { throw error }
            // A file named as the command itself: what was meant is plain.
            throw CommandFailure.badInput(
                "\(name): expected a command as JSON, found \"\(TerminalText.shown(command))\", a file; write @\(TerminalText.shown(command)) to read the command from it"
            )
        }
        guard let (commandLine, item) = first else {
            throw CommandFailure.badInput("\(name): expected a command object, found nothing")
        }
        guard case .command(let parsed) = item else {
            throw CommandFailure.badInput("\(name): expected a command, found a chain change")
        }
        // One command: a second is never dropped silently.
        if let (line, _) = try stream.next() {
            throw CommandFailure.badInput(
                "\(name):\(line): expected one command, found another; which answers for one (replay runs a stream)"
            )
        }
        let start = entry ?? parsed.entry
        let dryRun: DryRun
        do {
            dryRun = try chain.whoWouldHandle(parsed, from: start)
        } catch {
            let found = TerminalText.shown(start ?? "")
            // A registry's member is no entry, but its registry is.
            let handlers = definition.handlers.map(\.name)
            let hint: String
            if error.code == .wrongKind && error.handlers.count == 2 {
                hint = ChainDefinitionLinter.registryMemberHint(TerminalText.shown(error.handlers[1]))
            } else {
                let near = ChainDefinitionLinter.nearMiss(start ?? "", among: handlers)
                let listed = handlers.prefix(12).map { "\"\(TerminalText.shown($0))\"" }.joined(separator: ", ")
                hint =
                    near.isEmpty
                    ? " (its handlers: \(listed)\(handlers.count > 12 ? ", …" : ""))" : TerminalText.shown(near)
            }
            // An entry given with --entry is that option's error; the command's own, the command's.
            // The command's own entry is named where its line gives it.
            let place =
                entry != nil
                ? "--entry" : parsed.entryColumn > 0 ? "\(name):\(commandLine):\(parsed.entryColumn)" : name
            throw CommandFailure.badInput(
                "\(place): expected an entry naming a handler of \(TerminalText.shown(definition.name)), found \"\(found)\"\(hint)"
            )
        }
        switch output.format {
        case .json:
            Terminal.standardOutput.writeData(try JSONValue(encoding: dryRun).printed)
        case .text:
            let style = output.style
            var text = ""
            for (index, step) in dryRun.steps.enumerated() {
                let place = step.registry.map { " (in \($0))" } ?? ""
                text +=
                    "  \(index + 1). \(TerminalText.shown(step.handler))\(TerminalText.shown(place)): \(words(step.answer))\(step.error.map { ": \(TerminalText.shown($0))" } ?? "")\n"
            }
            let path = TerminalText.shown(dryRun.path.joined(separator: " → "))
            if let last = dryRun.steps.last, last.answer == .wouldFail {
                text +=
                    style.red("It would fail at \(TerminalText.shown(last.handler))")
                    + ": \(TerminalText.shown(last.error ?? "")), by \(path).\n"
            } else if let handler = dryRun.handler {
                text += style.green("\(TerminalText.shown(handler)) would take it") + ", by \(path).\n"
            } else {
                text += style.red("No handler would take it") + ": it would fall off the end after \(path).\n"
            }
            if !dryRun.undecided.isEmpty {
                text +=
                    "Undecided: \(TerminalText.shown(dryRun.undecided.joined(separator: ", "))) cannot tell without running; the walk above assumes each passes it on.\n"
            }
            Terminal.standardOutput.writeText(text)
        }
        if dryRun.handler == nil { throw CommandFailure.found }
    }

    private func words(_ answer: DryRun.Answer) -> String {
        switch answer {
        case .wouldAccept: "would accept"
        case .wouldPass: "would pass it on"
        case .wouldContinue: "would observe it and let it continue"
        case .wouldFail: "would fail"
        case .cannotTell: "cannot tell without running"
        }
    }
}
