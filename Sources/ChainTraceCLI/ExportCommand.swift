import ArgumentParser
import ChainTrace
import ChainTraceJSON
import ChainTraceTraceLog

/// `chaintrace export LOG --to chrome|folded`: a trace log in the formats other viewers read.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a trace log for Perfetto / chrome://tracing (chrome) or flame graphs (folded).",
        discussion: """
            chrome: Chrome trace-event JSON. Open it at https://ui.perfetto.dev (Open trace file) or in \
            chrome://tracing: one track per command, each hop a slice nested as the hops nested, with position, \
            decision and self time in its arguments, and a marker where the command was accepted, fell off the end \
            or failed. folded: Brendan Gregg's folded stacks, chain;H1;H2;H3 <self time>, for flamegraph.pl, \
            inferno or https://www.speedscope.app. OTLP JSON is not offered: send live traces to a collector with \
            the SpanTraceSink of ChainTraceDistributedTracing instead.
            """
    )

    /// The export formats.
    enum Target: String, ExpressibleByArgument, CaseIterable {
        case chrome, folded
    }

    @Argument(help: ArgumentHelp("The trace log: one or more files or directories, read as one log.", valueName: "log"))
    var logs: [String]

    @Option(name: .long, help: "The format: chrome or folded.")
    var to: Target

    @Option(name: .long, help: "For folded: the unit of the values, microseconds (flamegraph.pl) or nanoseconds.")
    var unit: FoldedStacksExport.Unit = .microseconds

    @Option(name: .shortAndLong, help: ArgumentHelp("Write here (whole or not at all) instead of to standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let reader = try TraceLogReader(paths: logs, payloads: false)
        let progress = ProgressBar(totalBytes: ProgressBar.size(of: reader.files))
        let file = try output.map { path throws(FormatError) in try AtomicOutputFile(path: path) }
        func emit(_ bytes: [UInt8]) throws {
            if let file { try file.append(bytes) } else { Terminal.standardOutput.writeData(String(decoding: bytes, as: UTF8.self)) }
        }
        var count = 0
        switch to {
        case .chrome:
            var export = ChromeTraceExport()
            try emit(ChromeTraceExport.header)
            while let trace = try reader.next() {
                try emit(export.events(for: trace))
                count += 1
                if count & 0x3FF == 0 { progress.update(reader.bytesRead) }
            }
            try emit(ChromeTraceExport.footer)
        case .folded:
            var export = FoldedStacksExport()
            while let trace = try reader.next() {
                export.add(trace)
                count += 1
                if count & 0x3FFF == 0 { progress.update(reader.bytesRead) }
            }
            try emit(Array(export.text(unit: unit).utf8))
        }
        progress.finish()
        try file?.commit()
    }
}

extension FoldedStacksExport.Unit: ExpressibleByArgument {}
