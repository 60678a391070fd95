import ChainTrace
import ChainTraceFastPath
import ChainTraceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An in-memory ring of the last N traces in an app whose threads come and go (Dispatch's workers, a thread per
/// job): generated waves of threads, each recording a generated number of traces (in the order they started) and
/// exiting, several at once.
/// The sink holds the newest `limit` — what sorting every trace recorded and keeping the last `limit` gives — and
/// counts the rest as dropped; and once the threads have exited it holds no more than `limit` traces, where it
/// kept `limit` for every thread that had ever recorded (400 threads of 2 000 traces into a 1 000-trace ring: 181 MB
/// before, 20 MB after). Readers running while threads exit never see a trace twice.
@Suite("An in-memory ring while threads come and go", .tags(.concurrent))
struct InMemorySinkThreadChurnTests {
    static func trace(id: UInt64, start: Int64) -> Trace {
        Trace(
            id: id,
            commandKind: "K",
            entry: "A",
            chain: "c",
            startTime: start,
            hops: [Hop(handler: "A", position: 0, decision: .accepted, inclusiveDuration: 1, selfDuration: 1)],
            outcome: .accepted(by: "A"),
            duration: 1
        )
    }

    /// Runs `body` on a new thread and waits until the thread has exited (its thread-local state released).
    static func onThreads(_ bodies: [@Sendable () -> Void]) {
        final class Box: @unchecked Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var threads: [pthread_t] = []
        for body in bodies {
            let box = Unmanaged.passRetained(Box(body)).toOpaque()
            #if canImport(Glibc)
                var thread = pthread_t()
            #else
                var thread: pthread_t? = nil
            #endif
            let created = pthread_create(
                &thread,
                nil,
                { argument in
                    let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
                    box.body()
                    return nil
                },
                box
            )
            precondition(created == 0)
            #if canImport(Glibc)
                threads.append(thread)
            #else
                threads.append(thread!)
            #endif
        }
        for thread in threads { pthread_join(thread, nil) }
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func theRingKeepsTheNewestAndNoMoreWhateverThreadsCameAndWent(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let limit = Int.random(in: 1...50, using: &random)
        let sink = InMemoryTraceSink(limit: limit)
        var all: [(start: Int64, id: UInt64)] = []
        var nextID: UInt64 = 1
        let reading = LockedValue(true)
        let duplicates = LockedValue(0)
        // A reader while the waves run: every read holds distinct traces, at most `limit`.
        let reader = Thread {
            while reading.withLock({ $0 }) {
                let traces = sink.traces
                if Set(traces.map(\.id)).count != traces.count || traces.count > limit {
                    duplicates.withLock { $0 += 1 }
                }
            }
        }
        reader.start()
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            var bodies: [@Sendable () -> Void] = []
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                // A thread records its commands in the order they started, at times from a few coarse ticks: ties,
                // broken by id, and threads whose commands interleave in time.
                let starts = (0..<Int.random(in: 0...120, using: &random)).map { _ in
                    Int64.random(in: 0...40, using: &random)
                }.sorted()
                let traces = starts.map { start -> Trace in
                    defer { nextID += 1 }
                    return Self.trace(id: nextID, start: start)
                }
                all += traces.map { ($0.startTime, $0.id) }
                bodies.append { for trace in traces { sink.record(trace) } }
            }
            Self.onThreads(bodies)
        }
        reading.withLock { $0 = false }
        let expected = all.sorted { ($0.start, $0.id) < ($1.start, $1.id) }.suffix(limit).map(\.id)
        #expect(sink.traces.map(\.id) == Array(expected), "seed \(seed), limit \(limit)")
        #expect(sink.droppedCount == all.count - min(all.count, limit), "seed \(seed)")
        #expect(sink.heldCount == min(all.count, limit), "seed \(seed): holds \(sink.heldCount)")
        #expect(duplicates.withLock { $0 } == 0, "seed \(seed): a read saw a trace twice")
        sink.removeAll()
        #expect(sink.traces.isEmpty && sink.heldCount == 0, "seed \(seed)")
    }
}
