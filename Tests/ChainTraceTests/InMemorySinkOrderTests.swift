import ChainTrace
import ChainTraceTestSupport
import Dispatch
import Testing

/// An in-memory sink fed from several threads at once keeps every trace once and gives them back in start-time
/// order (ties by id); with a limit it keeps that many and counts the rest as dropped.
@Suite("In-memory sink under several threads", .tags(.concurrent))
struct InMemorySinkOrderTests {
    @Test(arguments: SeededGenerator.seeds(12))
    func tracesComeBackOnceInStartOrder(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let threads = Int.random(in: 2...6, using: &random)
        let perThread = Int.random(in: 1...300, using: &random)
        let starts = (0..<(threads * perThread)).map { _ in Int64.random(in: -1_000...1_000, using: &random) }
        let limit: Int? = random.chance(0.5) ? Int.random(in: 1...(threads * perThread), using: &random) : nil
        let sink = InMemoryTraceSink(limit: limit)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                let id = thread * perThread + index
                sink.record(
                    Trace(
                        id: UInt64(id),
                        commandKind: "K",
                        entry: "A",
                        chain: "c",
                        startTime: starts[id],
                        hops: [],
                        outcome: .fellOffTheEnd,
                        duration: 0
                    )
                )
            }
        }
        let traces = sink.traces
        let keys = traces.map { ($0.startTime, $0.id) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 }, "seed \(seed): out of order")
        #expect(Set(traces.map(\.id)).count == traces.count, "seed \(seed): a trace twice")
        if let limit {
            #expect(traces.count == min(limit, threads * perThread), "seed \(seed)")
            #expect(sink.droppedCount == threads * perThread - traces.count, "seed \(seed)")
        } else {
            #expect(traces.count == threads * perThread, "seed \(seed)")
            // Without a limit, exactly every trace, sorted.
            let all = (0..<(threads * perThread)).map { (starts[$0], UInt64($0)) }.sorted { $0 < $1 }
            #expect(keys.elementsEqual(all, by: { $0 == $1 }), "seed \(seed)")
        }
    }
}
