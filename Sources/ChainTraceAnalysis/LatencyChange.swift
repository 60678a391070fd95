/// How one handler's self time changed between two runs.
public struct LatencyChange: Sendable, Hashable {
    /// Which way it moved.
    public enum Verdict: String, Sendable, Hashable {
        case slower, faster, unchanged
        /// Only the second run has it.
        case new
        /// Only the first run has it.
        case gone
    }

    /// The handler.
    public var handler: String
    /// Hops in each run.
    public var seenBefore: Int, seenAfter: Int
    /// p50 and p95 self time in each run, in nanoseconds.
    public var p50Before: UInt64, p50After: UInt64, p95Before: UInt64, p95After: UInt64
    /// Which way it moved: a p95 change of at least `threshold` (a fraction) and 100 ns counts.
    public var verdict: Verdict

    /// The change of each handler, in the order of the first profile, then handlers new in the second.
    public static func between(_ before: ChainProfile, _ after: ChainProfile, threshold: Double = 0.10) -> [LatencyChange] {
        var names = before.handlers.filter { $0.seen > 0 }.map(\.handler)
        for handler in after.handlers where handler.seen > 0 && !names.contains(handler.handler) { names.append(handler.handler) }
        return names.map { name in
            let old = before.statistics(of: name)
            let new = after.statistics(of: name)
            let p95Before = old?.selfTime(atPercentile: 95) ?? 0
            let p95After = new?.selfTime(atPercentile: 95) ?? 0
            let verdict: Verdict
            if (old?.seen ?? 0) == 0 {
                verdict = .new
            } else if (new?.seen ?? 0) == 0 {
                verdict = .gone
            } else {
                let change = Double(p95After) - Double(p95Before)
                if abs(change) < 100 || abs(change) < threshold * Double(max(p95Before, 1)) {
                    verdict = .unchanged
                } else {
                    verdict = change > 0 ? .slower : .faster
                }
            }
            return LatencyChange(
                handler: name, seenBefore: old?.seen ?? 0, seenAfter: new?.seen ?? 0,
                p50Before: old?.selfTime(atPercentile: 50) ?? 0, p50After: new?.selfTime(atPercentile: 50) ?? 0,
                p95Before: p95Before, p95After: p95After, verdict: verdict)
        }
    }
}
