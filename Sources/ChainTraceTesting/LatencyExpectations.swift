public import ChainTrace
import ChainTraceJSON

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
    let limit = max(
        0,
        overflow ? (seconds < 0 ? Int64.min : Int64.max) : wholeSeconds.saturatingAdd(attoseconds / 1_000_000_000)
    )
    var slow: [(handler: String, time: UInt64, hops: Int)] = []
    for (handler, times) in selfTimes(in: traces) {
        let time = percentile.map { nearestRank($0, of: times) } ?? times[times.count - 1]
        if time > UInt64(limit) { slow.append((handler, time, times.count)) }
    }
    guard !slow.isEmpty else { return nil }
    let measure = percentile.map { "p\(Format.number($0)) self time" } ?? "self time"
    var text =
        "Expected no handler's \(measure) over \(DurationText.format(nanoseconds: limit)) in \(Format.counted(traces.count, "trace")):\n"
    for entry in slow {
        text +=
            "  \(TraceDescription.shown(entry.handler)): \(DurationText.format(nanoseconds: Int64(clamping: entry.time))) over \(Format.counted(entry.hops, "hop"))\n"
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
    than budget: Duration,
    in traces: [Trace],
    percentile: Double? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    verifyNoHandlerSlower(than: budget, in: traces, percentile: percentile).map {
        reportFailure($0, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// Each handler's self times in `traces`, sorted, handlers in the order they were first met.
private func selfTimes(in traces: [Trace]) -> [(handler: String, times: [UInt64])] {
    var order: [String] = []
    var times: [String: [UInt64]] = [:]
    for trace in traces {
        for hop in trace.hops {
            if times[hop.handler] == nil { order.append(hop.handler) }
            times[hop.handler, default: []].append(hop.selfDuration)
        }
    }
    return order.map { ($0, times[$0]!.sorted()) }
}

/// The value at `percentile` (0–100) of `sorted`, by nearest rank: the smallest value at least that share of the
/// values are at or below. Exact: a test's budget is compared with a time that was measured.
private func nearestRank(_ percentile: Double, of sorted: [UInt64]) -> UInt64 {
    let share = min(max(percentile, 0), 100) / 100
    let rank = Int((share * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
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
