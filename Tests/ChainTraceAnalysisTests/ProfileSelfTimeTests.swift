import ChainTrace
import ChainTraceAnalysis
import Histogram
import Testing

/// A profile counts fast hops' self times apart and folds them into each handler's histogram later; every
/// percentile must come out exactly as if each time had been recorded in the histogram directly.
@Suite("Profile self times")
struct ProfileSelfTimeTests {
    /// One trace per self time, through one handler.
    static func traces(selfTimes: [UInt64]) -> [Trace] {
        selfTimes.enumerated().map { index, nanoseconds in
            Trace(
                id: UInt64(index), commandKind: "Tap", entry: "Button", chain: "responders",
                hops: [Hop(handler: "Button", position: 0, decision: .passed, inclusiveDuration: nanoseconds, selfDuration: nanoseconds)],
                outcome: .fellOffTheEnd, duration: nanoseconds)
        }
    }

    static func directly(_ selfTimes: [UInt64]) -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(highestTrackableValue: 1 << 40, numberOfSignificantValueDigits: .two)
        histogram.autoResize = true
        for value in selfTimes { histogram.record(value) }
        return histogram
    }

    static let percentiles: [Double] = [0, 0.1, 1, 10, 25, 49.9, 50, 50.1, 75, 90, 95, 99, 99.9, 99.99, 100]

    @Test(arguments: [
        "fast only", "slow only", "mixed", "mixed, mostly slow", "edges",
    ])
    func percentilesMatchRecordingEachTimeDirectly(_ mix: String) {
        var generator = SystemRandomNumberGenerator()
        let selfTimes: [UInt64] =
            switch mix {
            case "fast only": (0..<5_000).map { _ in UInt64.random(in: 0..<256, using: &generator) }
            case "slow only": (0..<5_000).map { _ in UInt64.random(in: 256..<5_000_000, using: &generator) }
            case "mixed": (0..<5_000).map { _ in UInt64.random(in: 0..<2_000, using: &generator) }
            case "mixed, mostly slow":
                (0..<5_000).map { index in index % 10 == 0 ? UInt64.random(in: 0..<256) : UInt64.random(in: 256..<1 << 30) }
            default: [0, 1, 254, 255, 256, 257, 0, 255, 256, 1 << 20]
            }
        let profile = ChainProfile(Self.traces(selfTimes: selfTimes))
        var unsettled = ChainProfile()
        for trace in Self.traces(selfTimes: selfTimes) { unsettled.add(trace) }
        let expected = Self.directly(selfTimes)
        for statistics in [profile.statistics(of: "Button")!, unsettled.statistics(of: "Button")!] {
            for percentile in Self.percentiles {
                #expect(statistics.selfTime(atPercentile: percentile) == expected.valueAtPercentile(percentile), "p\(percentile)")
            }
            #expect(statistics.maximumSelfTime == expected.max)
            #expect(statistics.seen == selfTimes.count)
            #expect(statistics.totalSelfNanoseconds == selfTimes.reduce(0, +))
        }
    }

    @Test func timesAddedAfterAReadStillCount() {
        var profile = ChainProfile()
        for trace in Self.traces(selfTimes: [10, 20, 30]) { profile.add(trace) }
        #expect(profile.statistics(of: "Button")?.selfTime(atPercentile: 100) == 30)
        for trace in Self.traces(selfTimes: [40, 5_000]) { profile.add(trace) }
        #expect(profile.statistics(of: "Button")?.selfTime(atPercentile: 50) == 30)
        #expect(profile.statistics(of: "Button")?.selfTime(atPercentile: 80) == 40)
        #expect(profile.statistics(of: "Button")?.maximumSelfTime == Self.directly([5_000]).max)
    }
}
