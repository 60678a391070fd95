public import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions

/// The message when a handler's self time in `traces` is over `budget`, or `nil` when none is.
///
/// - Parameters:
///   - budget: The most self time any handler may take.
///   - traces: The traces to check.
///   - percentile: Compare each handler's self time at this percentile (0–100) of its hops — robust to
///   one slow outlier when `traces` come from many runs. `nil` compares every single hop.
public func verifyNoHandlerSlower(than budget: Duration, in traces: [Trace], percentile: Double? = nil) -> String? {
    // Any Duration, up to its largest, in nanoseconds: saturated, never trapping; a negative budget is zero.
    let (seconds, attoseconds) = budget.components
    let (wholeSeconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let limit = max(0, overflow ? (seconds < 0 ? Int64.min : Int64.max) : wholeSeconds.saturatingAdd(attoseconds / 1_000_000_000))
    let profile = ChainProfile(traces)
    var slow: [(handler: String, time: UInt64, hops: Int)] = []
    for handler in profile.handlers where handler.seen > 0 {
        let time = percentile.map { handler.selfTime(atPercentile: $0) } ?? handler.maximumSelfTime
        if time > UInt64(limit) { slow.append((handler.handler, time, handler.seen)) }
    }
    guard !slow.isEmpty else { return nil }
    let measure = percentile.map { "p\(Format.number($0)) self time" } ?? "self time"
    var text = "Expected no handler's \(measure) over \(DurationText.format(nanoseconds: limit)) in \(Format.counted(traces.count, "trace")):\n"
    for entry in slow {
        text += "  \(TraceDescription.shown(entry.handler)): \(DurationText.format(nanoseconds: Int64(clamping: entry.time))) over \(Format.counted(entry.hops, "hop"))\n"
    }
    return text
}

/// Expects no handler's self time in `traces` to be over `budget` (at `percentile`, when given).
///
/// ```swift
/// let traces = try captureTraces { for coin in coins { _ = try chain.send(coin) } }
/// expectNoHandlerSlower(than: .microseconds(50), in: traces, percentile: 95)
/// ```
public func expectNoHandlerSlower(
    than budget: Duration, in traces: [Trace], percentile: Double? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    verifyNoHandlerSlower(than: budget, in: traces, percentile: percentile).map {
        reportFailure($0, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

private enum Format {
    /// `1 trace`, `2 traces`.
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
