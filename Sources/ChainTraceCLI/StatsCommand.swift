import ArgumentParser
import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTraceLog

/// `chaintrace stats LOG`: the per-handler profile of a trace log.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Profile a trace log recorded by an instrumented app: per-handler decisions and self time.",
        discussion: """
            Reads the log as it streams, in constant memory, however large it is, on every core (parts of each file \
            at once, their profiles merged exactly). Several files, or a directory of \
            them (a rotated log: its *.jsonl and *.jsonl.gz files in name order, numbers by value), are read as one log.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The trace log: one or more files or directories (as TraceLogSink writes them; gzip files too); - for standard input.",
            valueName: "log"
        ),
        transform: StandardInput.path
    )
    var logs: [String]

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A chain definition whose handler budgets the slow rule should check (a warning says when the log went through none of its budgeted handlers).",
            valueName: "file"
        ),
        transform: StandardInput.path
    )
    var definition: String?

    @Option(name: .long, help: ArgumentHelp("Threads reading the log at once (default: one per core).", valueName: "n"))
    var threads: Int?

    @OptionGroup var chainFilter: ChainFilterOptions

    @OptionGroup var slowRule: SlowRuleOptions
    @OptionGroup var output: OutputOptions

    /// A definition whose budgeted handlers none of the log's traces went through is most likely the wrong one
    /// (another chain's, or one renamed since): said on standard error, as the profile then checks no budget.
    static func warnIfNoBudgetApplies(_ definition: ChainDefinition, named path: String, to profile: ChainProfile) {
        let budgeted = definition.handlers.flatMap { [$0] + ($0.members ?? []) }.filter { $0.budget != nil }.map(\.name)
        guard profile.commands > 0, !budgeted.isEmpty,
            !budgeted.contains(where: { (profile.statistics(of: $0)?.seen ?? 0) > 0 })
        else { return }
        let chains = profile.chains.map { "'\($0)'" }.joined(separator: ", ")
        Terminal.standardError.writeText(
            "chaintrace: warning: "
                + (budgeted.count == 1
                    ? "the one handler with a budget" : "none of the \(budgeted.count) handlers with a budget")
                + " in \(TerminalText.shown(path)) (chain "
                + "'\(TerminalText.shown(definition.name))') \(budgeted.count == 1 ? "is not" : "is") in the log (chain \(TerminalText.shown(chains))), so no budget is checked\n"
        )
    }

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be 1 or more") }
        try StandardInput.checkReadOnce(logs + [definition])
    }

    func run() throws {
        let rule = try slowRule.rule()
        var profile = ChainProfile()
        let declared = try definition.map { path throws(FormatError) in try ChainDefinition.load(path: path) }
        if let declared { profile.declareBudgets(of: declared) }
        let files = try logs.flatMap { path throws(FormatError) in try TraceLogReader.files(at: path) }
        let progress = ProgressBar(totalBytes: ProgressBar.size(of: files))
        var profiler = TraceLogProfiler(threads: threads)
        profiler.chains = chainFilter.chains
        let read = try profiler.profile(paths: logs, into: profile, progress: progress.update)
        progress.finish()
        profile = read.profile
        chainFilter.warnIfAbsent(commands: profile.commands)
        if let declared, let definition { Self.warnIfNoBudgetApplies(declared, named: definition, to: profile) }
        let report = ProfileReport(profile: profile, rule: rule)
        switch output.format {
        case .json:
            var object = try report.json().merging(["chains": .array(profile.chains.map { .string($0) })])
            if let torn = read.tornTails.first { object = object.merging(["tornTail": .string(torn.description)]) }
            object = object.merging([
                "files": .integer(Int64(read.files.count)),
                "droppedTraces": .integer(Int64(clamping: read.droppedTraces)),
                "chainEdits": .array(read.chainEdits.map { .string($0.description) }),
            ])
            Terminal.standardOutput.writeData(object.printed)
        case .text:
            let style = output.style
            let source =
                read.files.count == 1 ? read.files[0] : "\(read.files.count) files (\(TerminalText.paths(logs)))"
            // A log of no traces names no chain.
            let chains =
                profile.chains.isEmpty
                ? "" : " of \(TerminalText.shown(profile.chains.map(HandlerNameText.chain).joined(separator: ", ")))"
            var text =
                style.bold(TerminalText.counted(profile.commands, "trace"))
                + "\(chains) in \(TerminalText.shown(source))\n\n"
            text += report.text(style: style)
            if profile.chains.count > 1 {
                text +=
                    "\n  \(profile.chains.count) chains in one table: a handler's row adds up every chain with a handler of its "
                    + "name; --chain NAME profiles one.\n"
            }
            for torn in read.tornTails {
                text += "\n  Ignored a torn last line: \(TerminalText.shown(torn.description))\n"
            }
            if !read.chainEdits.isEmpty {
                text +=
                    "\n  " + style.bold("The chain changed \(TerminalText.counted(read.chainEdits.count, "time"))")
                    + " while it was recorded:\n"
                for edit in read.chainEdits.prefix(10) { text += "    \(TerminalText.shown(edit.description))\n" }
                if read.chainEdits.count > 10 {
                    text += "    … \(read.chainEdits.count - 10) more (--format json lists them all)\n"
                }
            }
            if read.droppedTraces > 0 {
                text +=
                    "\n  " + style.red("The writer dropped \(TerminalText.counted(read.droppedTraces, "trace"))")
                    + " (its queue was full, or a write to the disk failed; the log records where); the profile covers the rest.\n"
            }
            Terminal.standardOutput.writeText(text)
        }
    }
}
