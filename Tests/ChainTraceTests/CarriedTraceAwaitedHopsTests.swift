import ChainTrace
import ChainTraceTestSupport
import Testing

/// `CarriedTrace.closeHop(whenDone:)` — a hop that hands on the very future the hop inside it answered with closes
/// with that hop, with no callback of its own — against closing every hop from a callback of its own, on generated
/// middleware stacks: the traces must say the same (path, decisions, reasons, nesting, outcome).
@Suite("A carried trace closes hops that hand on the same future together, as if each closed alone")
struct CarriedTraceAwaitedHopsTests {
    /// A future as a framework's: completes once, with an error or not; runs its callbacks in the order they were
    /// added, at once for one added after it completed.
    final class Completion {
        private(set) var outcome: Result<Void, TestFailure>?
        private var callbacks: [(Result<Void, TestFailure>) -> Void] = []

        func whenDone(_ callback: @escaping (Result<Void, TestFailure>) -> Void) {
            if let outcome { return callback(outcome) }
            callbacks.append(callback)
        }

        func complete(_ outcome: Result<Void, TestFailure>) {
            precondition(self.outcome == nil, "completed twice")
            self.outcome = outcome
            let waiting = callbacks
            callbacks = []
            for callback in waiting { callback(outcome) }
        }
    }

    struct TestFailure: Error, Equatable {
        var origin: Int
    }

    /// What one generated middleware does with the request.
    enum Behaviour {
        /// Returns what the next answered with, as it is (`next.respond(to:)`).
        case handsOn
        /// Returns a future of its own that completes when the next's does: as it did, recovered from an error,
        /// or failed on a success.
        case maps(Mapping)
        /// Answers without calling the next, at once or later, with an error or not.
        case answers(failing: Bool, later: Bool)
    }

    enum Mapping: CaseIterable {
        case same
        case recovers
        case fails
    }

    /// A generated request: each middleware's behaviour, outermost first, then the endpoint (fails or not, answers
    /// at once or later).
    struct Plan: CustomStringConvertible {
        var middleware: [Behaviour]
        var endpointFails: Bool
        var endpointLater: Bool

        init(seed: UInt64) {
            var random = SeededGenerator(seed: seed)
            middleware = (0..<Int.random(in: 0...10, using: &random)).map { _ in
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5: .handsOn
                case 5..<9: .maps(Mapping.allCases.randomElement(using: &random)!)
                default: .answers(failing: Bool.random(using: &random), later: Bool.random(using: &random))
                }
            }
            endpointFails = Int.random(in: 0..<4, using: &random) == 0
            endpointLater = Bool.random(using: &random)
        }

        var description: String { "\(middleware) endpoint fails \(endpointFails) later \(endpointLater)" }
    }

    /// Runs `plan` as one traced request and returns its trace. `coalescing`: each hop closes through
    /// `closeHop(whenDone:)`; else each closes from a callback of its own on what it answered with.
    func record(_ plan: Plan, coalescing: Bool) throws -> Trace {
        let sink = InMemoryTraceSink()
        var pending: [(Completion, Result<Void, TestFailure>)] = []
        ChainTracing.withRecorder(Recorder(sink: sink)) {
            guard let trace = CarriedTrace.start(command: NumberedCommand(value: 1), chain: "stack") else { return }

            func closing(_ completion: Completion) -> Completion {
                guard coalescing else {
                    completion.whenDone { trace.close(threw: $0.error) }
                    return completion
                }
                if let hops = trace.closeHop(whenDone: completion) {
                    completion.whenDone { outcome in hops.complete(threw: outcome.error) { nil } }
                }
                return completion
            }

            func answer(failing: Bool, later: Bool, origin: Int) -> Completion {
                let completion = Completion()
                let outcome: Result<Void, TestFailure> = failing ? .failure(TestFailure(origin: origin)) : .success(())
                if later { pending.append((completion, outcome)) } else { completion.complete(outcome) }
                return completion
            }

            func respond(at level: Int) -> Completion {
                guard level < plan.middleware.count else {
                    guard trace.open("endpoint") else { return answer(failing: false, later: false, origin: level) }
                    return closing(answer(failing: plan.endpointFails, later: plan.endpointLater, origin: level))
                }
                let opened = trace.open("middleware \(level)")
                let answered: Completion
                switch plan.middleware[level] {
                case .handsOn:
                    answered = respond(at: level + 1)
                case .maps(let mapping):
                    let inner = respond(at: level + 1)
                    let mine = Completion()
                    inner.whenDone { outcome in
                        switch (mapping, outcome) {
                        case (.same, _): mine.complete(outcome)
                        case (.recovers, _): mine.complete(.success(()))
                        case (.fails, .success): mine.complete(.failure(TestFailure(origin: level)))
                        case (.fails, .failure): mine.complete(outcome)
                        }
                    }
                    answered = mine
                case .answers(let failing, let later):
                    answered = answer(failing: failing, later: later, origin: level)
                }
                return opened ? closing(answered) : answered
            }

            let response = respond(at: 0)
            response.whenDone { _ in trace.finish() }
            // What answers later answers now, innermost first, as a server's event loop would.
            for (completion, outcome) in pending.reversed() { completion.complete(outcome) }
        }
        return try #require(sink.traces.first)
    }

    @Test("generated stacks of middleware: the same trace either way", arguments: 0..<400 as Range<UInt64>)
    func theSameTraceEitherWay(seed: UInt64) throws {
        let plan = Plan(seed: seed)
        let coalesced = try record(plan, coalescing: true)
        let alone = try record(plan, coalescing: false)
        #expect(TraceSummary(coalesced) == TraceSummary(alone), "\(plan)")
        #expect(coalesced.hops.map(\.parent) == alone.hops.map(\.parent), "\(plan)")
        // Every hop closed: an open hop's times are left at zero and its decision says so.
        for hop in coalesced.hops {
            #expect(hop.selfDuration <= hop.inclusiveDuration, "\(plan) \(hop)")
        }
        #expect(coalesced.hops.count == alone.hops.count)
    }

    @Test("a hop that hands on its inner hop's pending future waits for it, and closes after it")
    func aHandedOnPendingFutureClosesBothInOrder() throws {
        var plan = Plan(seed: 0)
        plan.middleware = [.handsOn, .handsOn]
        plan.endpointFails = true
        plan.endpointLater = true
        let trace = try record(plan, coalescing: true)
        #expect(trace.path == ["middleware 0", "middleware 1", "endpoint"])
        #expect(trace.hops.map(\.decision) == [.passed, .passed, .failed])
        #expect(trace.hops.map(\.parent) == [nil, 0, 1])
        #expect(trace.outcome == .failed(at: "endpoint", error: "TestFailure(origin: 2)"))
    }
}

extension Result where Failure == CarriedTraceAwaitedHopsTests.TestFailure {
    /// The error it failed with, if it did.
    fileprivate var error: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}
