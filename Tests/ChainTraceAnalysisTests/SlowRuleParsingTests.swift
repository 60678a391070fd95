import ChainTrace
import ChainTraceAnalysis
import ChainTraceTestSupport
import Testing

/// `--slow` rules as people type them, generated — clauses in any order and case, with spaces, every statistic
/// and unit, now and then one twice — parse to exactly the clauses written, each once; a clause with anything
/// wrong (a hex, signed, infinite or missing number, an unknown statistic or unit, a share over 100%) is an error
/// naming that clause.
@Suite("Slow-handler rules as typed")
struct SlowRuleParsingTests {
    static let statistics = SlowHandlerRule.Statistic.allCases

    @Test(arguments: SeededGenerator.seeds(100))
    func typedClausesParseToWhatTheySay(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var clauses: [SlowHandlerRule.Clause] = []
        var texts: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let statistic = random.pick(Self.statistics)
                let (unit, scale) = random.pick([("ns", 1.0), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9)])
                let amount = random.chance(0.5) ? "\(Int.random(in: 0...999, using: &random))" : "\(Int.random(in: 0...99, using: &random)).\(Int.random(in: 1...9, using: &random))"
                clauses.append(.over(statistic, nanoseconds: Int64((Double(amount)! * scale).rounded())))
                texts.append("\(statistic.rawValue)>\(amount)\(unit)")
            case 1:
                let percent = Int.random(in: 0...100, using: &random)
                clauses.append(.share(over: Double(percent) / 100))
                texts.append("share>\(percent)%")
            default:
                let factor = Int.random(in: 1...20, using: &random)
                if random.chance(0.5) {
                    clauses.append(.timesMedian(.p95, factor: Double(factor)))
                    texts.append("\(factor)x-median")
                } else {
                    let statistic = random.pick(Self.statistics)
                    clauses.append(.timesMedian(statistic, factor: Double(factor)))
                    texts.append("\(statistic.rawValue)>\(factor)x-median")
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

    @Test(arguments: [
        "p95>0x10ms", "p95>-1ms", "p95>infms", "p95>1e3ms", "p95>ms", "p95>1h", "p97>1ms", "share>101%", "share>-5%",
        "share>nan%", "share>30", "0x2x-median", "infx-median", "0x-median", "p95>x-median", "p42>5x-median", "p95", ">1ms",
    ])
    func aWrongClauseIsAnErrorNamingIt(clause: String) {
        let text = "p50>1ms, \(clause)"
        do {
            let rule = try SlowHandlerRule.parse(text)
            Issue.record("\(text) was accepted as \(rule)")
        } catch {
            #expect(error.clause == clause.lowercased().filter { $0 != " " }, "\(error)")
        }
    }
}
