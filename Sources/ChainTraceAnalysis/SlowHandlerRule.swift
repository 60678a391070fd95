import ChainTrace
import ChainTraceDefinitions

/// When a handler counts as slow — one rule shared by `chaintrace replay`, `stats` and the renderer's legend.
///
/// A handler is flagged when any clause holds: its self time (at a percentile) is over an absolute threshold,
/// its share of the chain's total self time is over a fraction, its self time is over k × the median handler's
/// (at a percentile: on more of its hops than chance puts past the percentile, so that one slow hop among a few
/// flags nothing), or it is over its own budget from the chain definition.
///
/// Written as comma-separated clauses: `p95>1ms`, `p99>250us`, `share>30%`, `5x-median` (or `p99>5x-median`).
/// The default is `p95>1ms,5x-median`; budgets always apply.
public struct SlowHandlerRule: Sendable, Hashable, CustomStringConvertible {
    /// A self-time statistic.
    public enum Statistic: Sendable, Hashable, CustomStringConvertible {
        /// A percentile of the self times, over 0 and up to 100: `p95`, `p99.9`.
        case percentile(Double)
        /// The longest self time.
        case max
        /// The mean self time.
        case mean

        /// The median.
        public static let p50 = Statistic.percentile(50)
        /// The 90th percentile.
        public static let p90 = Statistic.percentile(90)
        /// The 95th percentile.
        public static let p95 = Statistic.percentile(95)
        /// The 99th percentile.
        public static let p99 = Statistic.percentile(99)

        /// The statistic as a rule writes it: `p` and a percentile (`p95`, `p99.9`; over 0, at most 100), `max`
        /// or `mean`; `nil` for anything else.
        public init?(_ text: String) {
            switch text {
            case "max": self = .max
            case "mean": self = .mean
            default:
                guard text.hasPrefix("p"), let percentile = DurationText.decimalNumber(text.dropFirst()),
                    percentile > 0, percentile <= 100
                else { return nil }
                self = .percentile(percentile)
            }
        }

        /// As a rule writes it: `p95`, `p99.9`, `max`, `mean`.
        public var description: String {
            switch self {
            case .percentile(let percentile):
                percentile == percentile.rounded() ? "p\(Int(percentile))" : "p\(percentile)"
            case .max: "max"
            case .mean: "mean"
            }
        }

        func value(of statistics: HandlerStatistics) -> Double {
            switch self {
            case .percentile(let percentile): Double(statistics.selfTime(atPercentile: percentile))
            case .max: Double(statistics.maximumSelfTime)
            case .mean: statistics.meanSelfTime
            }
        }
    }

    /// One condition.
    public enum Clause: Sendable, Hashable {
        /// The statistic is over this many nanoseconds.
        case over(Statistic, nanoseconds: Int64)
        /// The handler's share of all self time is over this fraction (0–1).
        case share(over: Double)
        /// The statistic is over this multiple of the median handler's same statistic — for a percentile, on enough
        /// of the handler's hops (a one-sided binomial test at ``SlowHandlerRule/relativeEvidenceLevel``).
        case timesMedian(Statistic, factor: Double)
    }

    /// The clauses; any one flags a handler.
    public var clauses: [Clause]
    /// Whether a handler over its budget is flagged.
    public var checksBudgets = true

    /// The default: `p95>1ms,5x-median`, and budgets.
    public static let standard = SlowHandlerRule(clauses: [
        .over(.p95, nanoseconds: 1_000_000), .timesMedian(.p95, factor: 5),
    ])

    /// Creates a rule from clauses.
    public init(clauses: [Clause], checksBudgets: Bool = true) {
        self.clauses = clauses
        self.checksBudgets = checksBudgets
    }

