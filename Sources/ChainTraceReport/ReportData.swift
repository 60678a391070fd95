import ChainTrace
import ChainTraceAnalysis
import ChainTraceGraphviz
import ChainTraceJSON
import ChainTraceTraceLog

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The data a report's page draws from, as one JSON value: the overview, every handler's statistics, the listed
/// commands with their hops, and the comparison. Handlers are numbers into `names`; `names[i]` is the diagram's
/// node `h<i>`.
struct ReportData {
    let report: TraceReport
    let graph: ChainGraph

    /// How many bars a self-time histogram has at most.
    static let histogramBars = 24

    /// The data, and how many commands it lists.
    func json() -> (data: JSONValue, listed: Int) {
        let profile = report.profile
        let flags = report.rule.flags(in: profile)
        let flagged = Dictionary(flags.map { ($0.handler, $0) }, uniquingKeysWith: { first, _ in first })
        let limits = report.rule.selfTimeLimits(in: profile)
        var names = NameNumbers(graph.handlers.map(\.name))
        let times = report.collected.times

        var handlers: [JSONValue] = []
        for statistics in profile.handlers {
            let name = statistics.handler
            var object: [String: JSONValue] = [
                "h": .integer(Int64(names.number(of: name))),
                "seen": Self.integer(statistics.seen),
                "accepted": Self.integer(statistics.accepted), "passed": Self.integer(statistics.passed),
                "continued": Self.integer(statistics.continued), "failed": Self.integer(statistics.failed),
                "self": .array(
                    [50, 95, 99].map { Self.integer(statistics.selfTime(atPercentile: $0)) }
                        + [
                            Self.integer(UInt64(statistics.meanSelfTime.rounded())),
                            Self.integer(statistics.maximumSelfTime),
                            Self.integer(statistics.totalSelfNanoseconds),
                        ]
                ),
                "incl": .array([50, 95, 99].map { Self.integer(times.inclusiveTime(of: name, atPercentile: $0)) }),
                "bars": .array(Self.bars(of: statistics)),
                "slow": .bool(flagged[name] != nil),
            ]
            if let registry = statistics.registry { object["registry"] = .string(registry) }
            if let budget = statistics.budgetNanoseconds { object["budget"] = .integer(budget) }
            if let flag = flagged[name] { object["reasons"] = .array(flag.reasons.map(JSONValue.string)) }
            if let limit = limits[name] {
                object["limit"] = [
                    "ns": Self.integer(UInt64(clamping: Int64(saturating: limit.nanoseconds))),
                    "clause": .string(limit.clause),
                ]
            }
            handlers.append(.object(object))
        }

        // A hop is slow when its handler is flagged and the hop alone is over the rule's limit for it.
        let slowLimits = limits.filter { flagged[$0.key] != nil }
        let chosen = report.collected.sample.chosen()
        var traces: [JSONValue] = []
        traces.reserveCapacity(chosen.count)
        for entry in chosen {
            traces.append(trace(entry, names: &names, limits: slowLimits))
        }

        var data: [String: JSONValue] = [
            "title": .string(graph.name),
            "chains": .array(profile.chains.map(JSONValue.string)),
            "files": .array(report.sources.map(JSONValue.string)),
            "commands": Self.integer(profile.commands),
            "accepted": Self.integer(profile.accepted),
            "fellOffTheEnd": Self.integer(profile.fellOffTheEnd),
            "failed": Self.integer(profile.failed),
            "rule": .string(report.rule.description),
            "flags": .array(
                flags.map { ["handler": .string($0.handler), "reasons": .array($0.reasons.map(JSONValue.string))] }
            ),
            "commandTime": .array([50, 95, 99].map { Self.integer(times.commandTime(atPercentile: $0)) }),
            "sample": [
                "shown": Self.integer(chosen.count), "limit": Self.integer(report.collected.sample.limit),
                "total": Self.integer(report.collected.sample.count),
                "failedTotal": Self.integer(report.collected.sample.failedCount),
            ],
            "handlers": .array(handlers),
            "traces": .array(traces),
            "notes": .array(report.notes.map(JSONValue.string)),
            "diagramNodes": Self.integer(graph.handlers.count),
        ]
        if let comparison = report.comparison { data["compare"] = compare(comparison, names: &names) }
        data["names"] = .array(names.names.map(JSONValue.string))
        return (.object(data), chosen.count)
    }

