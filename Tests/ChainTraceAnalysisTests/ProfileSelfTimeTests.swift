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
                id: UInt64(index),
                commandKind: "Tap",
                entry: "Button",
                chain: "responders",
                hops: [
                    Hop(
                        handler: "Button",
                        position: 0,
                        decision: .passed,
                        inclusiveDuration: nanoseconds,
                        selfDuration: nanoseconds
                    )
                ],
                outcome: .fellOffTheEnd,
                duration: nanoseconds
            )
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
                (0..<5_000).map { index in
                    index % 10 == 0 ? UInt64.random(in: 0..<256) : UInt64.random(in: 256..<1 << 30)
                }
            default: [0, 1, 254, 255, 256, 257, 0, 255, 256, 1 << 20]
            }
        let profile = ChainProfile(Self.traces(selfTimes: selfTimes))
        var unsettled = ChainProfile()
        for trace in Self.traces(selfTimes: selfTimes) { unsettled.add(trace) }
        let expected = Self.directly(selfTimes)
        for statistics in [profile.statistics(of: "Button")!, unsettled.statistics(of: "Button")!] {
            for percentile in Self.percentiles {
                // The histogram's bucket value, never above the longest time seen.
                #expect(
                    statistics.selfTime(atPercentile: percentile)
                        == min(expected.valueAtPercentile(percentile), selfTimes.max()!),
                    "p\(percentile)"
                )
            }
            #expect(statistics.maximumSelfTime == selfTimes.max()!)
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
        #expect(profile.statistics(of: "Button")?.maximumSelfTime == 5_000)
    }

    /// A profile is a value: a copy keeps its counts, self times and links while the original goes on, and
    /// the other way round — though both share their counters until one of them adds.
    @Test func aCopyKeepsItsOwnCountsWhileTheOriginalGoesOn() {
        // Forty handlers in a line, so the counters grow past their first capacity.
        let names = (0..<40).map { "H\($0)" }
        func trace(length: Int, selfTime: UInt64) -> Trace {
            Trace(
                id: 1,
                commandKind: "Tap",
                entry: names[0],
                chain: "line",
                hops: (0..<length).map {
                    Hop(
                        handler: names[$0],
                        position: $0,
                        decision: $0 == length - 1 ? .accepted : .passed,
                        inclusiveDuration: selfTime,
                        selfDuration: selfTime
                    )
                },
                outcome: .accepted(by: names[length - 1]),
                duration: selfTime
            )
        }
        var original = ChainProfile()
        original.add(trace(length: 3, selfTime: 10))
        let copy = original
        original.add(trace(length: 40, selfTime: 20))
        original.add(trace(length: 40, selfTime: 9_000))
        var secondCopy = original
        secondCopy.add(trace(length: 2, selfTime: 30))

        #expect(copy.handlers.map(\.handler) == ["H0", "H1", "H2"])
        #expect(copy.handlers.map(\.seen) == [1, 1, 1])
        #expect(copy.statistics(of: "H0")?.selfTime(atPercentile: 100) == 10)
        #expect(
            copy.edges == [
                ChainProfile.Edge(from: nil, to: "H0"): 1, ChainProfile.Edge(from: "H0", to: "H1"): 1,
                ChainProfile.Edge(from: "H1", to: "H2"): 1,
            ]
        )
        #expect(original.handlers.count == 40)
        #expect(original.statistics(of: "H0")?.seen == 3)
        #expect(original.statistics(of: "H39")?.accepted == 2)
        #expect(original.statistics(of: "H39")?.maximumSelfTime == 9_000)
        #expect(original.statistics(of: "H2")?.accepted == 1)
        #expect(original.statistics(of: "H2")?.passed == 2)
        #expect(original.edges[ChainProfile.Edge(from: "H0", to: "H1")] == 3)
        #expect(original.edges[ChainProfile.Edge(from: "H38", to: "H39")] == 2)
        #expect(original.totalSelfNanoseconds == 3 * 10 + 40 * 20 + 40 * 9_000)
        #expect(secondCopy.statistics(of: "H0")?.seen == 4)
        #expect(secondCopy.statistics(of: "H1")?.accepted == 1)
        #expect(secondCopy.statistics(of: "H1")?.selfTime(atPercentile: 0) == 10)
        #expect(
            secondCopy.statistics(of: "H0")?.selfTime(atPercentile: 100)
                == Self.directly([9_000]).valueAtPercentile(100)
        )
        #expect(original.statistics(of: "H1")?.accepted == 0)
    }
}