    /// Reads a rule written as comma-separated clauses; a clause given twice counts once.
    ///
    /// - Throws: ``RuleSyntaxError`` naming the first clause that is not understood (or the whole text, when it
    ///   has no clause).
    public static func parse(_ text: String) throws(RuleSyntaxError) -> SlowHandlerRule {
        var clauses: [Clause] = []
        for written in text.split(separator: ",") {
            // "5×-median" as the legends write the factor (the multiplication sign) reads as "5x-median".
            let part = String(written.filter { $0 != " " }.lowercased().map { $0 == "\u{D7}" ? "x" : $0 })
            guard !part.isEmpty else { continue }
            // "p95>1ms or 5x-median", as the legends word it: the words run together once spaces are dropped.
            let words = written.lowercased().split(separator: " ")
            if words.count > 1, let joiner = words.first(where: { ["or", "and", "||", "|"].contains($0) }) {
                throw RuleSyntaxError(
                    clause: part,
                    expected: "clauses separated by commas (any one flags a handler)",
                    found: String(joiner)
                )
            }
            let clause: Clause
            switch parseClause(part) {
            case .success(let parsed): clause = parsed
            case .failure(let error): throw error
            }
            // A clause written twice (`5x-median,p95>5x-median`) is one clause, said once in legends.
            if !clauses.contains(clause) { clauses.append(clause) }
        }
        if clauses.isEmpty {
            throw RuleSyntaxError(
                clause: text,
                expected: "at least one clause, such as \"p95>1ms\", \"share>30%\" or \"5x-median\""
            )
        }
        return SlowHandlerRule(clauses: clauses)
    }

    /// The statistics a clause may name, for error messages.
    private static let statistics = "a statistic (p50, p90, p95, p99 or any percentile such as p99.9, max, mean)"

    private static func parseClause(_ text: String) -> Result<Clause, RuleSyntaxError> {
        func wrong(_ expected: String, _ found: some StringProtocol) -> Result<Clause, RuleSyntaxError> {
            .failure(RuleSyntaxError(clause: text, expected: expected, found: String(found)))
        }
        // "5x-median", or as it is said, "5x median" (its space dropped) and "5× median".
        if let suffix = ["x-median", "xmedian"].first(where: text.hasSuffix) {
            var statistic = Statistic.p95
            var factorText = Substring(text.dropLast(suffix.count))
            if let greater = factorText.firstIndex(of: ">") {
                let name = factorText[..<greater]
                guard let named = Statistic(String(name)) else { return wrong("\(statistics) before \">\"", name) }
                statistic = named
                factorText = factorText[factorText.index(after: greater)...]
            }
            guard let factor = DurationText.decimalNumber(factorText), factor > 0 else {
                return wrong("a factor over 0 before \"x-median\", such as 5 or 2.5", factorText)
            }
            return .success(.timesMedian(statistic, factor: factor))
        }
        let sides = text.split(separator: ">", omittingEmptySubsequences: false)
        guard sides.count == 2 else {
            let example = Statistic(text).map { "\($0)>1ms" } ?? "p95>1ms"
            return wrong("a clause such as \"\(example)\", \"share>30%\" or \"5x-median\"", text)
        }
        if sides[0] == "share" {
            guard sides[1].hasSuffix("%"), let percent = DurationText.decimalNumber(sides[1].dropLast()), percent <= 100
            else { return wrong("a share from 0% to 100% after \"share>\", such as 30%", sides[1]) }
            return .success(.share(over: percent / 100))
        }
        guard let statistic = Statistic(String(sides[0])) else {
            return wrong("\(statistics) or \"share\" before \">\"", sides[0])
        }
        guard let nanoseconds = DurationText.nanoseconds(String(sides[1])) else {
            let expected =
                DurationText.isTooLong(String(sides[1])) ? DurationText.tooLongExpectation : DurationText.expectation
            return wrong(
                "\(expected), or a factor such as \"5x-median\", after \"\(statistic.description)>\"",
                sides[1]
            )
        }
        return .success(.over(statistic, nanoseconds: nanoseconds))
    }

    /// The rule in words, for legends and table footers.
    public var description: String {
        var parts = clauses.map { clause -> String in
            switch clause {
            case .over(let statistic, let nanoseconds):
                "\(statistic.description) self time > \(DurationText.format(nanoseconds: nanoseconds))"
            case .share(let fraction):
                "share of chain time > \(Self.percent(fraction))"
            case .timesMedian(let statistic, let factor):
                if case .percentile = statistic {
                    "\(statistic.description) self time > \(Self.number(factor))× the median handler's on enough of its hops"
                } else {
                    "\(statistic.description) self time > \(Self.number(factor))× the median handler's"
                }
            }
        }
        if checksBudgets { parts.append("over its budget") }
        return "slow when " + parts.joined(separator: ", or ")
    }

