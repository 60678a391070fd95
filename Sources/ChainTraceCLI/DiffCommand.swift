import ArgumentParser
import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceTraceLog

/// `chaintrace diff A B`: what changed between two trace logs of the same commands.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two trace logs of the same commands: per-command divergences, per-handler latency change.",
        discussion: "Commands are matched by id, else by their place in the log. Any divergence makes the exit status 1."
    )

    @Argument(help: "The first (baseline) trace log.")
    var first: String

    @Argument(help: "The second trace log.")
    var second: String

    @Option(name: .long, help: "How many divergences to list.")
    var divergences = 50

    @OptionGroup var output: OutputOptions

    func run() throws {
        let left = try TraceLogReader(path: first, payloads: false)
        let right = try TraceLogReader(path: second, payloads: false)
        let progress = ProgressBar(totalBytes: ProgressBar.size(of: first) + ProgressBar.size(of: second))
        let comparison = try TraceLogComparison.compare(left, right, progress: progress.update)
        progress.finish()
        let divergenceReport = DivergenceReport(matcher: comparison.matcher, shown: divergences)
        let changes = comparison.latencyChanges
        switch output.format {
        case .json:
            let latency = try JSONValue(encoding: changes)
            Terminal.standardOutput.writeData(try divergenceReport.json().merging(["latency": latency]).printed)
        case .text:
            let style = output.style
            var text = style.bold("Divergences") + " (\(first) → \(second))\n" + divergenceReport.text(style: style)
            text += "\n" + style.bold("Self time per handler") + "\n"
            var table = TextTable([
                ("handler", .left), ("seen", .right), ("p50 before", .right), ("after", .right), ("p95 before", .right),
                ("after", .right), ("change", .right), ("", .left),
            ])
            for change in changes {
                let ratio = change.p95Before > 0 && change.p95After > 0
                    ? String(Double(change.p95After) / Double(change.p95Before)).prefix(4) + "×" : "-"
                let rowStyle: ((String) -> String)? = switch change.verdict {
                case .slower: style.red
                case .faster: style.green
                default: nil
                }
                table.add(
                    [
                        change.handler, "\(change.seenBefore) → \(change.seenAfter)",
                        DurationText.format(nanoseconds: Int64(clamping: change.p50Before)), DurationText.format(nanoseconds: Int64(clamping: change.p50After)),
                        DurationText.format(nanoseconds: Int64(clamping: change.p95Before)), DurationText.format(nanoseconds: Int64(clamping: change.p95After)),
                        String(ratio), change.verdict == .unchanged ? "" : change.verdict.rawValue,
                    ], style: rowStyle)
            }
            text += table.render(style: style)
            Terminal.standardOutput.writeText(text)
        }
        if comparison.matcher.total > 0 { throw CommandFailure.found }
    }
}
