import ChainTraceFastPath
import ChainTraceTestSupport
import Testing

@testable import ChainTrace

/// `taskHopsBinding(of:)` — the async hop's read of its task's trace binding, through the published key — against
/// `TaskLocal.get()` of the same task-local, in the places an async hop runs: outside any hop, in a traced hop, in
/// a command the recorder leaves out, and in child, unstructured and detached tasks started inside, at generated
/// depths.
@Suite("The async hops' task-local, read through its published key", .tags(.concurrent))
struct TaskHopsBindingTests {
    struct Step: Sendable, TracedCommand {
        let depth: Int
    }

    /// What the binding shows, checked against `get()`.
    static func check(_ context: String) {
        let got = ChainTracing.taskHops
        let bound = taskHopsBinding(of: ChainTracing.taskHopsLocal)
        switch (bound?.value, got) {
        case (nil, .none), (.none?, .none), (.skipping?, .skipping): break
        case (.tracing(let read, let readOwner)?, .tracing(let trace, let owner)):
            #expect(read === trace && readOwner == owner, "\(context)")
        default:
            Issue.record("\(context): read \(String(describing: bound?.value)), get() returned \(got)")
        }
    }

    static func descend(_ depth: Int, seed: UInt64, path: String) async {
        check("\(path), seed \(seed)")
        guard depth > 0 else { return }
        var random = SeededGenerator(seed: seed &+ UInt64(depth))
        let next = seed &* 31 &+ UInt64(depth)
        await traceHop("Level\(depth)", command: Step(depth: depth), chain: "task-hops-binding") {
            check("\(path) in hop \(depth), seed \(seed)")
            switch Int.random(in: 0..<4, using: &random) {
            case 0: await descend(depth - 1, seed: next, path: path + "/same")
            case 1:
                async let child: Void = descend(depth - 1, seed: next, path: path + "/child")
                await child
            case 2: await Task { await descend(depth - 1, seed: next, path: path + "/unstructured") }.value
            default: await Task.detached { await descend(depth - 1, seed: next, path: path + "/detached") }.value
            }
        }
        check("\(path) after hop \(depth), seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(12))
    func theBindingReadIsWhatGetReturns(seed: UInt64) async {
        Self.check("outside any recorder, seed \(seed)")
        let sampling: Sampling = seed % 3 == 0 ? .oneIn(2) : .all
        let recorder = Recorder(sink: InMemoryTraceSink(), sampling: sampling)
        await ChainTracing.withRecorder(recorder) {
            for round in 0..<4 { await Self.descend(4, seed: seed &+ UInt64(round), path: "round \(round)") }
        }
    }
}
