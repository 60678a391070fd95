import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// The assertions on traces of stages that fan out: handlers that ran at once are recorded in the order the
/// scheduler ran them, and the outcome names whichever accepting one opened last (or failing one failed first) — a
/// test that states the order the code lists them in, or any of the handlers that could have been named, must pass
/// every time, and a test that states something no run could record must still fail. Judged against the generated
/// tree itself (which of its nodes run at once), not against the trace's times.
@Suite("Assertions on traces of fan-outs")
struct FanOutExpectationTests {
    @Test(arguments: SeededGenerator.seeds(60))
    func pathsInAnyOrderARunCouldRecordPass(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let tree = ScheduledTree.random(&random, atOnce: 0.6)
        let trace = tree.run(&random)
        #expect(verifyPath(trace, tree.preorder) == nil, "seed \(seed): \(trace.path) against \(tree.preorder)")
        #expect(verifyPath(trace, tree.run(&random).path) == nil, "seed \(seed): another schedule")
        let names = trace.path
        let position = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        for _ in 0..<20 where names.count >= 2 {
            var candidate = names
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Int.random(in: 0..<(names.count - 1), using: &random)
                candidate.swapAt(at, at + 1)
            }
            // Allowed exactly when every two handlers it lists in another order than the trace run at once.
            var allowed = true
            for earlier in candidate.indices {
                for later in (earlier + 1)..<candidate.count
                where position[candidate[earlier]]! > position[candidate[later]]! {
                    if !tree.runAtOnce(candidate[earlier], candidate[later]) { allowed = false }
                }
            }
            #expect((verifyPath(trace, candidate) == nil) == allowed, "seed \(seed): \(candidate) against \(names)")
        }
        #expect(verifyPath(trace, Array(names.dropLast())) != nil, "seed \(seed): a handler short")
        #expect(verifyPath(trace, names + ["N0"]) != nil, "seed \(seed): a handler more")
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func anyAcceptorOrFailureThatRanAtOncePasses(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let tree = ScheduledTree.random(&random, atOnce: 0.6)
        let trace = tree.run(&random)
        var decisions: [String: Decision] = [:]
        tree.visit { decisions[$0.name] = $0.decision }
        for name in tree.preorder {
            let handled: Bool
            let failed: Bool
            switch trace.outcome {
            case .accepted(let acceptor):
                handled = name == acceptor || decisions[name] == .accepted && tree.runAtOnce(name, acceptor)
                failed = false
            case .failed(let failing, _):
                handled = false
                failed = name == failing || decisions[name] == .failed && tree.runAtOnce(name, failing)
            case .fellOffTheEnd:
                (handled, failed) = (false, false)
            }
            #expect((verifyHandled(trace, by: name) == nil) == handled, "seed \(seed): \(name), \(trace.outcome)")
            #expect((verifyFailed(trace, at: name) == nil) == failed, "seed \(seed): \(name), \(trace.outcome)")
            // The error must still match: the one the handler named failed with.
            if failed {
                #expect(verifyFailed(trace, at: name, error: "error in \(name)") == nil, "seed \(seed): \(name)")
                #expect(verifyFailed(trace, at: name, error: "no such error") != nil, "seed \(seed): \(name)")
            }
        }
    }

    /// Traced for real, task groups and all: the path as the tree lists it passes, run after run.
    @Test(arguments: SeededGenerator.seeds(8))
    func recordedFanOutsPassInTheTreesOrder(seed: UInt64) async {
        // Siblings started at once meet inside their hops (HandlerTree.run), so they overlap whatever the load.
        let tree = HandlerTree.random(seed: seed, chain: "fan", leafDepth: 2, atOnce: 0.8, maximumWait: .zero)
            .waiting(.milliseconds(3))
        var order: [String] = []
        tree.visit { order.append($0.name) }
        for _ in 0..<2 {
            let traces = await captureTraces { _ = await tree.run() }
            #expect(traces.count == 1, "seed \(seed)")
            if let trace = traces.first { expectPath(trace, order) }
        }
    }
}
