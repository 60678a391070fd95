import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A hop that fails ends when its handler threw: the text the trace records for the error is made by ChainTrace
/// afterwards, and is not the handler's time. Checked with an error whose description takes far longer than its
/// handler (a sleep), on a `Chain`, an `AsyncChain` and instrumented chains, sync and async, with generated positions
/// of the failing handler: no hop's self time holds the description's — not the failing hop's, nor, in an
/// instrumented chain, those of the hops the error went up through.
@Suite("A failing hop's time is its handler's", .serialized)
struct FailureTextTimeTests {
    /// How long making the error's text takes.
    static let describing: UInt64 = 40_000_000

    /// An error whose text takes ``describing`` to make.
    struct SlowlyDescribedError: Error, CustomStringConvertible {
        var description: String {
            var request = timespec(tv_sec: 0, tv_nsec: Int(FailureTextTimeTests.describing))
            var remaining = timespec()
            while nanosleep(&request, &remaining) != 0 { request = remaining }
            return "described slowly"
        }
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func chainHopEndsWhenItsHandlerThrew(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...5, using: &random)
        let failing = Int.random(in: 0..<count, using: &random)
        let chain = try Chain<Int, Int>(
            "failing",
            handlers: (0..<count).map { index in
                Handler("H\(index)") { (_: Int) throws -> HandlerResponse<Int, Int> in
                    if index == failing { throw SlowlyDescribedError() }
                    return .pass
                }
            }
        )
        let traces = captureTraces { _ = try? chain.send(1) }
        let trace = try #require(traces.first)
        let hop = try #require(trace.hops.last)
        #expect(hop.handler == "H\(failing)" && hop.decision == .failed, "seed \(seed)")
        #expect(hop.reason == "described slowly (SlowlyDescribedError)", "seed \(seed)")
        #expect(hop.selfDuration < Self.describing, "seed \(seed): \(hop.selfDuration) ns")
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func asyncChainHopEndsWhenItsHandlerThrew(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...5, using: &random)
        let failing = Int.random(in: 0..<count, using: &random)
        let chain = try AsyncChain<Int, Int>(
            "failing",
            handlers: (0..<count).map { index in
                AsyncHandler("H\(index)") { (_: Int) async throws -> HandlerResponse<Int, Int> in
                    if index == failing { throw SlowlyDescribedError() }
                    return .pass
                }
            }
        )
        let traces = await captureTraces { _ = try? await chain.send(1) }
        let hop = try #require(traces.first?.hops.last)
        #expect(hop.handler == "H\(failing)" && hop.decision == .failed, "seed \(seed)")
        #expect(hop.selfDuration < Self.describing, "seed \(seed): \(hop.selfDuration) ns")
    }

    /// An instrumented handler that throws, inside `depth` handlers that forward to it.
    static func instrumented(_ depth: Int, at index: Int = 0) throws -> Int {
        try traceHop("I\(index)", command: index, chain: "instrumented") {
            guard index < depth else { throw SlowlyDescribedError() }
            return try instrumented(depth, at: index + 1)
        }
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func instrumentedHopEndsWhenItsHandlerThrew(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let depth = Int.random(in: 0...4, using: &random)
        let traces = captureTraces { _ = try? Self.instrumented(depth) }
        let trace = try #require(traces.first)
        for hop in trace.hops {
            #expect(hop.selfDuration < Self.describing, "seed \(seed): \(hop.handler) \(hop.selfDuration) ns")
        }
        #expect(trace.hops.last?.decision == .failed, "seed \(seed)")
    }

    /// ``instrumented(_:at:)``, async. Nothing in it suspends: a hop's time is wall time, and a suspension could
    /// wait for a thread as long as the description takes.
    static func instrumentedAsync(_ depth: Int, at index: Int = 0) async throws -> Int {
        try await traceHop("A\(index)", command: index, chain: "instrumented") {
            guard index < depth else { throw SlowlyDescribedError() }
            return try await instrumentedAsync(depth, at: index + 1)
        }
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func asyncInstrumentedHopEndsWhenItsHandlerThrew(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let depth = Int.random(in: 0...4, using: &random)
        let traces = await captureTraces { _ = try? await Self.instrumentedAsync(depth) }
        let trace = try #require(traces.first)
        #expect(trace.hops.count == depth + 1, "seed \(seed)")
        for hop in trace.hops {
            #expect(hop.selfDuration < Self.describing, "seed \(seed): \(hop.handler) \(hop.selfDuration) ns")
        }
        #expect(
            trace.outcome == .failed(at: "A\(depth)", error: "described slowly (SlowlyDescribedError)"),
            "seed \(seed)"
        )
    }
}
