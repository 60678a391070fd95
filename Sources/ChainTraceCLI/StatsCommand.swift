import ArgumentParser
import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceTraceLog

/// `chaintrace stats LOG`: the per-handler profile of a trace log.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Profile a trace log recorded by an instrumented app: per-handler decisions and self time.",
        discussion: "Reads the log as it streams, in constant memory, however large it is."
    )

    @Argument(help: "The trace log (JSON Lines, as TraceLogSink writes it).")
    var log: String

    @Option(name: .long, help: ArgumentHelp("A chain definition whose handler budgets the slow rule should check.", valueName: "file"))
    var definition: String?

    @OptionGroup var slowRule: SlowRuleOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let rule = try slowRule.rule()
        var profile = ChainProfile()
        if let definition { profile.declareBudgets(of: try ChainDefinition.load(path: definition)) }
        let reader = try TraceLogReader(path: log, payloads: false)
        let progress = ProgressBar(totalBytes: ProgressBar.size(of: log))
        try profile.add(contentsOf: reader, progress: progress.update)
        progress.finish()
        let report = ProfileReport(profile: profile, rule: rule)
        switch output.format {
        case .json:
            var object = try report.json().merging(["chains": .array(profile.chains.map { .string($0) })])
            if let torn = reader.tornTail { object = object.merging(["tornTail": .string(torn.description)]) }
            Terminal.standardOutput.writeData(object.printed)
        case .text:
            let style = output.style
            var text = style.bold("\(profile.commands) traces") + " of \(TerminalText.shown(profile.chains.joined(separator: ", "))) in \(TerminalText.shown(log))\n\n"
            text += report.text(style: style)
            if let torn = reader.tornTail { text += "\n  Ignored a torn last line: \(torn)\n" }
            Terminal.standardOutput.writeText(text)
        }
    }
}
