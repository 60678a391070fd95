import ArgumentParser
import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTraceLog

/// `chaintrace diff A B`: what changed between two trace logs of the same commands.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two trace logs of the same commands: per-command divergences, per-handler latency change.",
        discussion: """
            Commands are matched by id (an id given to several commands pairs them in order: the first with the \
            first, and so on), else by their place in the order they started — a log is written as commands \
            finish — whatever their chains are named (two configurations of one app compare). Commands without ids \
            that ran at once have no order but the scheduler's: a warning counts them, and ids \
            (TracedCommand.commandID) pair them for sure. Any divergence makes the exit status 1. Logs sampled \
            in production, or of different traffic, hold different commands: with --only-common the commands both \
            hold are compared, and those in one log only are counted, not divergences.

            Where hops ran at once in both runs (a stage that fanned out with async let or a task group; parents \
            recorded, log version 3 on), their order, and which of them the outcome names, are the scheduler's and \
            not a divergence: they are compared as a set, and what ran inside what is compared. Which hops \
            overlapped is read from their times, so a group that ran in turn in one run (a loaded machine started \
            one child after its sibling ended) is a differentPath; when the two paths read the same, the text says \
            which hops ran at once in each (`ran at once, expected: N3 ‖ N6`).

            A handler is slower or faster when its p95 self time moved by at least 10% and 100ns and its self times \
            in the two runs differ by the Mann–Whitney U test (p < 0.05, as benchstat asks): two runs of the same \
            code, whose p95s move by themselves, seldom show one (its p-value is in --format json).

            Each log is a file, a directory (its *.jsonl and *.jsonl.gz files in name order, numbers by value) or a quoted pattern such \
            as 'before/*.jsonl.gz'. To compare logs of several files each, list the baseline's files and then the \
            other's after --against: chaintrace diff a-1.jsonl a-2.jsonl --against b-1.jsonl b-2.jsonl.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The baseline trace log, then the second one; with --against, every file of the baseline; - for standard input.",
            valueName: "log"
        ),
        transform: StandardInput.path
    )
    var logs: [String] = []

    @Option(
        name: .long,
        parsing: .upToNextOption,
        help: ArgumentHelp("The second log's files, compared with all the logs before it.", valueName: "log"),
        transform: StandardInput.path
    )
    var against: [String] = []

    @Option(name: .long, help: "How many divergences to list.")
    var divergences = 50

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Compare only the commands both logs hold — logs sampled in production, or of different traffic: a command in one log only is counted, not a divergence."
        )
    )
    var onlyCommon = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if against.isEmpty {
            guard logs.count == 2 else {
                throw ValidationError(
                    "give two trace logs, or the baseline's files and then the other's after --against (given: \(logs.count) without --against)"
                )
            }
        } else if logs.isEmpty {
            throw ValidationError("give the baseline log's files before --against")
        }
        try StandardInput.checkReadOnce(logs + against)
    }

    /// The baseline's paths and the other log's.
    private var sides: (before: [String], after: [String]) {
        against.isEmpty ? ([logs[0]], [logs[1]]) : (logs, against)
    }

    func run() throws {
        let (first, second) = sides
        let left = try TraceLogReader(paths: first, payloads: false)
        let right = try TraceLogReader(paths: second, payloads: false)
        let progress = ProgressBar(totalBytes: try ProgressBar.size(ofLogs: first + second))
        let files = (before: left.files.count, after: right.files.count)
        let comparison = try TraceLogComparison.compare(left, right, progress: progress.update)
        progress.finish()
        if let warning = DivergenceReport.uncertainPlacesWarning(comparison.matcher) {
            Terminal.standardError.writeText("chaintrace: warning: \(warning)\n")
        }
        let divergenceReport = DivergenceReport(
            matcher: comparison.matcher,
            shown: divergences,
            onlyCommon: onlyCommon,
            offersOnlyCommon: true
        )
        let changes = comparison.latencyChanges
        switch output.format {
        case .json:
            let latency = try JSONValue(encoding: changes)
            func side(_ files: Int, _ profile: ChainProfile) -> JSONValue {
                ["files": .integer(Int64(files)), "traces": .integer(Int64(clamping: profile.commands))]
            }
            Terminal.standardOutput.writeData(
                try divergenceReport.json().merging([
                    "latency": latency, "before": side(files.before, comparison.before),
                    "after": side(files.after, comparison.after),
                    "uncertainPlaces": .integer(Int64(clamping: comparison.matcher.uncertainPlaces)),
                ]).printed
            )
        case .text:
            let style = output.style
            func side(_ paths: [String], _ files: Int, _ profile: ChainProfile) -> String {
                "\(TerminalText.paths(paths)) (\(TerminalText.counted(profile.commands, "trace"))\(files == 1 ? "" : " in \(files) files"))"
            }
            let sides =
                "\(side(first, files.before, comparison.before)) → \(side(second, files.after, comparison.after))"
            var text = style.bold("Divergences") + " (\(sides))\n" + divergenceReport.text(style: style)
            text += "\n" + style.bold("Self time per handler") + "\n"
            var table = TextTable([
                ("handler", .left), ("seen", .right), ("p50 before", .right), ("after", .right), ("p95 before", .right),
                ("after", .right), ("change", .right), ("", .left),
            ])
            for change in changes {
                let ratio = change.p95RatioText ?? "-"
                let rowStyle: ((String) -> String)? =
                    switch change.verdict {
                    case .slower: style.red
                    case .faster: style.green
                    default: nil
                    }
                table.add(
                    [
                        HandlerNameText.of(change.handler), "\(change.seenBefore) → \(change.seenAfter)",
                        DurationText.format(nanoseconds: Int64(clamping: change.p50Before)),
                        DurationText.format(nanoseconds: Int64(clamping: change.p50After)),
                        DurationText.format(nanoseconds: Int64(clamping: change.p95Before)),
                        DurationText.format(nanoseconds: Int64(clamping: change.p95After)),
                        ratio, change.verdict == .unchanged ? "" : change.verdict.rawValue,
                    ],
                    style: rowStyle
                )
            }
            text += table.render(style: style)
            if !changes.isEmpty {
                text +=
                    "  slower, faster: p95 moved by 10% and 100ns or more, and the self times of the two runs differ "
                    + "(Mann–Whitney U test, p < \(LatencyChange.significance)); a p95 of a few hops moves by itself\n"
            }
            Terminal.standardOutput.writeText(text)
        }
        if divergenceReport.total > 0 { throw CommandFailure.found }
    }
}
