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

    static func handler(_ name: String, _ behaviour: Behaviour, divisor: Int) -> Handler<Int, String> {
        let applies: @Sendable (Int) -> Bool = { $0 % divisor == 0 }
        let body: @Sendable (Int) throws -> HandlerResponse<Int, String> = { value in
            guard applies(value) else { return .pass }
            switch behaviour {
            case .accepts, .unknowable: return .accept(name)
            case .passes: return .pass
            case .continues: return .continue
            case .fails: throw Broken(description: "\(name) broke")
            }
        }
        let predict: @Sendable (Int) -> HandlerPrediction = { value in
            guard behaviour != .unknowable else { return .unknown }
            guard applies(value) else { return .pass }
            switch behaviour {
            case .accepts: return .accept
            case .passes: return .pass
            case .continues: return .continue
            case .fails: return .fail(error: "\(name) broke")
            case .unknowable: return .unknown
            }
        }
        return Handler(name, predict: predict, handle: body)
    }

    @Test(arguments: SeededGenerator.seeds(60))
    func writtenPredictionsAgreeWithTheRealRun(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let specs = (0..<Int.random(in: 1...7, using: &random)).map { _ in
            (random.pick(Behaviour.allCases), Int.random(in: 1...5, using: &random))
        }
        let chain = try Chain<Int, String>("predicted-\(seed)", handlers: specs.enumerated().map { Self.handler("H\($0)", $1.0, divisor: $1.1) })
        let values = (0..<30).map { _ in Int.random(in: 0...60, using: &random) }
        let traces = captureTraces { for value in values { _ = try? chain.send(value) } }
        for (value, trace) in zip(values, traces) {
            let dryRun = try chain.whoWouldHandle(value)
            if dryRun.undecided.isEmpty {
                #expect(dryRun.path == trace.path, "seed \(seed), \(value)")
                #expect(dryRun.predictedOutcome == trace.outcome, "seed \(seed), \(value): \(String(describing: dryRun.predictedOutcome)) vs \(trace.outcome)")
            } else {
                #expect(dryRun.predictedOutcome == nil, "seed \(seed), \(value)")
                // Up to the first handler that cannot tell, the walk is the real one.
                let known = dryRun.path.prefix { !dryRun.undecided.contains($0) }
                #expect(Array(trace.path.prefix(known.count)) == Array(known), "seed \(seed), \(value)")
            }
        }
        #expect(try chain.dryRunDisagreements(values).isEmpty, "seed \(seed)")
    }
}
