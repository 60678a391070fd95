import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

/// The recorder's promises under generated loads on threads of their own: the filter sees every command and
/// runs first; sampling one in n traces exactly the first and every n-th admitted command per thread; a sink
/// with a limit keeps exactly the newest `limit` of what an unlimited sink beside it got, and counts the rest as
/// dropped.
@Suite("Recording under generated loads", .tags(.concurrent))
struct RecordingPropertyTests {
    @Test(arguments: SeededGenerator.seeds(12))
    func filterSamplingAndTheRingKeepTheirPromises(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let threads = Int.random(in: 1...4, using: &random)
        let perThread = Int.random(in: 1...300, using: &random)
        let interval = Int.random(in: 1...7, using: &random)
        let limit = Int.random(in: 1...200, using: &random)
        let divisor = Int.random(in: 1...3, using: &random)
        let everything = InMemoryTraceSink()
        let ring = InMemoryTraceSink(limit: limit)
        let chain = try Chain<Int, Int>("recorded-\(seed)", handlers: [Handler("Any") { .accept($0) }])
        chain.recorder = Recorder(
            sink: FanOutTraceSink([everything, ring]),
            sampling: .oneIn(interval),
            payloads: .captured,
            filter: { (number: Int) in number % divisor == 0 }
        )

        let group = DispatchGroup()
        for thread in 0..<threads {
            group.enter()
            let worker = Thread {
                for index in 0..<perThread { _ = try? chain.send(thread * 100_000 + index) }
                group.leave()
            }
            worker.start()
        }
        group.wait()

        // Per thread: the admitted commands are those the filter passes; sampling takes the first and every n-th.
        func admitted(_ thread: Int) -> [Int] { (0..<perThread).filter { (thread * 100_000 + $0) % divisor == 0 } }
        let traced = (0..<threads).map { (admitted($0).count + interval - 1) / interval }.reduce(0, +)
        let all = everything.traces
        #expect(all.count == traced, "seed \(seed): \(all.count) traced")
        for thread in 0..<threads {
            let mine = all.compactMap { trace -> Int? in
                guard case .integer(let value)? = trace.payload, Int(value) / 100_000 == thread else { return nil }
                return Int(value) % 100_000
            }.sorted()
            let sampled = admitted(thread).enumerated().filter { $0.offset % interval == 0 }.map(\.element)
            #expect(mine == sampled, "seed \(seed), thread \(thread)")
        }
        // The ring: the newest `limit` of them, the rest counted as dropped.
        let newest = all.suffix(limit)
        #expect(
            ring.traces.map(\.id) == newest.map(\.id),
            "seed \(seed): ring kept \(ring.traces.count) of \(all.count), limit \(limit)"
        )
        #expect(ring.droppedCount == max(0, all.count - limit), "seed \(seed)")
        ring.removeAll()
        #expect(ring.traces.isEmpty && ring.droppedCount == 0, "seed \(seed)")
    }
}
