/// How one handler's self time changed between two runs.
public struct LatencyChange: Sendable, Hashable, Encodable {
    /// Which way it moved.
    public enum Verdict: String, Sendable, Hashable, Codable {
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
    /// Which way it moved: slower or faster when its p95 moved by at least `threshold` (a fraction) and 100 ns,
    /// *and* its self times in the two runs differ as a rank test tells (``pValue`` below ``significance``, the
    /// second run's times tending the same way as the p95) — otherwise unchanged: a p95 of a few hops is their
    /// slowest, and moves from run to run by itself.
    public var verdict: Verdict
    /// The two-sided p-value of the Mann–Whitney U test of its self times in the two runs: the chance of runs this
    /// far apart had nothing changed (1 when either run has none).
    public var pValue: Double

    /// The p-value below which a change counts.
    public static let significance = 0.05

    /// A change as given; ``between(_:_:threshold:)`` works them out from two profiles.
    public init(
        handler: String,
        seenBefore: Int,
        seenAfter: Int,
        p50Before: UInt64,
        p50After: UInt64,
        p95Before: UInt64,
        p95After: UInt64,
        verdict: Verdict,
        pValue: Double = 1
    ) {
        self.handler = handler
        (self.seenBefore, self.seenAfter) = (seenBefore, seenAfter)
        (self.p50Before, self.p50After, self.p95Before, self.p95After) = (p50Before, p50After, p95Before, p95After)
        self.verdict = verdict
        self.pValue = pValue
    }

    /// The p95 after over the p95 before as people read it — `1.08×`, `12.5×`, `3400×`, `0.0123×`, `<0.001×` — or
    /// `nil` when either is 0. Three significant digits, never an exponent, never cut short.
    public var p95RatioText: String? {
        guard p95Before > 0, p95After > 0 else { return nil }
        return Self.ratioText(Double(p95After) / Double(p95Before))
    }

    /// `ratio` to three significant digits with no exponent, then `×`; below 0.001, `<0.001×`.
    static func ratioText(_ ratio: Double) -> String {
        guard ratio.isFinite else { return "-" }
        if ratio < 0.001 { return "<0.001×" }
        // Digits after the point for three significant ones: 2 for 1.08, 1 for 12.5, 0 from 100 on, 4 for 0.0123.
        var decimals = 2
        var bound = 1.0
        while ratio >= bound * 10, decimals > 0 {
            bound *= 10
            decimals -= 1
        }
        while ratio < bound, decimals < 5 {
            bound /= 10
            decimals += 1
        }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (ratio * scale).rounded() / scale
        // Whole numbers as integers (a Double's text turns to an exponent past 10^16).
        guard decimals > 0 else { return rounded < 1e19 ? "\(UInt64(rounded))×" : "over 10000000000000000000×" }
        // Written digit by digit: `String(Double)` writes an exponent below 0.0001.
        let whole = rounded.rounded(.towardZero)
        let fraction = Int64(((rounded - whole) * scale).rounded())
        var digits = String(fraction)
        while digits.count < decimals { digits = "0" + digits }
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(Int64(whole))" + (digits.isEmpty ? "" : "." + digits) + "×"
    }

    /// The change of each handler, in the order of the first profile, then handlers new in the second.
    public static func between(_ before: ChainProfile, _ after: ChainProfile, threshold: Double = 0.10)
        -> [LatencyChange]
    {
        var names = before.handlers.filter { $0.seen > 0 }.map(\.handler)
        // A set beside the list: searching the list made a diff of logs with thousands of handlers quadratic.
        var listed = Set(names)
        for handler in after.handlers where handler.seen > 0 && listed.insert(handler.handler).inserted {
            names.append(handler.handler)
        }
        // The exact tests' distributions depend on the two runs' sizes alone: worked out once a pair of sizes.
        var distributions = RankSumTest.Distributions()
        var changes: [LatencyChange] = []
        changes.reserveCapacity(names.count)
        for name in names {
            let old = before.statistics(of: name)
            let new = after.statistics(of: name)
            let p95Before = old?.selfTime(atPercentile: 95) ?? 0
            let p95After = new?.selfTime(atPercentile: 95) ?? 0
            let verdict: Verdict
            var pValue = 1.0
            if let old, let new, old.seen > 0, new.seen > 0 {
                let test = RankSumTest(old.selfTimeCounts, new.selfTimeCounts, distributions: &distributions)
                pValue = test.pValue
                let change = Double(p95After) - Double(p95Before)
                if abs(change) < 100 || abs(change) < threshold * Double(max(p95Before, 1)) || pValue >= significance
                    || test.secondIsLarger != (change > 0)
                {
                    verdict = .unchanged
                } else {
                    verdict = change > 0 ? .slower : .faster
                }
            } else {
                verdict = (old?.seen ?? 0) == 0 ? .new : .gone
            }
            changes.append(
                LatencyChange(
                    handler: name,
                    seenBefore: old?.seen ?? 0,
                    seenAfter: new?.seen ?? 0,
                    p50Before: old?.selfTime(atPercentile: 50) ?? 0,
                    p50After: new?.selfTime(atPercentile: 50) ?? 0,
                    p95Before: p95Before,
                    p95After: p95After,
                    verdict: verdict,
                    pValue: pValue
                )
            )
        }
        return changes
    }

    private enum CodingKeys: String, CodingKey {
        case handler, verdict, seenBefore, seenAfter, pValue
        case p50Before = "selfP50BeforeNs"
        case p50After = "selfP50AfterNs"
        case p95Before = "selfP95BeforeNs"
        case p95After = "selfP95AfterNs"
    }

    /// Every field, times as `selfP50BeforeNs` and so on, clamped to the largest signed 64-bit number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(handler, forKey: .handler)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(seenBefore, forKey: .seenBefore)
        try container.encode(seenAfter, forKey: .seenAfter)
        try container.encode(pValue, forKey: .pValue)
        try container.encode(Int64(clamping: p50Before), forKey: .p50Before)
        try container.encode(Int64(clamping: p50After), forKey: .p50After)
        try container.encode(Int64(clamping: p95Before), forKey: .p95Before)
        try container.encode(Int64(clamping: p95After), forKey: .p95After)
    }
}
