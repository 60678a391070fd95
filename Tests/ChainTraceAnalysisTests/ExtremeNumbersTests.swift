import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// Numbers in a trace log are data: any value an `Int64` holds must flow through profiles, the slow rule,
/// comparisons and exports without trapping, and sums must saturate rather than wrap.
@Suite("Extreme numbers from files never trap")
struct ExtremeNumbersTests {
    static let extremes: [UInt64] = [
        0, 1, 255, 256, 999, 1_000, 1 << 31, 1 << 53, (1 << 53) + 1, 1 << 62, UInt64(Int64.max) - 1, UInt64(Int64.max),
    ]

    static func number(_ random: inout SeededGenerator) -> UInt64 {
        random.chance(0.6) ? random.pick(extremes) : UInt64.random(in: 0...UInt64(Int64.max), using: &random)
    }

    /// A trace with 1–6 hops whose every time is extreme or random, ending in any outcome.
    static func trace(_ random: inout SeededGenerator, id: UInt64) -> Trace {
        let names = ["A", "B", "C", "D", "E", "F"]
        let count = Int.random(in: 1...6, using: &random)
        var hops: [Hop] = []
        for position in 0..<count {
            let last = position == count - 1
            let decision: Decision =
                last ? random.pick([.accepted, .passed, .failed]) : random.pick([.passed, .continued])
            hops.append(
                Hop(
                    handler: names[position],
                    position: position,
                    decision: decision,
                    reason: decision == .failed ? "boom" : nil,
                    registry: random.chance(0.2) ? "R" : nil,
                    startOffset: number(&random),
                    inclusiveDuration: number(&random),
                    selfDuration: number(&random)
                )
            )
        }
        let outcome: Outcome
        switch hops.last!.decision {
        case .accepted: outcome = .accepted(by: hops.last!.handler)
        case .failed: outcome = .failed(at: hops.last!.handler, error: "boom")
        default: outcome = .fellOffTheEnd
        }
        let start =
            random.chance(0.5)
            ? random.pick([Int64.min, Int64.min + 1, -1, 0, Int64.max - 1, Int64.max])
            : Int64.random(in: .min ... .max, using: &random)
        return Trace(
            id: id,
            commandKind: "K",
            commandID: "c\(id)",
            entry: "A",
            chain: "extreme",
            startTime: start,
            hops: hops,
            outcome: outcome,
            duration: number(&random)
        )
    }

    static let rules = ["p95>1ms", "p50>1ns,share>30%", "5x-median", "max>2x-median", "mean>1s", "p99>0ns,share>0%"]

    @Test(arguments: SeededGenerator.seeds(40))
    func profilesRulesComparisonsAndExportsSaturate(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = (0..<Int.random(in: 1...30, using: &random)).map { Self.trace(&random, id: UInt64($0)) }
        var profile = ChainProfile()
        var chrome = ChromeTraceExport()
        var folded = FoldedStacksExport()
        for trace in traces {
            profile.add(trace)
            _ = chrome.events(for: trace)
            folded.add(trace)
            // The log format keeps every value exactly.
            let line = TraceLogFormat.encode(trace)
            let back = try TraceLogReader(bytes: TraceLogFormat.header + [10] + line + [10], name: "extreme.jsonl")
                .readAll().traces
            #expect(back == [trace], "seed \(seed)")
        }

        for unit in FoldedStacksExport.Unit.allCases { _ = folded.text(unit: unit) }
        for handler in profile.handlers where handler.seen > 0 {
            // A saturating sum is never below any of its terms; a wrapping one can be.
            let largest = traces.flatMap(\.hops).filter { $0.handler == handler.handler }.map(\.selfDuration).max() ?? 0
            #expect(handler.totalSelfNanoseconds >= largest, "seed \(seed): \(handler.handler)")
            // Percentiles of saturated values still rise with the percentile.
            let percentiles = [0.0, 50, 95, 99, 100].map { handler.selfTime(atPercentile: $0) }
            #expect(percentiles == percentiles.sorted(), "seed \(seed): \(handler.handler) \(percentiles)")
        }
        #expect(profile.totalNanoseconds >= traces.map(\.duration).max() ?? 0, "seed \(seed)")
        for text in Self.rules {
            let rule = try SlowHandlerRule.parse(text)
            for flag in rule.flags(in: profile) { #expect(!flag.reasons.isEmpty) }
            _ = rule.description
        }
        _ = LatencyChange.between(profile, ChainProfile())
        _ = LatencyChange.between(ChainProfile(), profile)
        _ = LatencyChange.between(profile, profile)
    }

    @Test func durationsFormatAtEveryMagnitude() {
        for value in [Int64.min, Int64.min + 1, -1_000_000_000, -1, 0, 1, 999, 1_000, 1 << 40, Int64.max] {
            #expect(!DurationText.format(nanoseconds: value).isEmpty)
        }
    }
}
