import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Foundation
import Testing

/// A command caught in a loop is stopped at the hop limit, and the trace names the loop. Naming it is ChainTrace's
/// work, not the handlers': no hop's time holds it — not the stopped hop's (a `Chain`'s, an `AsyncChain`'s), nor
/// that of the instrumented hop it was stopped in (or the one before it). Checked with loops of handlers whose names are long (a megabyte
/// each), so that naming the loop takes far longer than a hop: as long as a dry run of the same loop takes to throw
/// the same error, which each test measures first. Loop lengths and entries are generated.
@Suite("A loop's stop is no handler's time", .serialized)
struct LoopStopTimeTests {
    /// Names `count` handlers, each a megabyte long (distinct from their first characters).
    static func longNames(_ count: Int) -> [String] {
        (0..<count).map { "H\($0)-" + String(repeating: "x", count: 1 << 20) }
    }

    /// A chain of `names` that loops back to its first; `maximumHops` stops a command after going round once.
    static func loopingChain(_ names: [String]) throws -> Chain<Int, Int> {
        let chain = try Chain<Int, Int>("looping", handlers: names.map { Handler($0) { (_: Int) in .pass } })
        try chain.link(names[names.count - 1], to: names[0])
        chain.maximumHops = names.count
        return chain
    }

    /// How long naming the loop takes: the fastest of three dry runs, which throw the same error without running
    /// or timing any handler.
    static func namingTime(_ chain: Chain<Int, Int>, from entry: String) -> UInt64 {
        (0..<3).map { _ in
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try? chain.whoWouldHandle(0, from: entry)
            return DispatchTime.now().uptimeNanoseconds - start
        }.min()!
    }

    /// How many times each test sends the command: a hop's time is the fastest of its sends, so that a hop a
    /// loaded machine preempted once (the suite runs tests in parallel) is not taken for one charged every time.
    static let sends = 3

    /// Expects neither of the hops naming the loop could be charged to — the stopped hop, the last, and the one
    /// before it, which it ran in or followed — in `traces` (the same command's, sent ``sends`` times) to have
    /// taken a quarter of `naming`, the time naming its loop takes, in the fastest of its sends. (Not every hop: a
    /// loop of a thousand async hops grows its task's stack, which a hop here and there pays for.)
    static func expectNoHopHolds(_ naming: UInt64, in traces: [Trace], seed: UInt64) {
        #expect(traces.count == sends, "seed \(seed)")
        let count = traces.map(\.hops.count).min() ?? 0
        for position in max(0, count - 2)..<count {
            let fastest = traces.map { $0.hops[position].selfDuration }.min()!
            #expect(fastest < naming / 4, "seed \(seed): hop \(position) \(fastest) ns, naming the loop \(naming) ns")
        }
    }

    /// Expects `traces` to be an instrumented loop's, stopped at the hop limit, and no hop of them to hold `naming`.
    static func expectInstrumentedLoop(_ traces: [Trace], naming: UInt64, seed: UInt64) throws {
        let trace = try #require(traces.first)
        #expect(trace.hops.count == ChainTracing.maximumHops + 1, "seed \(seed)")
        #expect(trace.hops.last?.reason?.contains("loops (") == true, "seed \(seed)")
        expectNoHopHolds(naming, in: traces, seed: seed)
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func aChainsStoppedHopEndsWhereTheWalkStopped(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let names = Self.longNames(Int.random(in: 1...4, using: &random))
        let chain = try Self.loopingChain(names)
        let entry = random.pick(names)
        let naming = Self.namingTime(chain, from: entry)
        // Sent once first: the first traced send of a process pays for what the runtime sets up once.
        _ = captureTraces { _ = try? chain.send(1, from: entry) }
        let traces = captureTraces { for _ in 0..<Self.sends { _ = try? chain.send(1, from: entry) } }
        let trace = try #require(traces.first)
        #expect(trace.hops.count == names.count + 1, "seed \(seed)")
        guard case .failed(let handler, let error) = trace.outcome else {
            Issue.record("seed \(seed): expected a failed outcome, got \(trace.outcome)")
            return
        }
        #expect(handler == entry && error.contains("loops ("), "seed \(seed)")
        Self.expectNoHopHolds(naming, in: traces, seed: seed)
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func anAsyncChainsStoppedHopEndsWhereTheWalkStopped(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let names = Self.longNames(Int.random(in: 1...4, using: &random))
        let naming = Self.namingTime(try Self.loopingChain(names), from: names[0])
        let chain = try AsyncChain<Int, Int>(
            "looping",
            handlers: names.map { AsyncHandler($0) { (_: Int) async in .pass } }
        )
        try chain.link(names[names.count - 1], to: names[0])
        chain.maximumHops = names.count
        _ = await captureTraces { _ = try? await chain.send(1) }
        let traces = await captureTraces { for _ in 0..<Self.sends { _ = try? await chain.send(1) } }
        let trace = try #require(traces.first)
        #expect(trace.hops.count == names.count + 1 && trace.hops.last?.decision == .failed, "seed \(seed)")
        Self.expectNoHopHolds(naming, in: traces, seed: seed)
    }

    /// Instrumented handlers linked into a loop: each forwards to the next, round and round, until the hop limit
    /// (``ChainTracing/maximumHops``, 1 000) stops the command.
    static func instrumented(_ names: [String], at index: Int) -> Int? {
        traceHop(names[index % names.count], command: 1, chain: "looping") {
            instrumented(names, at: index + 1)
        }
    }

    static func instrumentedAsync(_ names: [String], at index: Int) async -> Int? {
        await traceHop(names[index % names.count], command: 1, chain: "looping") {
            await instrumentedAsync(names, at: index + 1)
        }
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func theInstrumentedHopALoopStopsInIsNotChargedForNamingIt(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let names = Self.longNames(Int.random(in: 1...4, using: &random))
        let naming = Self.namingTime(try Self.loopingChain(names), from: names[0])
        // Once with short names first: the first traced hops of a process pay for what the runtime sets up once.
        _ = captureTraces { _ = Self.instrumented(["A", "B"], at: 0) }
        let traces = captureTraces { for _ in 0..<Self.sends { _ = Self.instrumented(names, at: 0) } }
        try Self.expectInstrumentedLoop(traces, naming: naming, seed: seed)
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func theAsyncInstrumentedHopALoopStopsInIsNotChargedForNamingIt(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let names = Self.longNames(Int.random(in: 1...4, using: &random))
        let naming = Self.namingTime(try Self.loopingChain(names), from: names[0])
        _ = await captureTraces { _ = await Self.instrumentedAsync(["A", "B"], at: 0) }
        let traces = await captureTraces { for _ in 0..<Self.sends { _ = await Self.instrumentedAsync(names, at: 0) } }
        try Self.expectInstrumentedLoop(traces, naming: naming, seed: seed)
    }
}
