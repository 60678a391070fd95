import ChainTrace
import ChainTraceTestSupport
import Testing

/// `ChainTracing.withRecorder` scopes nested to generated depths, with commands sent at every level through a
/// chain and instrumented handlers: each trace goes to the innermost scope open when its command started — never to an outer or an
/// already closed one — and a chain's own recorder always wins over any scope.
@Suite("Nested recorder scopes")
struct ScopedRecorderNestingTests {
    static func instrumented(_ value: Int, chain: String) -> Int? {
        traceHop("Only", command: value, chain: chain) { value }
    }

    /// Sends `plan[depth]` commands at each depth, opening the next scope in between; returns the sinks by depth.
    static func run(
        _ plan: [Int],
        depth: Int = 0,
        chain: Chain<Int, Int>,
        owned: Chain<Int, Int>,
        name: String,
        sinks: inout [InMemoryTraceSink]
    ) {
        let sink = InMemoryTraceSink()
        sinks.append(sink)
        ChainTracing.withRecorder(Recorder(sink: sink, payloads: .captured)) {
            for index in 0..<plan[depth] {
                _ = try? chain.send(depth * 1_000 + index)
                _ = Self.instrumented(depth * 1_000 + index, chain: name)
                _ = try? owned.send(depth * 1_000 + index)
            }
            if depth + 1 < plan.count {
                run(plan, depth: depth + 1, chain: chain, owned: owned, name: name, sinks: &sinks)
                // Back in this scope after the inner one closed.
                _ = try? chain.send(depth * 1_000 + 999)
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func eachTraceGoesToTheInnermostScopeOpenWhenItStarted(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let plan = (0..<Int.random(in: 1...5, using: &random)).map { _ in Int.random(in: 0...4, using: &random) }
        let chain = try Chain<Int, Int>("scoped-\(seed)", handlers: [Handler("Only") { .accept($0) }])
        let ownSink = InMemoryTraceSink()
        let owned = try Chain<Int, Int>(
            "owned-\(seed)",
            handlers: [Handler("Only") { .accept($0) }],
            recorder: Recorder(sink: ownSink, payloads: .captured)
        )
        var sinks: [InMemoryTraceSink] = []
        Self.run(plan, chain: chain, owned: owned, name: "instrumented-\(seed)", sinks: &sinks)
        for (depth, sink) in sinks.enumerated() {
            let values = sink.traces.compactMap { trace -> Int? in
                guard case .integer(let value)? = trace.payload else { return nil }
                return Int(value)
            }
            // Every command sent at this depth, twice (the chain and the instrumented handlers), and the one sent
            // after the inner scope closed; nothing from any other depth, nothing of the chain with its own recorder.
            let expected =
                (0..<plan[depth]).map { depth * 1_000 + $0 } + (depth + 1 < plan.count ? [depth * 1_000 + 999] : [])
            #expect(
                values.sorted() == (expected + (0..<plan[depth]).map { depth * 1_000 + $0 }).sorted(),
                "seed \(seed), depth \(depth): \(values)"
            )
            #expect(!sink.traces.contains { $0.chain == "owned-\(seed)" }, "seed \(seed), depth \(depth)")
        }
        #expect(
            ownSink.traces.count == plan.reduce(0, +),
            "seed \(seed): the chain's own recorder got \(ownSink.traces.count)"
        )
    }
}
