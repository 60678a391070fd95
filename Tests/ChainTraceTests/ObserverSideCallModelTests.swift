import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// Handlers that, before they decide, call observers of their own chain — an analytics or audit handler that
/// notes the command and lets it continue, perhaps on to a responder — and then take the command, forward it,
/// return nothing or throw. Generated as trees, run sync, async, and async with the observers called at once in
/// child tasks; every hop's decision and the outcome match a model in which a hop forwarded only if the command
/// went on from it to something more than an observer. Before, any hop nested in a handler made it *passed*: a
/// handler that called an analytics observer and then returned its answer was recorded as passing, and the trace
/// as *fell off the end*.
@Suite("Hops that call observers before they decide", .tags(.concurrent))
struct ObserverSideCallModelTests {
    typealias Failure = InstrumentedChainModelTests.Failure

    enum Action: Sendable {
        /// Returns its own answer (an observer's is ignored: it continued).
        case answer
        /// Returns what the next handler returns.
        case forward(Node)
        /// Returns `nil`.
        case nothing
        /// Throws (responders only).
        case fail
    }

    final class Node: Sendable {
        let name: String
        let role: HandlerRole
        /// Called first, their results ignored.
        let sideCalls: [Node]
        let action: Action

        init(name: String, role: HandlerRole, sideCalls: [Node], action: Action) {
            self.name = name
            self.role = role
            self.sideCalls = sideCalls
            self.action = action
        }

        func handle(_ value: Int) throws -> String? {
            try traceHop(name, command: value, chain: "tree", role: role) {
                for side in sideCalls { _ = try? side.handle(value) }
                return try decide(value) { try $0.handle(value) }
            }
        }

        func handle(_ value: Int, atOnce: Bool) async throws -> String? {
            try await traceHop(name, command: value, chain: "tree", role: role) {
                await Task.yield()
                if atOnce {
                    await withTaskGroup(of: Void.self) { group in
                        for side in sideCalls { group.addTask { _ = try? await side.handle(value, atOnce: atOnce) } }
                    }
                } else {
                    for side in sideCalls { _ = try? await side.handle(value, atOnce: atOnce) }
                }
                switch action {
                case .forward(let next): return try await next.handle(value, atOnce: atOnce)
                default: return try decide(value) { _ in nil }
                }
            }
        }

        private func decide(_ value: Int, forwarding: (Node) throws -> String?) throws -> String? {
            switch action {
            case .answer: return name
            case .forward(let next): return try forwarding(next)
            case .nothing: return nil
            case .fail: throw Failure(handler: name)
            }
        }

        /// Names are unique, so hops are matched by name whatever order child tasks start in.
        static func random(_ random: inout SeededGenerator, depth: Int, counter: inout Int) -> Node {
            counter += 1
            let name = "H\(counter)"
            let role: HandlerRole = Int.random(in: 0..<3, using: &random) == 0 ? .observer : .responder
            let sideCalls =
                depth >= 3
                ? []
                : (0..<Int.random(in: 0...2, using: &random)).map { _ in
                    Self.random(&random, depth: depth + 1, counter: &counter)
                }
            let action: Action
            switch Int.random(in: 0..<(role == .observer ? 3 : 4), using: &random) {
            case 0 where depth < 4: action = .forward(Self.random(&random, depth: depth + 1, counter: &counter))
            case 1: action = .nothing
            case 3: action = .fail
            default: action = .answer
            }
            return Node(name: name, role: role, sideCalls: sideCalls, action: action)
        }
    }

    /// What the hops of one command say, by the model.
    struct Expected {
        var decisions: [String: Decision] = [:]
        /// Hops in the order they start when everything runs in sequence.
        var path: [String] = []
        /// Hops that failed, in the order they close when everything runs in sequence.
        var failures: [String] = []
        var accepted: [String] = []
    }