    /// The handlers of `profile` this rule flags, each with the numbers that triggered it, in profile order.
    public func flags(in profile: ChainProfile) -> [SlowHandlerFlag] {
        let reached = profile.handlers.filter { $0.seen > 0 }
        let totalSelf = Double(profile.totalSelfNanoseconds)
        let medians = medians(of: reached)
        var flags: [SlowHandlerFlag] = []
        for handler in reached {
            var reasons: [String] = []
            for clause in clauses {
                switch clause {
                case .over(let statistic, let limit):
                    let value = statistic.value(of: handler)
                    if value > Double(limit) {
                        reasons.append(
                            "\(statistic.description) \(Self.time(value)) > \(DurationText.format(nanoseconds: limit))"
                        )
                    }
                case .share(let fraction):
                    let share = totalSelf > 0 ? Double(handler.totalSelfNanoseconds) / totalSelf : 0
                    if share > fraction {
                        reasons.append("\(Self.percent(share)) of chain time > \(Self.percent(fraction))")
                    }
                case .timesMedian(let statistic, let factor):
                    guard let median = medians[statistic] else { continue }
                    let value = statistic.value(of: handler)
                    let limit = factor * median
                    guard value > limit, value > 0 else { continue }
                    var evidence = ""
                    if case .percentile(let percentile) = statistic {
                        // `limit` is below `value`, which is at most the longest self time: a time the histogram holds.
                        let over = handler.seen - handler.selfTimeCount(atOrBelow: UInt64(limit))
                        guard Self.isBeyondChance(over: over, of: handler.seen, percentile: percentile) else {
                            continue
                        }
                        evidence = " (\(over) of \(handler.seen) hops over \(Self.time(limit)))"
                    }
                    let ratio = median > 0 ? "\(Self.number(value / median))×" : "∞×"
                    reasons.append(
                        "\(statistic.description) \(Self.time(value)) = \(ratio) the median \(Self.time(median)) > \(Self.number(factor))×\(evidence)"
                    )
                }
            }
            if checksBudgets, let budget = handler.budgetNanoseconds {
                let value = Statistic.p95.value(of: handler)
                if value > Double(budget) {
                    reasons.append("p95 \(Self.time(value)) > budget \(DurationText.format(nanoseconds: budget))")
                }
            }
            if !reasons.isEmpty { flags.append(SlowHandlerFlag(handler: handler.handler, reasons: reasons)) }
        }
        return flags
    }

    /// The significance level of the test a relative clause on a percentile makes before it flags a handler: more
    /// of its hops over k × the median handler's than chance puts past the percentile, at this level (0.01).
    public static var relativeEvidenceLevel: Double { 0.01 }

    /// Whether `over` of a handler's `hops` over a relative clause's time are more than chance puts there when only
    /// the hops past `percentile` are: if each hop were over it with chance 1 − `percentile`/100 — the most that
    /// leaves the percentile at or under it — the chance of `over` or more (a one-sided binomial test) is below
    /// ``relativeEvidenceLevel``.
    ///
    /// Why: the median handler's p95 in a replay of a few commands is tens of nanoseconds, and a p95 of a few hops is
    /// their slowest, so one hop that met a cold cache or a preempted thread made a handler that does nothing
    /// "slow" in most short replays: one of the benchmark chain's ten alike validators was flagged in 22 of 30
    /// replays of its first 2–30 *varied* commands, and in 1 of 30 with the test (both of that replay's two
    /// commands slow in the first handler). For p95 the test needs 2 of 2 hops over the time, 3 of 5, 4 of 10,
    /// 6 of 30, 12 of 100; over thousands of hops it asks hardly more than the percentile itself.
    static func isBeyondChance(over: Int, of hops: Int, percentile: Double) -> Bool {
        BinomialTail.probability(atLeast: over, of: hops, each: 1 - percentile / 100) < relativeEvidenceLevel
    }