    /// One listed command: `[handler, decision, self, inclusive, start, slow, reason?]` per hop; a hop is slow
    /// when `limits` (those of flagged handlers) has one for its handler and its self time is over it.
    private func trace(_ entry: TraceSample.Entry, names: inout NameNumbers, limits: [String: SelfTimeLimit])
        -> JSONValue
    {
        let trace = entry.trace
        var slow = false
        var hops: [JSONValue] = []
        for hop in trace.hops {
            let isSlow = limits[hop.handler].map { Double(hop.selfDuration) > $0.nanoseconds } ?? false
            slow = slow || isSlow
            var row: [JSONValue] = [
                .integer(Int64(names.number(of: hop.handler))), .string(Self.letter(hop.decision)),
                Self.integer(hop.selfDuration), Self.integer(hop.inclusiveDuration), Self.integer(hop.startOffset),
                .bool(isSlow),
            ]
            if let reason = hop.reason { row.append(.string(reason)) }
            hops.append(.array(row))
        }
        var object: [String: JSONValue] = [
            "n": Self.integer(entry.number),
            "kind": .string(trace.commandKind),
            "chain": .string(trace.chain),
            "d": Self.integer(trace.duration),
            "why": .string(entry.reason.rawValue),
            "slow": .bool(slow),
            "hops": .array(hops),
        ]
        if let id = trace.commandID { object["id"] = .string(id) }
        switch trace.outcome {
        case .accepted(let handler):
            object["o"] = "accepted"
            object["by"] = .integer(Int64(names.number(of: handler)))
        case .fellOffTheEnd:
            object["o"] = "fell off the end"
        case .failed(let handler, let error):
            object["o"] = "failed"
            object["by"] = .integer(Int64(names.number(of: handler)))
            object["error"] = .string(error)
        }
        return .object(object)
    }

    private func compare(_ comparison: TraceReport.Comparison, names: inout NameNumbers) -> JSONValue {
        let matcher = comparison.comparison.matcher
        func run(_ summary: Divergence.RunSummary?) -> JSONValue {
            guard let summary else { return .null }
            var object: [String: JSONValue] = [
                "path": .array(summary.path.map { .integer(Int64(names.number(of: $0))) }),
                "outcome": .string(summary.outcome.description),
            ]
            if let line = summary.line { object["line"] = Self.integer(line) }
            if let file = summary.file { object["file"] = .string(file) }
            return .object(object)
        }
        var divergences: [JSONValue] = []
        for divergence in matcher.divergences {
            divergences.append([
                "kind": .string(divergence.kind.rawValue), "command": .string(divergence.command),
                "commandKind": .string(divergence.commandKind), "before": run(divergence.expected),
                "after": run(divergence.actual),
            ])
        }
        return [
            "before": .string(FileListText.listed(report.sources)), "after": .string(comparison.source),
            "compared": Self.integer(matcher.compared), "total": Self.integer(matcher.total),
            // Of `total`, the commands in one log only: no change of a command compared.
            "missing": Self.integer(matcher.counts[.missing] ?? 0),
            "unexpected": Self.integer(matcher.counts[.unexpected] ?? 0),
            "divergences": .array(divergences),
            "latency": .array(
                comparison.comparison.latencyChanges.map { change in
                    [
                        "handler": .string(change.handler), "p95Before": Self.integer(change.p95Before),
                        "p95After": Self.integer(change.p95After), "verdict": .string(change.verdict.rawValue),
                    ]
                }
            ),
        ]
    }

    /// The bars of a histogram of `statistics`' self times: up to ``histogramBars`` ranges, spaced evenly on a
    /// log scale from the shortest to the longest time, each `[from, to, count]`.
    static func bars(of statistics: HandlerStatistics) -> [JSONValue] {
        guard statistics.seen > 0 else { return [] }
        let lowest = max(1, statistics.selfTime(atPercentile: 0))
        let highest = max(lowest, statistics.maximumSelfTime)
        // The first bar also holds anything its histogram bucket puts below `lowest` (nothing is).
        var bounds: [UInt64] = [lowest]
        if highest > lowest {
            let ratio = Double(highest) / Double(lowest)
            for index in 1..<histogramBars {
                let bound = UInt64(Double(lowest) * pow(ratio, Double(index) / Double(histogramBars)))
                if bound > bounds.last! { bounds.append(bound) }
            }
        }
        if highest > bounds.last! || bounds.count == 1 { bounds.append(highest) }
        var bars: [JSONValue] = []
        var below = 0
        for (from, to) in zip(bounds, bounds.dropFirst()) {
            let upTo = statistics.selfTimeCount(atOrBelow: to)
            let count = upTo - below
            below = upTo
            if count > 0 || !bars.isEmpty { bars.append([integer(from), integer(to), integer(count)]) }
        }
        return bars
    }

    private static func letter(_ decision: Decision) -> String {
        switch decision {
        case .accepted: "a"
        case .passed: "p"
        case .continued: "c"
        case .failed: "f"
        }
    }

    static func integer(_ value: Int) -> JSONValue { .integer(Int64(clamping: value)) }
    static func integer(_ value: UInt64) -> JSONValue { .integer(Int64(clamping: value)) }
}

/// Numbers for handler names: the diagram's first, then any other name met, in order.
struct NameNumbers {
    private(set) var names: [String]
    private var numbers: [String: Int] = [:]

    init(_ names: [String]) {
        self.names = []
        for name in names { _ = number(of: name) }
    }

    mutating func number(of name: String) -> Int {
        if let number = numbers[name] { return number }
        names.append(name)
        numbers[name] = names.count - 1
        return names.count - 1
    }
}
