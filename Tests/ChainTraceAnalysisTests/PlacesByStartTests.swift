import ChainTrace
import ChainTraceAnalysis
import ChainTraceTestSupport
import Testing

/// Commands without ids, sent one after the other, recorded in a log written out of the order they were sent (as a
/// trace log is, from each thread's buffer): with places by start, each pairs with itself in the other run and
/// only the changed ones diverge; commands that ran at once are counted as uncertain, exactly those.
@Suite("Places by start")
struct PlacesByStartTests {
    /// A command's trip: which handler accepted it (A, B or C, through the path to it).
    static func trace(start: Int64, duration: UInt64, acceptor: String) -> Trace {
        let path = Array(["A", "B", "C"].prefix { $0 != acceptor }) + [acceptor]
        let hops = path.enumerated().map { position, name in
            Hop(
                handler: name,
                position: position,
                decision: position == path.count - 1 ? .accepted : .passed,
                startOffset: UInt64(position),
                inclusiveDuration: 1,
                selfDuration: 1
            )
        }
        return Trace(
            id: 0,
            commandKind: "K",
            entry: "A",
            chain: "c",
            startTime: start,
            hops: hops,
            outcome: .accepted(by: acceptor),
            duration: duration
        )
    }

    /// `items` moved out of order by at most `reach` places each: sorted by their index plus a random offset, as
    /// buffers drained now and then leave them.
    static func jumbled<T>(_ items: [T], reach: Int, _ random: inout SeededGenerator) -> [T] {
        items.enumerated().map { ($0.offset + Int.random(in: 0...reach, using: &random), $0.offset, $0.element) }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    /// The runs matched as logs read side by side give them; each trace on line index + 2.
    static func matched(_ first: [Trace], _ second: [Trace], byStart: Bool) -> TraceMatcher {
        TraceMatcherPropertyTests.matched(first, second, placesByStart: byStart)
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func sentInTurnPairWithThemselves(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...300, using: &random)
        // Each command starts after the one before it ended, in both runs (the second run slower or faster).
        var clocks: (Int64, Int64) = (1_000, 5_000_000)
        var changed: Set<Int> = []
        var first: [Trace] = []
        var second: [Trace] = []
        for index in 0..<count {
            let acceptor = random.pick(["A", "B", "C"])
            let other = random.chance(0.2) ? random.pick(["A", "B", "C"].filter { $0 != acceptor }) : acceptor
            if other != acceptor { changed.insert(index + 1) }
            let durations = (UInt64.random(in: 1...500, using: &random), UInt64.random(in: 1...500, using: &random))
            first.append(Self.trace(start: clocks.0, duration: durations.0, acceptor: acceptor))
            second.append(Self.trace(start: clocks.1, duration: durations.1, acceptor: other))
            clocks.0 += Int64(durations.0) + Int64.random(in: 0...50, using: &random)
            clocks.1 += Int64(durations.1) + Int64.random(in: 0...50, using: &random)
        }
        let reach = Int.random(in: 0...40, using: &random)
        let (left, right) = (Self.jumbled(first, reach: reach, &random), Self.jumbled(second, reach: reach, &random))

        let matcher = Self.matched(left, right, byStart: true)
        #expect(
            Set(matcher.divergences.map(\.command)) == Set(changed.map { "#\($0)" }),
            "seed \(seed), reach \(reach)"
        )
        #expect(matcher.compared == count && matcher.uncertainPlaces == 0, "seed \(seed)")
        // Each divergence names the lines its traces were read from.
        for divergence in matcher.divergences {
            let place = Int(divergence.command.dropFirst())!
            #expect(divergence.expected?.line.map { left[$0 - 2] } == first[place - 1], "seed \(seed)")
            #expect(divergence.actual?.line.map { right[$0 - 2] } == second[place - 1], "seed \(seed)")
        }
        // Placed as they came, the jumbled runs pair wrongly, and say their places are uncertain.
        let asTheyCame = Self.matched(left, right, byStart: false)
        if reach > 0, left.map(\.startTime) != first.map(\.startTime) {
            #expect(asTheyCame.uncertainPlaces > 0, "seed \(seed)")
        }
        // In order, both ways agree.
        let inOrder = (Self.matched(first, second, byStart: true), Self.matched(first, second, byStart: false))
        #expect(inOrder.0.divergences == inOrder.1.divergences && inOrder.1.uncertainPlaces == 0, "seed \(seed)")
    }

    /// Commands that ran at once are the uncertain ones: each that started before the one before it (in start
    /// order) had ended.
    @Test(arguments: SeededGenerator.seeds(40))
    func commandsAtOnceAreCounted(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var clock: Int64 = 0
        var traces: [Trace] = []
        for _ in 0..<Int.random(in: 1...200, using: &random) {
            // Now and then the next command starts before this one ends.
            let duration = UInt64.random(in: 10...100, using: &random)
            traces.append(Self.trace(start: clock, duration: duration, acceptor: "A"))
            clock += random.chance(0.3) ? Int64.random(in: 0..<Int64(duration), using: &random) : Int64(duration) + 1
        }
        var expected = 0
        var latestEnd = Int64.min
        for trace in traces {
            if trace.startTime < latestEnd { expected += 1 }
            latestEnd = max(latestEnd, trace.startTime + Int64(trace.duration))
        }
        let jumbled = Self.jumbled(traces, reach: Int.random(in: 0...30, using: &random), &random)
        let matcher = Self.matched(jumbled, Self.jumbled(traces, reach: 5, &random), byStart: true)
        #expect(matcher.uncertainPlaces == 2 * expected, "seed \(seed)")
    }

    /// Traces more than ``TraceMatcher/placeWindow`` late cannot be put back in order: each is counted as uncertain.
    @Test func tracesPastTheWindowAreCounted() {
        var random = SeededGenerator(seed: 11)
        let count = TraceMatcher.placeWindow + 1_000
        let traces = (0..<count).map { Self.trace(start: Int64($0) * 10, duration: 5, acceptor: "A") }
        var late = traces
        let moved = Set((0..<3).map { _ in Int.random(in: 0..<500, using: &random) })
        for index in moved.sorted(by: >) { late.append(late.remove(at: index)) }
        let matcher = Self.matched(late, traces, byStart: true)
        #expect(matcher.uncertainPlaces == moved.count)
        #expect(matcher.compared == count && matcher.total == 0)
    }
}
