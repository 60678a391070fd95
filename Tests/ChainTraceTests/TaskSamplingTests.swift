import ChainTrace
import ChainTraceTestSupport
import Testing

/// Sampling counts async sends together, whichever task sends them: of `n` commands exactly `n / interval`, rounded
/// up, are traced, each whole — from a few long-lived tasks sending at once (their handlers' suspensions moving
/// them between threads), and from a task per command, as a server runs a request, where a count per task traced
/// every one (each new task's first command). One task alone: its first command and every `interval`-th after it.
@Suite("Async sampling counts every task's commands together", .tags(.concurrent))
struct TaskSamplingTests {
    /// The command numbers traced, from the payloads, sorted.
    static func traced(_ traces: [Trace]) -> [Int] {
        traces.compactMap { trace -> Int? in
            guard case .integer(let value)? = trace.payload else { return nil }
            return Int(value)
        }.sorted()
    }

    /// Generates how commands are sent from `seed` — one task in order, a few long-lived tasks at once, or a task
    /// a command, all at once — makes what sends a command with `make` (given the recorder), sends them, and checks
    /// how many are traced, each whole, and, from one task, which.
    static func check(
        seed: UInt64,
        scope: (Recorder, () async throws -> Void) async throws -> Void = { _, body in try await body() },
        make: (Recorder) throws -> @Sendable (Int) async throws -> Void
    ) async throws {
        var random = SeededGenerator(seed: seed)
        let interval = Int.random(in: 2...7, using: &random)
        let sink = InMemoryTraceSink()
        let recorder = Recorder(sink: sink, sampling: .oneIn(interval), payloads: .captured)
        let send = try make(recorder)
        let shape = Int.random(in: 0..<3, using: &random)
        let total: Int
        switch shape {
        case 0:
            total = Int.random(in: 1...120, using: &random)
            try await scope(recorder) { for command in 0..<total { try await send(command) } }
        case 1:
            let counts = (0..<Int.random(in: 2...8, using: &random)).map { _ in Int.random(in: 1...60, using: &random) }
            total = counts.reduce(0, +)
            try await scope(recorder) {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (task, count) in counts.enumerated() {
                        group.addTask { for index in 0..<count { try await send(task * 1000 + index) } }
                    }
                    try await group.waitForAll()
                }
            }
        default:
            total = Int.random(in: 1...300, using: &random)
            try await scope(recorder) {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for command in 0..<total { group.addTask { try await send(command) } }
                    try await group.waitForAll()
                }
            }
        }
        let traces = sink.traces
        let context = "seed \(seed), shape \(shape), \(total) commands, 1 in \(interval)"
        #expect(traces.count == (total + interval - 1) / interval, "\(context): \(traces.count) traced")
        #expect(traces.allSatisfy { $0.hops.count == 2 }, "\(context): a trace began in the middle")
        #expect(Set(traced(traces)).count == traces.count, "\(context): a command traced twice")
        if shape == 0 {
            #expect(traced(traces) == Array(stride(from: 0, to: total, by: interval)), "\(context)")
        }
    }

    @Test(arguments: SeededGenerator.seeds(10))
    func asyncChainTracesOneInIntervalOfAllTasksCommands(seed: UInt64) async throws {
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
                recorder: recorder
            )
            return { _ = try await chain.send($0) }
        }
    }

    @Test(arguments: SeededGenerator.seeds(10))
    func asyncInstrumentedHopsTraceOneInIntervalOfAllTasksCommands(seed: UInt64) async throws {
        @Sendable func handle(_ command: Int) async -> Bool {
            await traceHop("Outer", command: command, chain: "instrumented") {
                await Task.yield()
                return await traceHop("Inner", command: command, chain: "instrumented") {
                    await Task.yield()
                    return true
                }
            }
        }
        try await Self.check(
            seed: seed,
            scope: { recorder, body in try await ChainTracing.withRecorder(recorder, operation: body) }
        ) { _ in
            { _ = await handle($0) }
        }
    }
}