    /// The median handler's value of each statistic a `timesMedian` clause uses (with at least three handlers).
    private func medians(of reached: [HandlerStatistics]) -> [Statistic: Double] {
        var medians: [Statistic: Double] = [:]
        for case .timesMedian(let statistic, _) in clauses where reached.count >= 3 {
            let values = reached.map { statistic.value(of: $0) }.sorted()
            medians[statistic] =
                values.count % 2 == 1
                ? values[values.count / 2] : (values[values.count / 2 - 1] + values[values.count / 2]) / 2
        }
        return medians
    }

    /// For each handler of `profile` that ran, the lowest self time the rule names for it — an absolute
    /// threshold, k × the median, or its budget — and the clause it comes from: the line to mark on a histogram
    /// of its self times. (`share` clauses name no time; a handler with only those has no limit.)
    public func selfTimeLimits(in profile: ChainProfile) -> [String: SelfTimeLimit] {
        let reached = profile.handlers.filter { $0.seen > 0 }
        let medians = medians(of: reached)
        var limits: [String: SelfTimeLimit] = [:]
        for handler in reached {
            var candidates: [SelfTimeLimit] = []
            for clause in clauses {
                switch clause {
                case .over(let statistic, let limit):
                    candidates.append(
                        SelfTimeLimit(
                            nanoseconds: Double(limit),
                            statistic: statistic,
                            clause: "\(statistic.description) > \(DurationText.format(nanoseconds: limit))"
                        )
                    )
                case .timesMedian(let statistic, let factor):
                    // A median of 0 flags every handler over 0, as `flags(in:)` does.
                    guard let median = medians[statistic] else { continue }
                    candidates.append(
                        SelfTimeLimit(
                            nanoseconds: factor * median,
                            statistic: statistic,
                            clause: "\(statistic.description) > \(Self.number(factor))× the median \(Self.time(median))"
                        )
                    )
                case .share:
                    continue
                }
            }
            if checksBudgets, let budget = handler.budgetNanoseconds {
                candidates.append(
                    SelfTimeLimit(
                        nanoseconds: Double(budget),
                        statistic: .p95,
                        clause: "p95 > budget \(DurationText.format(nanoseconds: budget))"
                    )
                )
            }
            if let lowest = candidates.min(by: { $0.nanoseconds < $1.nanoseconds }) { limits[handler.handler] = lowest }
        }
        return limits
    }

    private static func time(_ nanoseconds: Double) -> String {
        DurationText.format(nanoseconds: Int64(saturating: nanoseconds))
    }

    private static func percent(_ fraction: Double) -> String { number(fraction * 100) + "%" }

    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "0" : "∞" }
        let rounded = (value * 10).rounded() / 10
        guard abs(rounded) < 1e15 else { return String(rounded) }
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// The lowest self time a ``SlowHandlerRule`` allows one handler: over it (at the clause's statistic) the handler
/// is slow.
public struct SelfTimeLimit: Sendable, Hashable {
    /// The limit, in nanoseconds.
    public var nanoseconds: Double
    /// The statistic the clause compares with it.
    public var statistic: SlowHandlerRule.Statistic
    /// The clause, in the words `stats` uses: `p95 > 1ms`.
    public var clause: String
}

/// A handler the ``SlowHandlerRule`` flagged, and why.
public struct SlowHandlerFlag: Sendable, Hashable {
    /// The handler.
    public var handler: String
    /// Each clause that held, with its numbers: `p95 2.1ms > 1ms`.
    public var reasons: [String]
}

/// A slow-handler rule clause that is not understood, and what it needed.
public struct RuleSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The clause, as parsed: lowercased, without spaces, `×` read as `x`.
    public var clause: String
    /// What the clause needed where it went wrong: `a statistic (…) or "share" before ">"`.
    public var expected: String
    /// The part of the clause found there instead (the whole clause, when no part is to blame).
    public var found: String

    /// An error for `clause`, which needed `expected` where `found` (by default, the whole clause) is.
    public init(clause: String, expected: String, found: String? = nil) {
        self.clause = clause
        self.expected = expected
        self.found = found ?? clause
    }

    public var description: String {
        let place = found == clause ? "" : " in \"\(clause)\""
        return "expected \(expected), found \"\(found)\"\(place)"
    }
}