    /// Walks `node` as the handler runs: returns what it returns (or that it threw), whether the command went on
    /// from it (it did more than continue, or something inside it did), whether it or a hop inside it failed with
    /// no hop recovering, and whether it or a hop inside it accepted. A hop that returns a value after a hop inside
    /// it failed (a side call's error it swallowed) caught the error and recovered: it accepted unless a hop inside
    /// it accepted, and those failures no longer end the command.
    @discardableResult
    static func model(_ node: Node, _ expected: inout Expected) -> (
        result: String??, wentOn: Bool, failed: Bool, accepted: Bool
    ) {
        expected.path.append(node.name)
        let failuresBefore = expected.failures.count
        var (wentOnInside, failedInside, acceptedInside) = (false, false, false)
        for side in node.sideCalls {
            let (_, wentOn, failed, accepted) = model(side, &expected)
            (wentOnInside, failedInside, acceptedInside) = (
                wentOnInside || wentOn, failedInside || failed, acceptedInside || accepted
            )
        }
        var threw = false
        var result: String?
        switch node.action {
        case .answer: result = node.name
        case .nothing: result = nil
        case .fail: threw = true
        case .forward(let next):
            let (returned, wentOn, failed, accepted) = model(next, &expected)
            (wentOnInside, failedInside, acceptedInside) = (
                wentOnInside || wentOn, failedInside || failed, acceptedInside || accepted
            )
            if let returned { result = returned } else { threw = true }
        }
        var decision: Decision
        if threw {
            // An error thrown by a hop inside which a hop failed was handed up from there: it belongs to the hop
            // where it started.
            decision = failedInside ? .passed : .failed
        } else if result != nil, failedInside {
            decision = acceptedInside ? .passed : .accepted
            expected.failures.removeSubrange(failuresBefore...)
            failedInside = false
        } else {
            decision = result != nil && !wentOnInside ? .accepted : .passed
        }
        if node.role == .observer, decision != .failed { decision = .continued }
        expected.decisions[node.name] = decision
        if decision == .accepted { expected.accepted.append(node.name) }
        if decision == .failed { expected.failures.append(node.name) }
        return (
            threw ? nil : .some(result), wentOnInside || decision != .continued, failedInside || decision == .failed,
            acceptedInside || decision == .accepted
        )
    }

    static func check(_ trace: Trace, _ head: Node, atOnce: Bool, seed: UInt64) {
        var expected = Expected()
        model(head, &expected)
        let context = "seed \(seed), at once: \(atOnce)"
        if atOnce {
            #expect(Set(trace.path) == Set(expected.path), "\(context)")
        } else {
            #expect(trace.path == expected.path, "\(context)")
        }
        for hop in trace.hops {
            #expect(
                hop.decision == expected.decisions[hop.handler],
                "\(context): \(hop.handler), \(trace.hops.map { "\($0.handler) \($0.decision)" })"
            )
        }
        if !expected.failures.isEmpty {
            // At once, the first failure is whichever closes first.
            let failures = atOnce ? expected.failures : [expected.failures[0]]
            #expect(
                failures.contains { trace.outcome == .failed(at: $0, error: "\($0) broke (Failure)") },
                "\(context): \(trace.outcome)"
            )
        } else if expected.accepted.count == 1 || (!atOnce && !expected.accepted.isEmpty) {
            #expect(trace.outcome == .accepted(by: expected.accepted.last!), "\(context)")
        } else if expected.accepted.isEmpty {
            #expect(trace.outcome == .fellOffTheEnd, "\(context)")
        }
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func syncHopsGoOnOnlyPastObservers(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var counter = 0
        let head = Node.random(&random, depth: 0, counter: &counter)
        let traces = captureTraces { _ = try? head.handle(Int(seed % 1000)) }
        #expect(traces.count == 1, "seed \(seed)")
        if let trace = traces.first { Self.check(trace, head, atOnce: false, seed: seed) }
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func asyncHopsGoOnOnlyPastObservers(seed: UInt64) async {
        var random = SeededGenerator(seed: seed)
        var counter = 0
        let head = Node.random(&random, depth: 0, counter: &counter)
        for atOnce in [false, true] {
            let traces = await captureTraces { _ = try? await head.handle(Int(seed % 1000), atOnce: atOnce) }
            #expect(traces.count == 1, "seed \(seed)")
            if let trace = traces.first { Self.check(trace, head, atOnce: atOnce, seed: seed) }
        }
    }

    /// The case the model generalises, as a user writes it.
    @Test func aHandlerThatNotesTheCommandWithAnObserverAndAnswersTakesIt() {
        final class Analytics: Sendable {
            func note(_ order: Int) { traceHop("Analytics", command: order, chain: "orders", role: .observer) {} }
        }
        final class Pricing: Sendable {
            let analytics = Analytics()
            func handle(_ order: Int) -> Int? {
                traceHop("Pricing", command: order, chain: "orders") {
                    analytics.note(order)
                    return order * 2
                }
            }
        }
        let traces = captureTraces { _ = Pricing().handle(21) }
        #expect(traces.first?.path == ["Pricing", "Analytics"])
        #expect(traces.first?.hops.map(\.decision) == [.accepted, .continued])
        #expect(traces.first?.outcome == .accepted(by: "Pricing"))
    }
}
