import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// Pipelines whose stages change the command they hand on (`.continue(with:)`), pass it, observe it, or take it,
/// generated and run on `Chain` and on `AsyncChain` (many commands at once): both give the result, path, decisions
/// and outcome a plain loop over the same stages gives, each later stage seeing the command as the earlier ones
/// left it.
@Suite("Stages that change the command", .tags(.concurrent))
struct ContinueWithModelTests {
    enum Stage: Sendable {
        case add(Int)  // continues with command + n
        case double  // continues with command * 2
        case takeIfMultiple(of: Int)
        case observe
        case pass
    }

    static func step(_ stage: Stage, _ value: Int) -> (HandlerResponse<Int, Int>, Decision, Int) {
        switch stage {
        case .add(let amount): (.continue(with: value + amount), .continued, value + amount)
        case .double: (.continue(with: value * 2), .continued, value * 2)
        case .takeIfMultiple(let divisor) where value % divisor == 0: (.accept(value), .accepted, value)
        case .takeIfMultiple: (.pass, .passed, value)
        case .observe: (.continue, .continued, value)
        case .pass: (.pass, .passed, value)
        }
    }

    /// The plain loop: (result, decisions, outcome).
    static func model(_ stages: [Stage], _ value: Int) -> (Int?, [Decision], Outcome) {
        var current = value
        var decisions: [Decision] = []
        for (index, stage) in stages.enumerated() {
            let (_, decision, next) = step(stage, current)
            decisions.append(decision)
            if decision == .accepted { return (next, decisions, .accepted(by: "S\(index)")) }
            current = next
        }
        return (nil, decisions, .fellOffTheEnd)
    }

    static func stages(_ random: inout SeededGenerator) -> [Stage] {
        (0..<Int.random(in: 1...7, using: &random)).map { _ in
            switch Int.random(in: 0..<5, using: &random) {
            case 0: .add(Int.random(in: 1...5, using: &random))
            case 1: .double
            case 2: .takeIfMultiple(of: Int.random(in: 2...9, using: &random))
            case 3: .observe
            default: .pass
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func syncAndAsyncPipelinesDoWhatThePlainLoopDoes(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let stages = Self.stages(&random)
        let sync = try Chain<Int, Int>(
            "pipeline-\(seed)",
            handlers: stages.enumerated().map { index, stage in
                Handler("S\(index)", role: { if case .observe = stage { .observer } else { .responder } }()) {
                    Self.step(stage, $0).0
                }
            }
        )
        let async = try AsyncChain<Int, Int>(
            "pipeline-\(seed)",
            handlers: stages.enumerated().map { index, stage in
                AsyncHandler("S\(index)", role: { if case .observe = stage { .observer } else { .responder } }()) {
                    value in
                    await Task.yield()
                    return Self.step(stage, value).0
                }
            }
        )
        let values = (0..<20).map { _ in Int.random(in: 0...50, using: &random) }
        var results: [Int?] = []
        let syncTraces = try captureTraces { for value in values { results.append(try sync.send(value)) } }
        for (index, value) in values.enumerated() {
            let (result, decisions, outcome) = Self.model(stages, value)
            #expect(results[index] == result, "seed \(seed), \(value)")
            #expect(syncTraces[index].hops.map(\.decision) == decisions, "seed \(seed), \(value)")
            #expect(syncTraces[index].outcome == outcome, "seed \(seed), \(value)")
        }
        let asyncTraces = try await captureTraces {
            try await withThrowingTaskGroup(of: (Int, Int?).self) { group in
                for value in values { group.addTask { (value, try await async.send(value)) } }
                for try await (value, result) in group {
                    #expect(result == Self.model(stages, value).0, "seed \(seed), async \(value)")
                }
            }
        }
        #expect(asyncTraces.count == values.count, "seed \(seed)")
        for trace in asyncTraces {
            guard case .integer(let value)? = trace.payload else { continue }
            let (_, decisions, outcome) = Self.model(stages, Int(value))
            #expect(trace.hops.map(\.decision) == decisions && trace.outcome == outcome, "seed \(seed), async \(value)")
        }
    }
}
