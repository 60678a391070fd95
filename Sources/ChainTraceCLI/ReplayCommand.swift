import ArgumentParser
import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceReplay
import ChainTraceTraceLog

/// `chaintrace replay DEF STREAM`: runs every command of a stream through the defined chain.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a command stream (or a recorded trace log) through a chain definition.",
        discussion: """
            Prints each command's path (the first --paths of them), then a per-handler table: commands seen, \
            accepted, passed, continued, failed, self-time p50/p95/p99, and SLOW on handlers the --slow rule \
            flags. With --expect, compares every command's path with a recorded trace log and lists each \
            divergence; any divergence makes the exit status 1. A trace log holds every chain its app recorded: \
            only the traces of the definition's chain (or --chain's) are replayed and compared; the others are set \
            aside, and a warning counts them. Self times are measured after a warm-up: the stream's first commands \
            (up to 64, before its first change) go once through a copy of the chain without its work, untimed, so \
            that what a process runs for the first time is no handler's time.
            """
    )

    @Argument(help: "The chain definition (JSON); - for standard input.", transform: StandardInput.path)
    var definition: String

    @Argument(
        help: ArgumentHelp(
            "The command stream (JSON Lines), or a trace log whose commands are replayed: one or more files, directories or quoted patterns read as one log; - for standard input.",
            valueName: "stream"
        ),
        transform: StandardInput.path
    )
    var streams: [String]

    @Option(
        name: .long,
        parsing: .singleValue,
        help: ArgumentHelp(
            "A recorded trace log to compare every command's path with (repeatable: several files as one log).",
            valueName: "log"
        ),
        transform: StandardInput.path
    )
    var expect: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write the replay's trace log here (written whole or not at all; gzip-compressed when the name ends in .gz).",
            valueName: "file"
        )
    )
    var traceOut: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With a trace log: the recorded chain whose commands are replayed and compared (default: the definition's chain; another replays a configuration's sessions through this one).",
            valueName: "name"
        )
    )
    var chain: String?

    @Flag(name: .long, help: "Report and count invalid lines, and go on (the exit status is then 1).")
    var skipInvalid = false

    @Option(name: .long, help: "How many commands' paths to print.")
    var paths = 50

    @Option(name: .long, help: "How many divergences to list.")
    var divergences = 50

    @OptionGroup var slowRule: SlowRuleOptions
    @OptionGroup var output: OutputOptions

    /// `error` with a hint when a file of several is not a trace log: only a recorded log can be several files.
    private static func explained(_ error: FormatError) -> FormatError {
        guard error.line == 1, error.expected.hasPrefix("a trace log header") else { return error }
        var explained = error
        explained.expected +=
            " (several files, a directory or a pattern are read as one recorded trace log; "
            + "replay a command stream one file at a time)"
        return explained
    }

    func validate() throws {
        if paths < 0 { throw ValidationError("--paths must be 0 or more") }
        if divergences < 0 { throw ValidationError("--divergences must be 0 or more") }
        try StandardInput.checkReadOnce([definition] + streams + expect)
        if let traceOut, AtomicOutputFile.ownDescriptor(StandardOutput.path(traceOut)) == 1 {
            throw ValidationError(
                "expected a file for --trace-out, found \(traceOut) (standard output, where the replay prints its report: the two would mix)"
            )
        }
    }

    func run() throws {
        try OutputTarget.check(traceOut, reading: streams + expect + [definition])
        let rule = try slowRule.rule()
        let definition = try ChainDefinition.load(path: definition)
        var options = ReplaySession.Options()
        options.skipsInvalidLines = skipInvalid
        options.keptPaths = paths
        options.recordedChain = chain
        let session = try ReplaySession(definition: definition, options: options)
        // One plain file is a command stream or a trace log, as its first line says; several files, a directory
        // or a pattern can only be a trace log (a rotated one).
        let files = try streams.flatMap { path throws(FormatError) in try TraceLogReader.files(at: path) }
        let reader: CommandStreamReader
        if files == streams && files.count == 1 {
            reader = try session.openStream(path: files[0])
        } else {
            reader = try session.openTraceLog(paths: files)
        }
        let stream = TerminalText.paths(streams)
        let expected = expect.isEmpty ? nil : try TraceLogReader(paths: expect, payloads: false)
        let outputFile = try traceOut.map { path throws(FormatError) in try OutputTarget.file(path) }
        // A replay's log must hold every command, and is written by the replay's own two threads (the one that
        // reads ahead takes batches of traces whenever it would wait): a writer thread of the sink's own would
        // be a third busy thread on two cores, and the pace would be set by the slower of decoding and writing.
        var logOptions = TraceLogSink.Options()
        logOptions.writesInBackground = false
        let sink = try outputFile.map { file throws(FormatError) in
            do throws(FormatError) { return try TraceLogSink(path: file.temporaryPath, options: logOptions) } catch {
                throw file.naming(error)
            }
        }
        let progress = ProgressBar(totalBytes: ProgressBar.size(of: files))
        let clock = ContinuousClock()
        let started = clock.now
        let report: ReplayReport
        do {
            report = try session.run(reader, traceLog: sink, expected: expected, progress: progress.update)
        } catch {
            let error = outputFile?.naming(error) ?? error
            throw reader.readsSeveralFiles || files != streams ? Self.explained(error) : error
        }
        let elapsed = clock.now - started
        progress.finish()
        // Skipped lines carry the same hint as a first error would: a command stream among several files is
        // reported line by line as no trace log.
        let readsAsOneLog = reader.readsSeveralFiles || files != streams
        let invalidLines = report.invalidLines.map { readsAsOneLog ? Self.explained($0) : $0 }
        if let sink, let outputFile {
            do { try sink.close() } catch { throw outputFile.naming(error) }
            try outputFile.commit()
        }
        let profile = ProfileReport(profile: report.profile, rule: rule)
        let style = output.style
        if reader.commandsWithoutPayload > 0 {
            Terminal.standardError.writeText(
                "chaintrace: warning: \(TerminalText.share(reader.commandsWithoutPayload, of: report.commands, "command")) in "
                    + "\(stream) \(TerminalText.agreeing(reader.commandsWithoutPayload, "has", "have")) no payload "
                    + "(recorded without payloads: a recorder captures them only with `payloads: .captured`); they replay with empty fields, so their paths may differ "
                    + "from the recording\n"
            )
        }
        let otherChains = reader.commandsOfOtherChains
        if !otherChains.isEmpty {
            let listed = TerminalText.counts(otherChains)
            let total = otherChains.values.reduce(0, +)
            let recorded = TerminalText.shown(session.recordedChain)
            if report.commands == 0 {
                throw CommandFailure.badInput(
                    "\(stream): expected traces of chain '\(recorded)'\(chain == nil ? " (the definition's)" : ""), found only "
                        + "other chains' (\(listed)): pass --chain NAME to replay one of them through this definition"
                )
            }
            Terminal.standardError.writeText(
                "chaintrace: warning: set aside \(TerminalText.counted(total, "command")) of \(stream) recorded on other chains "
                    + "than '\(recorded)' (\(listed)): --chain NAME replays another\n"
            )
        }
        if !report.expectedOfOtherChains.isEmpty {
            let total = report.expectedOfOtherChains.values.reduce(0, +)
            Terminal.standardError.writeText(
                "chaintrace: warning: set aside \(TerminalText.counted(total, "trace")) of the --expect log recorded on other "
                    + "chains than '\(TerminalText.shown(session.recordedChain))' (\(TerminalText.counts(report.expectedOfOtherChains))); "
                    + "they are not compared\n"
            )
        }
        if reader.recordedChainChanges > 0 {
            Terminal.standardError.writeText(
                "chaintrace: warning: \(stream) records \(TerminalText.counted(reader.recordedChainChanges, "chain change")) "
                    + "made while it was recorded, which the replay does not make (a log names what changed, not the rules of "
                    + "the handlers that came and went); its commands go through the definition's chain as it is, so their "
                    + "paths may differ from the recording\n"
            )
        }
        if report.commandsWithUnknownEntry > 0 {
            Terminal.standardError.writeText(
                "chaintrace: warning: \(TerminalText.share(report.commandsWithUnknownEntry, of: report.commands, "command")) in "
                    + "\(stream) entered the recorded chain at a handler the definition does not have (added by a change made "
                    + "while it was recorded); they went in at the definition's entry\n"
            )
        }
        switch output.format {
        case .json:
            var object = try profile.json().merging([
                "chain": .string(definition.name),
                "changes": .integer(Int64(clamping: report.changes)),
                "paths": .array(
                    try report.paths.map { command in
                        var entry: [String: JSONValue] = [
                            "line": .integer(Int64(clamping: command.line)), "kind": .string(command.trace.commandKind),
                            "path": .array(command.trace.path.map { .string($0) }),
                            "outcome": try JSONValue(encoding: command.trace.outcome),
                        ]
                        if let id = command.trace.commandID { entry["id"] = .string(id) }
                        if let file = command.file { entry["file"] = .string(file) }
                        return .object(entry)
                    }
                ),
                "invalidLines": .array(invalidLines.map { .string($0.description) }),
                "invalidLineCount": .integer(Int64(clamping: report.invalidLineCount)),
                "commandsWithoutPayload": .integer(Int64(clamping: reader.commandsWithoutPayload)),
                "recordedChainChanges": .integer(Int64(clamping: reader.recordedChainChanges)),
                "commandsWithUnknownEntry": .integer(Int64(clamping: report.commandsWithUnknownEntry)),
            ])
            if let comparison = report.comparison {
                object = object.merging([
                    "comparison": try DivergenceReport(matcher: comparison, shown: divergences).json()
                ])
            }
            if let torn = report.tornTail { object = object.merging(["tornTail": .string(torn.description)]) }
            Terminal.standardOutput.writeData(object.printed)
        case .text:
            var text =
                style.bold("Replayed \(TerminalText.counted(report.commands, "command"))")
                + (files.count > 1 ? " from \(files.count) files" : "")
                + " through \(definition.name)"
            if report.changes > 0 { text += " with \(TerminalText.counted(report.changes, "chain change"))" }
            text += " in \(DurationText.format(nanoseconds: elapsed.nanoseconds)).\n"
            if !report.paths.isEmpty {
                text += "\n" + style.bold("Paths") + "\n" + pathTable(report.paths, style: style)
                if report.commands > report.paths.count {
                    text += "  … \(report.commands - report.paths.count) more commands (--paths N shows more).\n"
                }
            }
            text += "\n" + style.bold("Handlers") + "\n" + profile.text(style: style)
            if let comparison = report.comparison {
                text += "\n" + style.bold("Compared with \(TerminalText.paths(expect))") + "\n"
                text += DivergenceReport(matcher: comparison, shown: divergences).text(style: style)
            }
            if report.invalidLineCount > 0 {
                text +=
                    "\n" + style.red("Skipped \(TerminalText.counted(report.invalidLineCount, "invalid line"))") + ":\n"
                for error in invalidLines { text += "  \(error)\n" }
            }
            if let torn = report.tornTail { text += "\n  Ignored a torn last line: \(torn)\n" }
            Terminal.standardOutput.writeText(text)
        }
        if (report.comparison?.total ?? 0) > 0 || report.invalidLineCount > 0 { throw CommandFailure.found }
    }

    private func pathTable(_ commands: [ReplayedCommand], style: Style) -> String {
        var table = TextTable([("line", .right), ("command", .left), ("path", .left), ("outcome", .left)])
        let failureStyle: (String) -> String = style.red
        for command in commands {
            let trace = command.trace
            let name = trace.commandID.map { "\($0) \(trace.commandKind)" } ?? trace.commandKind
            let isFailure: Bool = if case .failed = trace.outcome { true } else { false }
            table.add(
                [
                    TerminalText.shown(command.file.map { "\($0):\(command.line)" } ?? "\(command.line)"), name,
                    trace.path.map(HandlerNameText.of).joined(separator: " → "), "\(trace.outcome)",
                ],
                style: isFailure ? failureStyle : nil
            )
        }
        return table.render(style: style)
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
