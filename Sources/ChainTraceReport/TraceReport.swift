public import ChainTrace
public import ChainTraceAnalysis
public import ChainTraceGraphviz

/// An explorer of a trace log in one self-contained HTML page: the overview and slow handlers in `stats`'s words,
/// the profile diagram with a panel per handler (decisions, percentiles, a histogram of self times), a sortable
/// handler table, a filterable list of commands whose paths overlay the diagram with a waterfall of their hops,
/// and, given a second log, what changed.
///
/// The page makes no network request (its script and style are inline, allowed by hash in a strict
/// Content-Security-Policy) and every string from the log is data: written as escaped JSON, shown as text.
///
/// ```swift
/// let (read, collected) = try TraceLogProfiler().profile(paths: [log], collecting: { TraceReport.Collector() })
/// let report = TraceReport(profile: read.profile, collected: collected, sources: read.files)
/// try write(report.html())
/// ```
public struct TraceReport: Sendable {
    /// What a report needs from each trace beyond the profile, gathered in the same pass.
    public struct Collector: TraceCollector {
        /// The commands the page lists one by one.
        public var sample: TraceSample
        /// Inclusive and whole-command times.
        public var times = InclusiveTimes()

        /// A collector that lists at most `limit` commands (default 10 000).
        public init(limit: Int = 10_000) {
            sample = TraceSample(limit: limit)
        }

        /// Looks at the next trace.
        public mutating func add(_ trace: Trace) {
            sample.add(trace)
            times.add(trace)
        }

        /// Takes in what the collector of the traces after this one's gathered.
        public mutating func append(_ later: Collector) {
            sample.append(later.sample)
            times.append(later.times)
        }
    }

    /// The second log of a comparison, as `diff` reads it.
    public struct Comparison: Sendable {
        /// The comparison of the report's log (before) with the second log (after).
        public var comparison: TraceLogComparison
        /// The second log's name, as the page shows it.
        public var source: String

        /// A comparison with the log named `source`.
        public init(_ comparison: TraceLogComparison, source: String) {
            self.comparison = comparison
            self.source = source
        }
    }

    /// The profile of the whole log.
    public var profile: ChainProfile
    /// The commands listed and the times gathered with the profile.
    public var collected: Collector
    /// The files read, as the page names them.
    public var sources: [String]
    /// The rule that flags slow handlers.
    public var rule: SlowHandlerRule
    /// The chain's structure, from its definition; `nil` infers it from the log.
    public var graph: ChainGraph?
    /// What changed in a second log of the same commands, if one was given.
    public var comparison: Comparison?
    /// Lines the overview adds as they are (a torn last line, dropped traces).
    public var notes: [String]

    /// A report of `profile`, listing the commands `collected` chose.
    public init(
        profile: ChainProfile,
        collected: Collector,
        sources: [String],
        rule: SlowHandlerRule = .standard,
        graph: ChainGraph? = nil,
        comparison: Comparison? = nil,
        notes: [String] = []
    ) {
        self.profile = profile
        self.collected = collected
        self.sources = sources
        self.rule = rule
        self.graph = graph
        self.comparison = comparison
        self.notes = notes
    }

    /// The page, and what Graphviz warned about while drawing its diagrams.
    public struct Page: Sendable {
        /// The HTML file's text.
        public var html: String
        /// Graphviz's warnings (not errors: the diagrams were drawn), for the caller to show or log.
        public var warnings: [String]
        /// How many commands the page lists one by one.
        public var listedCommands: Int
    }

    /// The page.
    ///
    /// - Throws: `GraphvizError` when a diagram cannot be drawn.
    public func html() throws(GraphvizError) -> String {
        try page().html
    }

    /// The page and Graphviz's warnings; `capturingStandardError` as `GraphvizRenderer` takes it (for a
    /// command-line tool; not for a server).
    ///
    /// - Throws: `GraphvizError` when a diagram cannot be drawn.
    public func page(capturingStandardError: Bool = false) throws(GraphvizError) -> Page {
        var graph = self.graph ?? ChainGraph(profile: profile)
        graph.addObserved(profile)
        let options = DiagramOptions(slowRule: rule)
        var warnings: [String] = []
        func svg(_ dot: DOTGraph) throws(GraphvizError) -> String {
            let output = try GraphvizRenderer.render(dot.text, as: .svg, capturingStandardError: capturingStandardError)
            warnings += output.warnings
            // Markup to place in the page: no XML declaration or doctype.
            let bytes = output.bytes
            let opening = Array("<svg".utf8)
            let start = bytes.indices.first { index in bytes[index...].starts(with: opening) } ?? 0
            return String(decoding: bytes[start...], as: UTF8.self)
        }
        let diagram = try svg(ChainDiagram.profile(profile, over: graph, options: options))
        var diffDiagram: String?
        if let comparison {
            var both = graph
            both.addObserved(comparison.comparison.after)
            diffDiagram = try svg(
                ChainDiagram.diff(
                    before: comparison.comparison.before,
                    after: comparison.comparison.after,
                    over: both,
                    options: options
                )
            )
        }
        let (data, listed) = ReportData(report: self, graph: graph).json()
        let html = ReportPage(
            title: "ChainTrace report — \(graph.name)",
            data: data,
            diagram: diagram,
            diffDiagram: diffDiagram
        ).html
        return Page(html: html, warnings: warnings, listedCommands: listed)
    }
}
