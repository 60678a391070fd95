import ChainTrace
import ChainTraceAnalysis
import ChainTraceGraphviz
import ChainTraceTestSupport
import Testing

/// The structure a log alone shows (`ChainGraph(profile:)`), from generated traces: every handler a hop visited,
/// in chain order (`ChainOrderModel`); every step between consecutive hops a
/// link, and no other; every first hop an entry; and nothing marked as missing from a definition.
@Suite("Structure inferred from a log")
struct InferredGraphTests {
    @Test(arguments: SeededGenerator.seeds(50))
    func theInferredGraphHoldsExactlyWhatTheTracesShow(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let names = (0..<Int.random(in: 2...8, using: &random)).map { "H\($0)" }
        let traces = (0..<Int.random(in: 1...20, using: &random)).map { id -> Trace in
            let start = Int.random(in: 0..<names.count, using: &random)
            let path = Array(names[start...].prefix(Int.random(in: 1...(names.count - start), using: &random)))
            let hops = path.enumerated().map { position, name in
                Hop(
                    handler: name,
                    position: position,
                    decision: position == path.count - 1 ? .accepted : .passed,
                    inclusiveDuration: 1,
                    selfDuration: 1
                )
            }
            return Trace(
                id: UInt64(id),
                commandKind: "K",
                entry: path[0],
                chain: "inferred",
                hops: hops,
                outcome: .accepted(by: path.last!),
                duration: UInt64(hops.count)
            )
        }
        let graph = ChainGraph(profile: ChainProfile(traces))
        let inChainOrder = ChainOrderModel.order(paths: traces.map(\.path))
        #expect(
            graph.handlers.map(\.name) == inChainOrder,
            "seed \(seed): \(graph.handlers.map(\.name)) vs \(inChainOrder)"
        )
        #expect(
            !graph.handlers.contains(where: \.isObservedOnly) && !graph.links.contains(where: \.isObservedOnly),
            "seed \(seed)"
        )
        let steps = Set(traces.flatMap { trace in zip(trace.path, trace.path.dropFirst()).map { [$0, $1] } })
        #expect(Set(graph.links.map { [$0.from, $0.to] }) == steps && graph.links.count == steps.count, "seed \(seed)")
        #expect(Set(graph.entries) == Set(traces.map { $0.path[0] }), "seed \(seed)")
        #expect(graph.name == "inferred", "seed \(seed)")
    }
}
