import ArgumentParser
import ChainTrace
import ChainTraceAnalysis
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTraceLog

/// `chaintrace export LOG --to chrome|folded|otlp`: a trace log in the formats other viewers read.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Export a trace log for Perfetto / chrome://tracing (chrome), flame graphs (folded), OpenTelemetry (otlp) or query engines (jsonl).",
        discussion: """
            chrome: Chrome trace-event JSON. Open it at https://ui.perfetto.dev (Open trace file) or in \
            chrome://tracing: one track per command, each hop a slice nested as the hops nested, with position, \
            decision and self time in its arguments, and a marker where the command was accepted, fell off the end \
            or failed. folded: Brendan Gregg's folded stacks, chain;H1;H2;H3 <self time>, for flamegraph.pl, \
            inferno or https://www.speedscope.app. otlp: OpenTelemetry's OTLP/JSON ExportTraceServiceRequest, for a \
            collector's OTLP/HTTP receiver (POST it to /v1/traces as application/json) or any OTLP tool: one trace \
            per command, one span per hop nested as the hops nested (its duration the hop's inclusive time), \
            attributes for chain, chain version, handler, registry, decision and reason, failed hops with status \
            ERROR and the error text, times from the log's start times. Collectors refuse a request past their \
            limit (20 MiB by default): --batch N writes JSON Lines of requests of N traces each instead, as the \
            collector's otlpjsonfile receiver reads them (or post each line). To send traces live instead, use the \
            SpanTraceSink of ChainTraceDistributedTracing. jsonl: one flat JSON object per hop (file, trace, \
            chain, command, outcome, handler, parent, registry, decision, self and inclusive time, reason; every \
            member always present) for query engines — DuckDB, Spark, pandas; see Docs/AtScale.md.
            """
    )

    /// The export formats.
    enum Target: String, ExpressibleByArgument, CaseIterable {
        case chrome, folded, otlp, jsonl
    }

    @Argument(
        help: ArgumentHelp(
            "The trace log: one or more files or directories, read as one log (gzip files too); - for standard input.",
            valueName: "log"
        ),
        transform: StandardInput.path
    )
    var logs: [String]

    @Option(name: .long, help: "The format: chrome, folded, otlp or jsonl.")
    var to: Target

    @Option(name: .long, help: "For folded: the unit of the values, microseconds (flamegraph.pl) or nanoseconds.")
    var unit: FoldedStacksExport.Unit = .microseconds

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write here (whole or not at all; gzip-compressed when the name ends in .gz) instead of to standard output (- is standard output too).",
            valueName: "file"
        ),
        transform: StandardOutput.path
    )
    var output: String?

    @Option(
        name: .long,
        help: ArgumentHelp("For folded: threads reading the log at once (default: one per core).", valueName: "n")
    )
    var threads: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "For otlp: write JSON Lines, one ExportTraceServiceRequest of up to N traces a line, instead of one request for the whole log (collectors refuse big requests).",
            valueName: "n"
        )
    )
    var batch: Int?

    /// A single OTLP request bigger than this draws a warning that points to `--batch`: collectors refuse
    /// requests past their limit (the OpenTelemetry Collector's default is 20 MiB).
    static let largeRequest = 16 << 20

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be 1 or more") }
        if let batch {
            guard to == .otlp else {
                throw ValidationError("--batch is for --to otlp (requests of N traces), not \(to.rawValue)")
            }
            guard batch >= 1 else { throw ValidationError("--batch must be 1 or more") }
        }
        try StandardInput.checkReadOnce(logs)
    }

    func run() throws {
        try OutputTarget.check(output, reading: logs)
        let files = try logs.flatMap { path throws(FormatError) in try TraceLogReader.files(at: path) }
        let progress = ProgressBar(totalBytes: ProgressBar.size(of: files))
        let file = try output.map { path throws(FormatError) in try OutputTarget.file(path) }
        // Written a megabyte at a time: a write per trace cost more than encoding it.
        var pending: [UInt8] = []
        pending.reserveCapacity(1 << 20)
        func flush() throws {
            guard !pending.isEmpty else { return }
            if let file { try file.append(pending) } else { Terminal.standardOutput.write(bytes: pending) }
            pending.removeAll(keepingCapacity: true)
        }
        var written = 0
        func emit(_ bytes: [UInt8]) throws {
            written += bytes.count
            pending.append(contentsOf: bytes)
            if pending.count >= 1 << 20 { try flush() }
        }
        var count = 0
        /// A format written trace by trace between a fixed opening and closing.
        func streamed(header: [UInt8], footer: [UInt8], _ traceBytes: (Trace) -> [UInt8]) throws {
            let reader = try TraceLogReader(paths: files, payloads: false)
            try emit(header)
            while let trace = try reader.next() {
                try emit(traceBytes(trace))
                count += 1
                if count & 0x3FF == 0 { progress.update(reader.bytesRead) }
            }
            try emit(footer)
        }
        switch to {
        case .chrome:
            var export = ChromeTraceExport()
            try streamed(header: ChromeTraceExport.header, footer: ChromeTraceExport.footer) { export.events(for: $0) }
        case .otlp:
            var export = OTLPTraceExport(requestPerLine: batch != nil)
            if let batch {
                let reader = try TraceLogReader(paths: files, payloads: false)
                var inRequest = 0
                while let trace = try reader.next() {
                    if inRequest == 0 { try emit(OTLPTraceExport.lineHeader) }
                    try emit(export.spans(for: trace))
                    inRequest += 1
                    count += 1
                    if inRequest == batch {
                        try emit(OTLPTraceExport.lineFooter)
                        inRequest = 0
                        export.startRequest()
                    }
                    if count & 0x3FF == 0 { progress.update(reader.bytesRead) }
                }
                if inRequest > 0 { try emit(OTLPTraceExport.lineFooter) }
            } else {
                try streamed(header: OTLPTraceExport.header, footer: OTLPTraceExport.footer) { export.spans(for: $0) }
                if written > Self.largeRequest {
                    Terminal.standardError.writeText(
                        "chaintrace: warning: wrote one OTLP request of \(written >> 20) MiB; collectors refuse requests past "
                            + "their limit (20 MiB by default): --batch N writes JSON Lines of requests of N traces each\n"
                    )
                }
            }
        case .jsonl:
            let export = HopRowsExport()
            // Numbered within each file, so rows of many files exported apart stay apart by (file, trace).
            var finished = 0
            for path in files {
                let reader = try TraceLogReader(path: path, payloads: false)
                var number = 0
                while let trace = try reader.next() {
                    number += 1
                    export.appendRows(for: trace, number: number, file: path, to: &pending)
                    if pending.count >= 1 << 20 { try flush() }
                    count += 1
                    if count & 0x3FF == 0 { progress.update(finished + reader.bytesRead) }
                }
                finished += ProgressBar.size(of: path)
            }
        case .folded:
            // Sums, not a stream: parts of the log are summed on every core and joined in log order.
            let (read, export) = try TraceLogProfiler(threads: threads).profile(
                paths: files,
                collecting: FoldedStacksExport.init,
                progress: progress.update
            )
            count = read.profile.commands
            try emit(Array(export.text(unit: unit).utf8))
        }
        try flush()
        progress.finish()
        try file?.commit()
        if let output {
            Terminal.standardError.writeText(
                "Wrote \(TerminalText.shown(output)): \(TerminalText.counted(count, "trace")) from \(TerminalText.counted(files.count, "file")).\n"
            )
        }
    }
}

extension FoldedStacksExport.Unit: ExpressibleByArgument {}
