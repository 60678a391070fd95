import ArgumentParser
import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceFiles
import ChainTraceGraphviz
import ChainTraceJSON
import ChainTraceTraceLog

/// `chaintrace render`: a Graphviz diagram of a chain, one command's path, a profile, or the change between runs.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a chain, one command's path over it, a profile of a trace log, or the difference of two logs.",
        discussion: """
            Which diagram: DEF alone draws the chain's structure; --trace LOG draws the log's profile (font size grows \
            with self time, fill with the share of time, link width with the commands along it; slow handlers \
            flagged with the --slow rule, stated in the legend); --trace LOG --command ID draws that command's path; \
            --trace LOG --diff OTHER draws what changed from LOG to OTHER. A log is a file, a directory (its *.jsonl \
            and *.jsonl.gz files in name order, numbers by value) or a quoted pattern such as 'logs/*.jsonl.gz'; repeat --trace or \
            --diff to read several as one log. DEF may be left out when --trace is given: \
            the structure is then inferred from the log. Layout and drawing run in-process through libgvc; DOT needs \
            no Graphviz at all. Files are written whole or not at all.
            """
    )

    @Argument(
        help: ArgumentHelp("The chain definition (JSON); - for standard input.", valueName: "definition"),
        transform: StandardInput.path
    )
    var definition: String?

    @Option(
        name: .long,
        parsing: .singleValue,
        help: ArgumentHelp(
            "A trace log: draw its profile, or with --command one command's path (repeatable: several files as one log).",
            valueName: "log"
        ),
        transform: StandardInput.path
    )
    var trace: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --trace: the command to draw, by its recorded id (the first with it; a warning says when others share it) or its 1-based number in the log.",
            valueName: "id"
        )
    )
    var command: String?

    @Option(
        name: .long,
        parsing: .singleValue,
        help: ArgumentHelp(
            "With --trace: a second log of the same commands; draw what changed (repeatable).",
            valueName: "log"
        ),
        transform: StandardInput.path
    )
    var diff: [String] = []

    @OptionGroup var slowRule: SlowRuleOptions
    @OptionGroup var chainFilter: ChainFilterOptions

    @Option(
        name: .long,
        parsing: .singleValue,
        help: ArgumentHelp(
            "Draw only these handlers and their neighbours (comma-separated, or one name with commas in it whole; repeatable).",
            valueName: "names"
        )
    )
    var focus: [String] = []

    @Option(
        name: .long,
        parsing: .singleValue,
        help: ArgumentHelp(
            "Leave these handlers out (comma-separated, or one name with commas in it whole; repeatable).",
            valueName: "names"
        )
    )
    var ignore: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Profiles and diffs draw at most this many handlers, the hottest; 0 draws all.",
            valueName: "n"
        )
    )
    var maxHandlers = 80

    @Option(
        name: .long,
        help: ArgumentHelp("Fold straight runs longer than this into rows of this many handlers.", valueName: "n")
    )
    var rowLength = 10

    @Option(name: .long, help: "dot, svg, png or pdf. Default: from the -o file's extension, else dot.")
    var format: GraphvizFormat?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write the diagram here (whole or not at all; gzip-compressed when the name ends in .gz) instead of to standard output (- is standard output too).",
            valueName: "file"
        ),
        transform: StandardOutput.path
    )
    var output: String?

    func validate() throws {
        if definition == nil && trace.isEmpty {
            throw ValidationError("give a chain definition, a trace log (--trace), or both")
        }
        if trace.isEmpty, command != nil || !diff.isEmpty || !chainFilter.chain.isEmpty {
            throw ValidationError("--command, --diff and --chain need --trace")
        }
        if command != nil && !diff.isEmpty {
            throw ValidationError("--command and --diff draw different diagrams; give one")
        }
        if maxHandlers < 0 { throw ValidationError("--max-handlers must be 0 (all) or more") }
        if rowLength < 2 { throw ValidationError("--row-length must be at least 2") }
        try StandardInput.checkReadOnce([definition] + trace + diff)
        if let output, format == nil, GraphvizFormat(fileExtension: Self.uncompressedName(output)) == nil {
            throw ValidationError(
                "cannot tell the format from \"\(output)\"; name it .dot, .svg, .png or .pdf (.gz after it compresses it), or give --format"
            )
        }
    }

    func run() throws {
        try OutputTarget.check(output, reading: trace + diff + (definition.map { [$0] } ?? []))
        let format = self.format ?? output.flatMap { GraphvizFormat(fileExtension: Self.uncompressedName($0)) } ?? .dot
        if output == nil, format == .png || format == .pdf, Terminal.standardOutput.isInteractive {
            throw CommandFailure.badInput("\(format.rawValue) is binary; write it to a file with -o")
        }
        let defined = try definition.map { path throws(FormatError) in
            ChainGraph(definition: try ChainDefinition.load(path: path))
        }
        var options = DiagramOptions(
            rowLength: rowLength,
            maximumHandlers: maxHandlers == 0 ? nil : maxHandlers,
            focus: [],
            ignore: [],
            slowRule: try slowRule.rule()
        )
        let dot: DOTGraph
        /// What was drawn, said when the diagram is written to a file: "N traces from K files", a command's path or a
        /// chain's structure.
        var read: String?
        func counted(_ traces: Int, _ files: Int) -> String {
            "\(TerminalText.counted(traces, "trace")) from \(TerminalText.counted(files, "file"))"
        }
        let trace = self.trace.isEmpty ? nil : self.trace
        let diff = self.diff.isEmpty ? nil : self.diff
        if let trace, let command {
            // Without a definition the log is the definition: every handler, link and entry the log shows for
            // the command's chain, visited by this command or not.
            let (found, chainProfile) = try Self.trace(
                command,
                in: trace,
                of: chainFilter.chains,
                profilingItsChain: defined == nil
            )
            let graph = defined ?? ChainGraph(profile: chainProfile)
            try Self.name(&options, focus: focus, ignore: ignore, against: graph, observed: found.path)
            dot = ChainDiagram.path(found, over: graph, options: options)
            read =
                "the path of command \(TerminalText.shown(found.commandID ?? command)), \(TerminalText.counted(found.hops.count, "hop"))"
        } else if let trace, let diff {
            let progress = ProgressBar(totalBytes: try ProgressBar.size(ofLogs: trace + diff))
            let (before, after) = (
                try TraceLogReader(paths: trace, payloads: false), try TraceLogReader(paths: diff, payloads: false)
            )
            let files = (before: before.files.count, after: after.files.count)
            let comparison = try TraceLogComparison.compare(
                before,
                after,
                chains: chainFilter.chains,
                progress: progress.update
            )
            progress.finish()
            chainFilter.warnIfAbsent(commands: comparison.before.commands + comparison.after.commands)
            read =
                "\(counted(comparison.before.commands, files.before)) → \(counted(comparison.after.commands, files.after))"
            let graph = defined ?? ChainGraph(profile: comparison.before)
            try Self.name(
                &options,
                focus: focus,
                ignore: ignore,
                against: graph,
                observed: (comparison.before.handlers + comparison.after.handlers).map(\.handler)
            )
            dot = ChainDiagram.diff(before: comparison.before, after: comparison.after, over: graph, options: options)
        } else if let trace {
            let (profile, files) = try Self.profile(of: trace, chains: chainFilter.chains)
            chainFilter.warnIfAbsent(commands: profile.commands)
            read = counted(profile.commands, files)
            let graph = defined ?? ChainGraph(profile: profile)
            try Self.name(
                &options,
                focus: focus,
                ignore: ignore,
                against: graph,
                observed: profile.handlers.map(\.handler)
            )
            dot = ChainDiagram.profile(profile, over: graph, options: options)
        } else if let defined {
            options.maximumHandlers = nil
            try Self.name(&options, focus: focus, ignore: ignore, against: defined, observed: [])
            dot = ChainDiagram.structure(defined, options: options)
            read =
                "the structure of \(TerminalText.shown(defined.name)), \(TerminalText.counted(defined.handlers.count, "handler"))"
        } else {
            throw ValidationError("give a chain definition, a trace log (--trace), or both")
        }
        let rendered: GraphvizOutput
        do {
            rendered = try GraphvizRenderer.render(dot.text, as: format, capturingStandardError: true)
        } catch {
            guard case .tooLarge = error.kind else { throw CommandFailure.badInput(error.description) }
            throw CommandFailure.badInput("\(error); here: --max-handlers, --focus or --ignore")
        }
        for warning in rendered.warnings { Terminal.standardError.writeText("chaintrace: graphviz: \(warning)\n") }
        if let output {
            let file = try OutputTarget.file(output)
            try file.write(rendered.bytes)
            try file.commit()
            if let read { Terminal.standardError.writeText("Wrote \(TerminalText.shown(output)): \(read).\n") }
        } else {
            Terminal.standardOutput.write(bytes: rendered.bytes)
        }
    }

    /// `path` without the `.gz` that asks for it compressed: `profile.svg.gz` is an SVG.
    private static func uncompressedName(_ path: String) -> String {
        OutputTarget.compresses(path) ? String(path.dropLast(3)) : path
    }

    /// Sets `options`' focus and ignore lists from the values of --focus and --ignore: each value a handler of the
    /// diagram (of `graph`, or one the log shows) — a whole value naming one, commas and all, is that handler —
    /// or comma-separated names of them.
    private static func name(
        _ options: inout DiagramOptions,
        focus: [String],
        ignore: [String],
        against graph: ChainGraph,
        observed: [String]
    ) throws {
        var names = graph.handlers.map(\.name)
        var known = Set(names)
        for name in observed where known.insert(name).inserted { names.append(name) }
        func resolve(_ flag: String, _ values: [String]) throws -> [String] {
            try values.flatMap { value -> [String] in
                if known.contains(value) { return [value] }
                let pieces = value.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
                for piece in pieces where !known.contains(piece) {
                    let handlers = names.prefix(12).map { TerminalText.shown($0) }.joined(separator: ", ")
                    throw CommandFailure.badInput(
                        "\(flag): no handler named \"\(TerminalText.shown(piece))\"; handlers: \(handlers)\(names.count > 12 ? ", …" : "")"
                    )
                }
                return pieces
            }
        }
        options.focus = try resolve("--focus", focus)
        options.ignore = try resolve("--ignore", ignore)
    }

    /// The profile of a whole log (of its traces of `chains`, or all), read as it streams, on every core, and how
    /// many files it was.
    private static func profile(
        of logs: [String],
        chains: Set<String>?
    ) throws -> (profile: ChainProfile, files: Int) {
        let progress = ProgressBar(totalBytes: try ProgressBar.size(ofLogs: logs))
        var profiler = TraceLogProfiler()
        profiler.chains = chains
        let read = try profiler.profile(paths: logs, into: ChainProfile(), progress: progress.update)
        progress.finish()
        return (read.profile, read.files.count)
    }

    /// The trace whose command id is `command`, else the one at that 1-based number; with `profilingItsChain`,
    /// also the profile of every trace in the log from the same chain (in one pass). Warns when the choice was
    /// not the only one: several commands with that id (the first is drawn), or an id that is also another
    /// command's number.
    private static func trace(
        _ command: String,
        in logs: [String],
        of chains: Set<String>?,
        profilingItsChain: Bool
    ) throws -> (trace: Trace, profile: ChainProfile) {
        let reader = try TraceLogReader(paths: logs, payloads: false)
        let number = Int(command)
        var count = 0
        var byID: Trace?
        var byNumber: Trace?
        // The numbers of the commands with that id: the first few, and how many.
        var numbersWithID: [Int] = []
        var commandsWithID = 0
        var profiles: [String: ChainProfile] = [:]
        while let trace = try reader.next() {
            if let chains, !chains.contains(trace.chain) { continue }
            count += 1
            if trace.commandID == command {
                if byID == nil { byID = trace }
                commandsWithID += 1
                if numbersWithID.count < 5 { numbersWithID.append(count) }
            }
            if count == number { byNumber = trace }
            if profilingItsChain { profiles[trace.chain, default: ChainProfile()].add(trace) }
        }
        let shown = TerminalText.shown(command)
        if commandsWithID > 1 {
            let listed =
                numbersWithID.map(String.init).joined(separator: ", ")
                + (commandsWithID > numbersWithID.count ? ", …" : "")
            Terminal.standardError.writeText(
                "chaintrace: warning: \(commandsWithID) commands have id \"\(shown)\" (numbers \(listed) in the log); drew "
                    + "the first; to draw another, pass its number to --command\n"
            )
        } else if byID != nil, byNumber != nil, number != numbersWithID.first {
            Terminal.standardError.writeText(
                "chaintrace: warning: drew the command with id \"\(shown)\", number \(numbersWithID[0]) in the log, not command "
                    + "number \(command)\n"
            )
        }
        if let found = byID ?? byNumber { return (found, profiles[found.chain] ?? ChainProfile()) }
        throw CommandFailure.badInput(
            "\(TerminalText.paths(logs)): no command with id \"\(shown)\"\(number != nil ? " and no command number \(command) (the log has \(count))" : "")"
        )
    }
}

extension GraphvizFormat: ExpressibleByArgument {}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
