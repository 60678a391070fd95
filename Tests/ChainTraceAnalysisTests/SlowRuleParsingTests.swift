import ChainTrace
import ChainTraceAnalysis
import ChainTraceTestSupport
import Testing

/// `--slow` rules as people type them, generated — clauses in any order and case, with spaces, every statistic
/// (any percentile: `p99.9`, `p75`) and unit, now and then one twice — parse to exactly the clauses written, each
/// once; a clause with anything wrong (a hex, signed, infinite or missing number, an unknown statistic or unit, a
/// percentile of 0 or past 100, a share over 100%) is an error naming that clause.
@Suite("Slow-handler rules as typed")
struct SlowRuleParsingTests {
    static func statistic(_ random: inout SeededGenerator) -> SlowHandlerRule.Statistic {
        random.chance(0.6)
            ? random.pick([.p50, .p90, .p95, .p99, .max, .mean])
            : .percentile(random.pick([99.9, 99.99, 75, 0.1, 100, 1, Double(Int.random(in: 1...100, using: &random))]))
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func typedClausesParseToWhatTheySay(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var clauses: [SlowHandlerRule.Clause] = []
        var texts: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let statistic = Self.statistic(&random)
                let (unit, scale) = random.pick([("ns", 1.0), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9)])
                let amount =
                    random.chance(0.5)
                    ? "\(Int.random(in: 0...999, using: &random))"
                    : "\(Int.random(in: 0...99, using: &random)).\(Int.random(in: 1...9, using: &random))"
                clauses.append(.over(statistic, nanoseconds: Int64((Double(amount)! * scale).rounded())))
                texts.append("\(statistic)>\(amount)\(unit)")
            case 1:
                let percent = Int.random(in: 0...100, using: &random)
                clauses.append(.share(over: Double(percent) / 100))
                texts.append("share>\(percent)%")
            default:
                let factor = Int.random(in: 1...20, using: &random)
                // The legends write the factor with the multiplication sign; either reads, and the median after a
                // hyphen, a space or nothing ("5x-median", "5× median").
                let times = random.chance(0.3) ? "\u{D7}" : "x"
                let median = random.pick(["-median", "-median", " median", "median"])
                if random.chance(0.5) {
                    clauses.append(.timesMedian(.p95, factor: Double(factor)))
                    texts.append("\(factor)\(times)\(median)")
                } else {
                    let statistic = Self.statistic(&random)
                    clauses.append(.timesMedian(statistic, factor: Double(factor)))
                    texts.append("\(statistic)>\(factor)\(times)\(median)")
                }
            }
        }
        // Now and then a clause again, which the rule holds once.
        if random.chance(0.3) {
            let again = Int.random(in: 0..<texts.count, using: &random)
            texts.append(texts[again])
        }
        clauses = clauses.enumerated().filter { clauses.firstIndex(of: $0.element) == $0.offset }.map(\.element)
        // Any case (but the micro sign's: its capital lowercases to the Greek mu).
        let typed = texts.map { text in random.chance(0.3) && !text.contains("µ") ? text.uppercased() : text }
            .joined(separator: random.pick([",", ", ", " , "]))
        let rule = try SlowHandlerRule.parse(typed)
        #expect(rule.clauses == clauses, "seed \(seed): \(typed)")
    }

    /// Each wrong clause, and words of what its error says was expected there.
    static let wrongClauses: [(clause: String, expected: String, found: String)] = [
        ("p95>0x10ms", "a duration such as", "0x10ms"), ("p95>-1ms", "a duration such as", "-1ms"),
        ("p95>infms", "a duration such as", "infms"), ("p95>1e3ms", "a duration such as", "1e3ms"),
        ("p95>ms", "a duration such as", "ms"), ("p95>1h", "a duration such as", "1h"),
        ("p95>99999999999s", "a duration under 292 years", "99999999999s"),
        ("p0>1ms", "a statistic (p50, p90, p95, p99 or any percentile such as p99.9, max, mean) or \"share\"", "p0"),
        ("p100.1>1ms", "a statistic (p50", "p100.1"), ("p-5>1ms", "a statistic (p50", "p-5"),
        ("p9e1>1ms", "a statistic (p50", "p9e1"),
        ("median>1ms", "a statistic (p50", "median"),
        ("share>101%", "a share from 0% to 100%", "101%"), ("share>-5%", "a share from 0% to 100%", "-5%"),
        ("share>nan%", "a share from 0% to 100%", "nan%"), ("share>30", "a share from 0% to 100%", "30"),
        ("0x2x-median", "a factor over 0", "0x2"), ("infx-median", "a factor over 0", "inf"),
        ("0x-median", "a factor over 0", "0"),
        ("p95>x-median", "a factor over 0", ""), ("p142>5x-median", "a statistic (p50", "p142"),
        ("p95", "a clause such as \"p95>1ms\"", "p95"), (">1ms", "a statistic", ""),
        ("p95>1ms or 5x-median", "clauses separated by commas", "or"),
        ("p95>1ms and share>3%", "clauses separated by commas", "and"),
    ]

    @Test(arguments: wrongClauses)
    func aWrongClauseIsAnErrorNamingItAndWhatItNeeded(clause: String, expected: String, found: String) {
        let text = "p50>1ms, \(clause)"
        do {
            let rule = try SlowHandlerRule.parse(text)
            Issue.record("\(text) was accepted as \(rule)")
        } catch {
            #expect(error.clause == clause.lowercased().filter { $0 != " " }, "\(error)")
            #expect(error.expected.hasPrefix(expected), "\(clause): \(error)")
            #expect(error.found == found, "\(clause): \(error)")
            #expect(error.description.contains("found \"\(found)\""), "\(clause): \(error)")
        }
    }

    @Test(arguments: ["", ",", " , ,"])
    func noClauseAtAllIsAnError(text: String) {
        #expect(throws: RuleSyntaxError.self) { try SlowHandlerRule.parse(text) }
    }
}
