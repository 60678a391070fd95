import ArgumentParser
import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceGraphviz
import ChainTraceJSON
import ChainTraceReport
import ChainTraceTraceLog

/// `chaintrace report LOG -o report.html`: the log explored in one self-contained HTML page.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write an interactive explorer of a trace log: one offline HTML file to open or attach to a bug.",
        discussion: """
            The page shows the overview and slow handlers (in stats's words), the profile diagram (click a handler \
            for its decisions, self and inclusive percentiles and a histogram of its self times), a sortable \
            handler table, and a filterable list of commands: pick one to see its path on the diagram and a \
            waterfall of its hops (← and → step through them; the address's #hash keeps the selection). With \
            --compare it also draws what changed and lists the commands whose path, taker or outcome changed. \
            Every number covers the whole log, read in constant memory on every core; the page lists at most \
            --commands commands (failures — all of them while they fill at most half the list — the slowest, then a \
            uniform sample) and says so. The file makes \
            no network request and runs nothing from the log. It is written whole or not at all.
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
            "The chain definition: draws the chain as defined and checks handler budgets.",
            valueName: "file"
        ),
        transform: StandardInput.path
    )
    var definition: String?

    @Option(
        name: .long,
        parsing: .singleValue,
        help: ArgumentHelp(
            "A second log of the same commands: show what changed from LOG to it (repeatable: several files as one log).",
            valueName: "log"
        ),
        transform: StandardInput.path
    )
    var compare: [String] = []

    @Option(name: .long, help: ArgumentHelp("The most commands the page lists one by one.", valueName: "n"))
    var commands = 10_000

    @Option(name: .long, help: ArgumentHelp("Threads reading the log at once (default: one per core).", valueName: "n"))
    var threads: Int?

    @OptionGroup var slowRule: SlowRuleOptions
    @OptionGroup var chainFilter: ChainFilterOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The HTML file to write (gzip-compressed when the name ends in .gz); - for standard output.",
            valueName: "file"
        ),
        transform: StandardOutput.path
    )
    var output: String

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be 1 or more") }
        if commands < 0 { throw ValidationError("--commands must be 0 or more") }
        try StandardInput.checkReadOnce(logs + compare + [definition])
    }

    func run() throws {
        try OutputTarget.check(output, reading: logs + compare + (definition.map { [$0] } ?? []))
        let rule = try slowRule.rule()
        var profile = ChainProfile()
        var graph: ChainGraph?
        if let definition {
            let loaded = try ChainDefinition.load(path: definition)
            profile.declareBudgets(of: loaded)
            graph = ChainGraph(definition: loaded)
        }
        let given = try logs.flatMap { path throws(FormatError) in try TraceLogReader.files(at: path) }
        let compared = try compare.flatMap { path throws(FormatError) in try TraceLogReader.files(at: path) }
        // With --compare the log is read a second time, beside the other: a pipe is kept in a file to be read again.
        let inputs = try ReadOnceInputs(compared.isEmpty ? [] : given)
        let files = compared.isEmpty ? given : inputs.paths
        let progress = ProgressBar(
            totalBytes: ProgressBar.size(of: files)
                + (compared.isEmpty ? 0 : ProgressBar.size(of: files) + ProgressBar.size(of: compared))
        )
        let limit = commands
        var read: TraceLogProfiler.Result
        let collected: TraceReport.Collector
        var comparison: TraceReport.Comparison?
        do {
            var profiler = TraceLogProfiler(threads: threads)
            profiler.chains = chainFilter.chains
            (read, collected) = try profiler.profile(
                paths: files,
                into: profile,
                collecting: { TraceReport.Collector(limit: limit) },
                progress: progress.update
            )
            if !compared.isEmpty {
                let done = ProgressBar.size(of: files)
                let result = try TraceLogComparison.compare(
                    try TraceLogReader(paths: files, payloads: false),
                    try TraceLogReader(paths: compared, payloads: false),
                    chains: chainFilter.chains,
                    progress: { progress.update(done + $0) }
                )
                comparison = TraceReport.Comparison(result, source: compare.joined(separator: ", "))
            }
        } catch {
            throw inputs.shown(error)
        }
        progress.finish()
        chainFilter.warnIfAbsent(commands: read.profile.commands)
        read.files = read.files.map(inputs.shown)
        var notes: [String] = read.tornTails.map { inputs.shown("Ignored a torn last line: \($0)") }
        if read.droppedTraces > 0 {
            notes.append(
                "The writer dropped \(TerminalText.counted(read.droppedTraces, "trace")) (its queue was full, or a write to the disk failed); the profile covers the rest."
            )
        }
        if !read.chainEdits.isEmpty {
            notes.append(
                "The chain changed \(TerminalText.counted(read.chainEdits.count, "time")) while it was recorded."
            )
        }
        if let comparison, let warning = DivergenceReport.uncertainPlacesWarning(comparison.comparison.matcher) {
            notes.append(warning)
        }
        if read.profile.chains.count > 1 {
            notes.append(
                "The log holds \(read.profile.chains.count) chains: a handler's numbers add up every chain with a handler of its "
                    + "name (--chain NAME reads one)."
            )
        }
        let report = TraceReport(
            profile: read.profile,
            collected: collected,
            sources: read.files,
            rule: rule,
            graph: graph,
            comparison: comparison,
            notes: notes
        )
        let page: TraceReport.Page
        do {
            page = try report.page(capturingStandardError: true)
        } catch {
            throw CommandFailure.badInput("drawing the diagram: \(error)")
        }
        for warning in page.warnings {
            Terminal.standardError.writeText("chaintrace: graphviz: \(TerminalText.shown(warning))\n")
        }
        let file = try OutputTarget.file(output)
        try file.write(Array(page.html.utf8))
        try file.commit()
        Terminal.standardError.writeText(
            "Wrote \(TerminalText.shown(output)): \(TerminalText.counted(read.profile.commands, "command")) from \(TerminalText.counted(read.files.count, "file")), \(page.listedCommands) listed.\n"
        )
    }
}
