import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// Handlers whose prediction is written beside their body, generated — accepting, passing, continuing, failing
/// with an error, or unable to tell — on chains of every length: the dry run's path, answers and predicted outcome
/// are the real run's wherever no handler on the path cannot tell, and `dryRunDisagreements` finds nothing; a
/// handler that cannot tell makes the prediction undecided, never wrong.
@Suite("Written predictions against the real run")
struct PredictionModelTests {
    struct Broken: SelfDescribingError {
        var description: String
    }

    enum Behaviour: CaseIterable { case accepts, passes, continues, fails, unknowable }

    /// What the handler does with `value`.
    static func respond(_ name: String, _ behaviour: Behaviour, divisor: Int, _ value: Int) throws -> HandlerResponse<
        Int, String
    > {
        guard value % divisor == 0 else { return .pass }
        switch behaviour {
        case .accepts, .unknowable: return .accept(name)
        case .passes: return .pass
        case .continues: return .continue
        case .fails: throw Broken(description: "\(name) broke")
        }
    }

    /// What it says it would do, written beside it.
    static func predict(_ name: String, _ behaviour: Behaviour, divisor: Int, _ value: Int) -> HandlerPrediction {
        guard behaviour != .unknowable else { return .unknown }
        guard value % divisor == 0 else { return .pass }
        switch behaviour {
        case .accepts: return .accept
        case .passes: return .pass
        case .continues: return .continue
        case .fails: return .fail(error: "\(name) broke")
        case .unknowable: return .unknown
        }
    }

    static func handler(_ name: String, _ behaviour: Behaviour, divisor: Int) -> Handler<Int, String> {
        Handler(name, predict: { predict(name, behaviour, divisor: divisor, $0) }) {
            try respond(name, behaviour, divisor: divisor, $0)
        }
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func writtenPredictionsAgreeWithTheRealRun(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let specs = (0..<Int.random(in: 1...7, using: &random)).map { _ in
            (random.pick(Behaviour.allCases), Int.random(in: 1...5, using: &random))
        }
        let chain = try Chain<Int, String>(
            "predicted-\(seed)",
            handlers: specs.enumerated().map { Self.handler("H\($0)", $1.0, divisor: $1.1) }
        )
        let values = (0..<30).map { _ in Int.random(in: 0...60, using: &random) }
        let traces = captureTraces { for value in values { _ = try? chain.send(value) } }
        for (value, trace) in zip(values, traces) {
            let dryRun = try chain.whoWouldHandle(value)
            if dryRun.undecided.isEmpty {
                #expect(dryRun.path == trace.path, "seed \(seed), \(value)")
                #expect(
                    dryRun.predictedOutcome == trace.outcome,
                    "seed \(seed), \(value): \(String(describing: dryRun.predictedOutcome)) vs \(trace.outcome)"
                )
            } else {
                #expect(dryRun.predictedOutcome == nil, "seed \(seed), \(value)")
                // Up to the first handler that cannot tell, the walk is the real one.
                let known = dryRun.path.prefix { !dryRun.undecided.contains($0) }
                #expect(Array(trace.path.prefix(known.count)) == Array(known), "seed \(seed), \(value)")
            }
        }
        #expect(try chain.dryRunDisagreements(values).isEmpty, "seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func asyncChainsPredictWhatTheyDo(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let specs = (0..<Int.random(in: 1...6, using: &random)).map { _ in
            (random.pick(Behaviour.allCases.filter { $0 != .unknowable }), Int.random(in: 1...5, using: &random))
        }
        let handlers = specs.enumerated().map { index, spec -> AsyncHandler<Int, String> in
            AsyncHandler("H\(index)", predict: { Self.predict("H\(index)", spec.0, divisor: spec.1, $0) }) { value in
                await Task.yield()
                return try Self.respond("H\(index)", spec.0, divisor: spec.1, value)
            }
        }
        let chain = try AsyncChain<Int, String>("async-predicted-\(seed)", handlers: handlers)
        let values = (0..<20).map { _ in Int.random(in: 0...60, using: &random) }
        let traces = await captureTraces { for value in values { _ = try? await chain.send(value) } }
        #expect(traces.count == values.count, "seed \(seed)")
        let disagreements = try chain.dryRunDisagreements(recorded: traces) { trace in
            if case .integer(let value)? = trace.payload { Int(value) } else { nil }
        }
        #expect(disagreements.isEmpty, "seed \(seed): \(disagreements.map(\.description))")
    }
}
