import ArgumentParser
import ChainTraceAnalysis

/// `--slow`, shared by `replay` and `stats`.
struct SlowRuleOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "When a handler is flagged slow: comma-separated clauses, any of which flags it.",
            discussion:
                "p95>1ms (a self-time percentile over a time; p50 p90 p95 p99, any other such as p99.9, max, mean; ns us ms s), share>30% (its share of all self time), 5x-median or \"5x median\" (over k times the median handler's p95 on enough of its hops: more of them over that than chance puts past the percentile, p < 0.01 — 2 of 2, 3 of 5, 4 of 10; p99>5x-median for another statistic). Budgets from the definition always apply. Default: p95>1ms,5x-median.",
            valueName: "rule"
        )
    )
    var slow: String?

    func validate() throws {
        _ = try rule()
    }

    func rule() throws -> SlowHandlerRule {
        guard let slow else { return .standard }
        do {
            return try SlowHandlerRule.parse(slow)
        } catch {
            throw ValidationError("--slow: \(error)")
        }
    }
}
