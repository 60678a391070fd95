public import ChainTrace
public import ChainTraceAnalysis
public import ChainTraceGraphviz
import ChainTraceReport
import Foundation

/// What every sample writes when it runs, besides its trace log: a diagram of the commands it sent.
public enum SampleOutput {
    /// Writes the profile of `traces` over `graph` (or the structure the traces show) as SVG (or the format
    /// `path` names) at `path`, flagging slow handlers by `rule`.
    ///
    /// - Returns: The slow handlers the rule flagged, for the sample to mention.
    @discardableResult
    public static func writeProfileDiagram(
        of traces: [Trace],
        over graph: ChainGraph? = nil,
        rule: SlowHandlerRule = .standard,
        to path: String
    ) throws -> [String] {
        let profile = ChainProfile(traces)
        let dot = ChainDiagram.profile(
            profile,
            over: graph ?? ChainGraph(profile: profile),
            options: DiagramOptions(slowRule: rule)
        )
        try write(GraphvizRenderer.render(dot.text, as: GraphvizFormat(fileExtension: path) ?? .svg).bytes, to: path)
        return rule.flags(in: profile).map(\.handler)
    }

    /// Writes the report of `traces` — the page `chaintrace report` writes — at ``reportPath(besides:)`` of
    /// `diagram`, and returns its path.
    @discardableResult
    public static func writeReport(
        of traces: [Trace],
        over graph: ChainGraph? = nil,
        rule: SlowHandlerRule = .standard,
        besides diagram: String
    ) throws -> String {
        var collected = TraceReport.Collector()
        for trace in traces { collected.add(trace) }
        let report = TraceReport(
            profile: ChainProfile(traces),
            collected: collected,
            sources: ["this run"],
            rule: rule,
            graph: graph
        )
        let path = reportPath(besides: diagram)
        try write(Array(try report.html().utf8), to: path)
        return path
    }

    /// Where a sample's report goes: beside its diagram, `.report.html` for the diagram's extension.
    public static func reportPath(besides diagram: String) -> String {
        let name = diagram.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? diagram
        let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
        return String(diagram.dropLast(name.count)) + stem + ".report.html"
    }

    /// Writes the structure of `graph` as SVG (or the format `path` names) at `path`.
    public static func writeStructureDiagram(of graph: ChainGraph, to path: String) throws {
        let dot = ChainDiagram.structure(graph)
        try write(GraphvizRenderer.render(dot.text, as: GraphvizFormat(fileExtension: path) ?? .svg).bytes, to: path)
    }

    /// Writes the whole file or nothing: Foundation writes a temporary file and renames it.
    private static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
