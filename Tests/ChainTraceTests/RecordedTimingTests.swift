import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// The times real sends record hang together, whatever the handlers do: on a `Chain` hops follow one another —
/// each starts where the one before ended, self time is inclusive time, and the trace's duration is their sum;
/// in an instrumented chain hops nest — each one's inclusive time holds the next one's, and its self time is the
/// difference. Checked on generated chains whose handlers do generated amounts of work.
@Suite("Recorded times are consistent")
struct RecordedTimingTests {
    /// Work the compiler cannot remove.
    static func work(_ rounds: Int) -> Int {
        var value = rounds
        for index in 0..<rounds { value = value &* 31 &+ index }
        return value
    }

    /// An instrumented handler that does `rounds` of work, then forwards to `next` unless it takes the command.
    final class Stage: Sendable {
        let name: String
        let rounds: Int
        let takes: Int
        let next: Stage?

        init(name: String, rounds: Int, takes: Int, next: Stage?) {
            self.name = name
            self.rounds = rounds
            self.takes = takes
            self.next = next
        }

        func handle(_ value: Int) -> Int? {
            traceHop(name, command: value, chain: "timed") {
                _ = RecordedTimingTests.work(rounds)
                return value % takes == 0 ? RecordedTimingTests.work(rounds) : next?.handle(value)
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func chainHopsFollowOneAnotherAndAddUp(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let rounds = (0..<Int.random(in: 1...6, using: &random)).map { _ in Int.random(in: 0...20_000, using: &random) }
        let chain = try Chain<Int, Int>(
            "timed",
            handlers: rounds.enumerated().map { index, work in
                Handler("H\(index)") { value in
                    _ = Self.work(work)
                    return value % (index + 2) == 0 ? .accept(value) : .pass
                }
            }
        )
        let traces = captureTraces { for value in 0..<30 { _ = try? chain.send(value) } }
        for trace in traces {
            var expectedStart: UInt64 = 0
            for hop in trace.hops {
                // Ticks become nanoseconds once per boundary: allow a nanosecond of rounding per hop.
                #expect(
                    hop.startOffset + 1 >= expectedStart && hop.startOffset <= expectedStart + 1,
                    "seed \(seed): \(hop.handler) starts at \(hop.startOffset), expected \(expectedStart)"
                )
                #expect(hop.selfDuration == hop.inclusiveDuration, "seed \(seed): \(hop.handler)")
                expectedStart = hop.startOffset + hop.inclusiveDuration
            }
            let total = trace.hops.reduce(0) { $0 + $1.selfDuration }
            #expect(
                trace.duration + UInt64(trace.hops.count) >= total
                    && trace.duration <= total + UInt64(trace.hops.count),
                "seed \(seed): duration \(trace.duration), hops \(total)"
            )
        }
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func instrumentedHopsNestAndSelfTimeIsWhatIsLeft(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var next: Stage?
        for index in (0..<Int.random(in: 1...6, using: &random)).reversed() {
            next = Stage(
                name: "S\(index)",
                rounds: Int.random(in: 0...20_000, using: &random),
                takes: Int.random(in: 2...7, using: &random),
                next: next
            )
        }
        let head = next!
        let traces = captureTraces { for value in 0..<30 { _ = head.handle(value) } }
        #expect(traces.count == 30, "seed \(seed)")
        for trace in traces {
            for (outer, inner) in zip(trace.hops, trace.hops.dropFirst()) {
                // The inner hop runs inside the outer one.
                #expect(inner.startOffset >= outer.startOffset, "seed \(seed)")
                #expect(
                    inner.startOffset + inner.inclusiveDuration <= outer.startOffset + outer.inclusiveDuration + 1,
                    "seed \(seed): \(inner.handler) ends after \(outer.handler)"
                )
                // Self time is inclusive time less the hop nested in it (and only it: the next nests in that one).
                let left = outer.inclusiveDuration - min(outer.inclusiveDuration, inner.inclusiveDuration)
                #expect(
                    outer.selfDuration + 2 >= left && outer.selfDuration <= left + 2,
                    "seed \(seed): \(outer.handler) self \(outer.selfDuration), left \(left)"
                )
            }
            if let last = trace.hops.last { #expect(last.selfDuration <= last.inclusiveDuration, "seed \(seed)") }
            if let first = trace.hops.first { #expect(trace.duration + 2 >= first.inclusiveDuration, "seed \(seed)") }
        }
    }
}
