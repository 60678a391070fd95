import ChainTrace
import ChainTraceTestSupport
import Testing

/// Sampling counts per task for async sends: each task's first command is traced and then every `interval`-th,
/// exactly, however its handlers' suspensions move it between threads and whatever other tasks send at once —
/// the traces are what sampling each task's own list of commands gives.
@Suite("Async sampling counts per task")
struct TaskSamplingTests {
    /// Holds every task until all have arrived, so no task ends (and has its memory reused by a new one, which a
    /// count by task could not tell from it) while others still send.
    actor Barrier {
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private let parties: Int

        init(parties: Int) {
            self.parties = parties
        }

        func arrive() async {
            if waiting.count + 1 == parties {
                waiting.forEach { $0.resume() }
                waiting.removeAll()
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    /// The indices a task's sampling keeps among its first `count` commands.
    static func sampled(_ count: Int, interval: Int) -> [Int] {
        Array(stride(from: 0, to: count, by: interval))
    }

    /// The command numbers traced, by task, from the payloads (task × 1000 + index).
    static func tracedByTask(_ traces: [Trace], tasks: Int) -> [[Int]] {
        var byTask = [[Int]](repeating: [], count: tasks)
        for trace in traces {
            guard case .integer(let value)? = trace.payload else { continue }
            byTask[Int(value) / 1000].append(Int(value) % 1000)
        }
        return byTask.map { $0.sorted() }
    }

    /// Generates tasks and their command counts from `seed`, makes what sends a command with `make` (given the
    /// sink and the sampling interval), sends each task's commands (task × 1000 + index) from its own task, all
    /// at once, and checks each task's traces are exactly its sampled commands.
    static func check(
        seed: UInt64,
        scope: (Recorder, () async throws -> Void) async throws -> Void = { _, body in try await body() },
        make: (Recorder) throws -> @Sendable (Int) async throws -> Void
    ) async throws {
        var random = SeededGenerator(seed: seed)
        let tasks = Int.random(in: 2...8, using: &random)
        let counts = (0..<tasks).map { _ in Int.random(in: 1...60, using: &random) }
        let interval = Int.random(in: 2...7, using: &random)
        let sink = InMemoryTraceSink()
        let recorder = Recorder(sink: sink, sampling: .oneIn(interval))
        let send = try make(recorder)
        try await scope(recorder) {
            let barrier = Barrier(parties: tasks)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        for index in 0..<counts[task] { try await send(task * 1000 + index) }
                        await barrier.arrive()
                    }
                }
                try await group.waitForAll()
            }
        }
        let traced = tracedByTask(sink.traces, tasks: tasks)
        for task in 0..<tasks {
            #expect(traced[task] == sampled(counts[task], interval: interval), "seed \(seed), task \(task)")
        }
        #expect(sink.traces.allSatisfy { $0.hops.count == 2 }, "seed \(seed): a trace began in the middle")
    }

    @Test(arguments: SeededGenerator.seeds(10))
    func asyncChainTracesEveryIntervalthCommandOfEachTask(seed: UInt64) async throws {
        try await Self.check(seed: seed) { recorder in
            let chain = try AsyncChain<Int, Int>(
                "yielding",
                handlers: [
                    AsyncHandler("First") { _ in
                        await Task.yield()
                        return .pass
                    },
                    AsyncHandler("Second") { command in
                        await Task.yield()
                        return .accept(command)
                    },
                ],
                recorder: recorder)
            return { _ = try await chain.send($0) }
        }
    }

    @Test(arguments: SeededGenerator.seeds(10))
    func asyncInstrumentedHopsTraceEveryIntervalthCommandOfEachTask(seed: UInt64) async throws {
        @Sendable func handle(_ command: Int) async -> Bool {
            await traceHop("Outer", command: command, chain: "instrumented") {
                await Task.yield()
                return await traceHop("Inner", command: command, chain: "instrumented") {
                    await Task.yield()
                    return true
                }
            }
        }
        try await Self.check(seed: seed, scope: { recorder, body in try await ChainTracing.withRecorder(recorder, operation: body) }) { _ in
            { _ = await handle($0) }
        }
    }
}
