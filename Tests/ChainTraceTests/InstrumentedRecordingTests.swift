import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// Instrumented chains, sync and async, under every recorder setting, generated: the filter sees each command
/// before anything is traced and leaves the others untraced (and unchanged); sampling decides once per command —
/// the first and every n-th of the thread — so a command is traced whole or not at all, never from a nested hop;
/// payloads are there only when asked for; and `ChainTracing.decide` in a body sets that hop's decision and reason
/// whatever would have been inferred.
@Suite("Instrumented chains under generated recorders")
struct InstrumentedRecordingTests {
    struct Order: Codable, Sendable {
        var number: Int
        var express: Bool
    }

    /// Two instrumented handlers: Express takes express orders, Standard takes the rest; a decide rule may
    /// override Express's decision for orders divisible by `overrideEvery`.
    static func handle(_ order: Order, chain: String, overrideEvery: Int?) -> String? {
        traceHop("Express", command: order, chain: chain) {
            if let every = overrideEvery, order.number % every == 0 {
                ChainTracing.decide(.continued, reason: "audited")
            }
            if order.express { return "express" }
            return traceHop("Standard", command: order, chain: chain) { "standard" }
        }
    }

    /// The same two handlers, async.
    static func handle(_ order: Order, chain: String, overrideEvery: Int?) async -> String? {
        await traceHop("Express", command: order, chain: chain) {
            await Task.yield()
            if let every = overrideEvery, order.number % every == 0 {
                ChainTracing.decide(.continued, reason: "audited")
            }
            if order.express { return "express" }
            return await traceHop("Standard", command: order, chain: chain) { () async -> String? in "standard" }
        }
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func filterSamplingPayloadsAndDecideDoWhatTheySay(seed: UInt64) async {
        var random = SeededGenerator(seed: seed)
        let interval = Int.random(in: 1...5, using: &random)
        let divisor = Int.random(in: 1...4, using: &random)
        let payloads = random.chance(0.5)
        let overrideEvery: Int? = random.chance(0.5) ? Int.random(in: 2...5, using: &random) : nil
        let orders = (0..<Int.random(in: 1...60, using: &random)).map { Order(number: $0, express: random.chance(0.4)) }
        let sink = InMemoryTraceSink()
        let recorder = Recorder(
            sink: sink,
            sampling: .oneIn(interval),
            payloads: payloads ? .captured : .none,
            filter: { (order: Order) in order.number % divisor == 0 }
        )
        let isAsync = random.chance(0.5)
        var results: [String?] = []
        if isAsync {
            results = await ChainTracing.withRecorder(recorder) {
                var results: [String?] = []
                for order in orders {
                    results.append(await Self.handle(order, chain: "orders-\(seed)", overrideEvery: overrideEvery))
                }
                return results
            }
        } else {
            ChainTracing.withRecorder(recorder) {
                for order in orders {
                    results.append(Self.handle(order, chain: "orders-\(seed)", overrideEvery: overrideEvery))
                }
            }
        }
        // Recording never changes what the chain does.
        #expect(results == orders.map { $0.express ? "express" : "standard" }, "seed \(seed)")

        let admitted = orders.filter { $0.number % divisor == 0 }
        let traces = sink.traces
        // Which commands are traced: on one thread exactly the first and every n-th admitted one. An async chain's
        // task moves between threads, each counting on its own: at least that many, each admitted, none twice.
        let traced: [Order]
        if isAsync {
            #expect(
                traces.count >= (admitted.count + interval - 1) / interval && traces.count <= admitted.count,
                "seed \(seed): \(traces.count) traced"
            )
            guard payloads else {
                #expect(
                    traces.allSatisfy { $0.hops.first?.handler == "Express" },
                    "seed \(seed): a trace started mid-chain"
                )
                return
            }
            let byNumber = Dictionary(uniqueKeysWithValues: admitted.map { ($0.number, $0) })
            traced = traces.compactMap { trace in
                guard case .integer(let number)? = trace.payload?["number"] else { return nil }
                return byNumber[Int(number)]
            }
            #expect(
                traced.count == traces.count && Set(traced.map(\.number)).count == traced.count,
                "seed \(seed): a trace of a filtered or twice-traced command"
            )
        } else {
            traced = admitted.enumerated().filter { $0.offset % interval == 0 }.map(\.element)
            #expect(traces.count == traced.count, "seed \(seed): \(traces.count) of \(traced.count)")
        }
        for (trace, order) in zip(traces, traced) {
            #expect((trace.payload != nil) == payloads, "seed \(seed)")
            if payloads { #expect(trace.payload?["number"] == .integer(Int64(order.number)), "seed \(seed)") }
            let express = trace.hops.first
            let overridden = overrideEvery.map { order.number % $0 == 0 } ?? false
            if overridden {
                #expect(
                    express?.decision == .continued && express?.reason == "audited",
                    "seed \(seed): order \(order.number)"
                )
            } else {
                #expect(
                    express?.decision == (order.express ? .accepted : .passed),
                    "seed \(seed): order \(order.number)"
                )
            }
            #expect(trace.path == (order.express ? ["Express"] : ["Express", "Standard"]), "seed \(seed)")
        }
    }
}
