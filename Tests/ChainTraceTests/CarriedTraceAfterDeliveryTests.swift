import ChainTrace
import ChainTraceTestSupport
import Testing

/// A carried trace lends its hops the trace unretained, checked under its lock; once delivered, the trace object
/// goes back to the thread for its next command. Hops of a request that come after its delivery (a task that
/// outlived it) must then touch nothing: not the delivered trace, nor the next request's, which reuses the object.
@Suite("A carried trace's hops after its delivery record nothing, in it or in the next trace")
struct CarriedTraceAfterDeliveryTests {
    @Test(arguments: SeededGenerator.seeds(8))
    func lateHopsLeaveTheNextTraceAlone(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let sink = InMemoryTraceSink()
        let lateHops = Int.random(in: 1...5, using: &random)
        let nextHops = Int.random(in: 1...5, using: &random)
        ChainTracing.withRecorder(Recorder(sink: sink)) {
            guard let first = CarriedTrace.start(command: NumberedCommand(value: 1), chain: "first") else { return }
            #expect(first.open("only"))
            first.close(threw: nil)
            first.finish()
            // The next request's trace, on the same thread: the delivered trace's object, reused.
            guard let next = CarriedTrace.start(command: NumberedCommand(value: 2), chain: "next") else { return }
            for level in 0..<nextHops { #expect(next.open("next \(level)")) }
            // The first request's late hops, while the next one's are open: each is refused and closes nothing.
            for level in 0..<lateHops {
                #expect(!first.open("late \(level)"), "seed \(seed): a hop opened after its trace was delivered")
                first.close(threw: nil)
                #expect(first.closeHop(whenDone: Sentinel()) == nil)
            }
            first.finish()
            for _ in 0..<nextHops { next.close(threw: nil) }
            next.finish()
        }
        let traces = sink.traces
        try #require(traces.count == 2, "seed \(seed): \(traces.count) traces, not one a request")
        #expect(traces[0].hops.map(\.handler) == ["only"])
        #expect(traces[1].hops.map(\.handler) == (0..<nextHops).map { "next \($0)" }, "seed \(seed)")
        // Every hop of the next request closed by its own closes: passed, but the innermost, which accepted.
        #expect(traces[1].hops.map(\.decision) == Array(repeating: .passed, count: nextHops - 1) + [.accepted])
    }

    /// Stands for what a hop's handler answered with.
    final class Sentinel {}
}
