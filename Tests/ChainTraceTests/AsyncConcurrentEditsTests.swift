import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

/// Async chains edited while many tasks send through them — members registered and deregistered, handlers
/// inserted and removed — with handlers that suspend mid-walk: every trace took exactly the path of the version it
/// records (a command in flight finishes on the version it started with).
@Suite("Async sending while the chain is edited", .tags(.concurrent))
struct AsyncConcurrentEditsTests {
    static func passer(_ name: String) -> AsyncHandler<Int, Int> {
        AsyncHandler(name) { _ in
            await Task.yield()
            return .pass
        }
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func everyTraceTookThePathOfItsVersion(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let sink = InMemoryTraceSink()
        let chain = try AsyncChain<Int, Int>(
            "async-edited-\(seed)",
            handlers: [Self.passer("Head"), Self.passer("Tail")],
            recorder: Recorder(sink: sink)
        )
        let registry = try chain.addRegistry("R", at: .after("Head"))
        let versions = ConcurrentEditsTests.Versions()
        var top = ["Head", "R", "Tail"]
        var members: [(name: String, weight: Int, age: Int)] = []
        func full() -> [String] {
            top.flatMap {
                $0 == "R" ? ["R"] + members.sorted { ($0.weight, $0.age) > ($1.weight, $1.age) }.map(\.name) : [$0]
            }
        }
        versions.record(chain.version, full())
        let edits = (0..<120).map { _ in (Int.random(in: 0..<4, using: &random), Int.random(in: 0...2, using: &random))
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask {
                    for index in 0..<150 { _ = try await chain.send(sender * 1_000 + index) }
                }
            }
            // Edits from this task, between the senders' suspensions.
            for (step, (edit, weight)) in edits.enumerated() {
                switch edit {
                case 0, 1:
                    try registry.register(Self.passer("M\(step)"), weight: weight)
                    members.append(("M\(step)", weight, step))
                case 2 where !members.isEmpty:
                    _ = try registry.deregister(members.removeFirst().name)
                default:
                    if let index = top.firstIndex(where: { $0.hasPrefix("X") }) {
                        try chain.remove(top[index])
                        top.remove(at: index)
                    } else {
                        try chain.insert(Self.passer("X\(step)"), at: .before("Tail"))
                        top.insert("X\(step)", at: top.count - 1)
                    }
                }
                versions.record(chain.version, full())
                await Task.yield()
            }
            try await group.waitForAll()
        }
        let traces = sink.traces
        #expect(traces.count == 600, "seed \(seed)")
        for trace in traces {
            guard let expected = versions.path(at: trace.chainVersion) else {
                Issue.record("seed \(seed): version \(trace.chainVersion) was never made")
                continue
            }
            #expect(trace.path == expected, "seed \(seed), version \(trace.chainVersion): \(trace.path) vs \(expected)")
        }
    }
}
