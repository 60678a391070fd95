import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// Handlers that catch what the handlers they call throw — a fallback, a retry, a chain that moves on past a
/// handler that gave up — recorded against a model of what each hop decided and how the command ended.
///
/// The rules: a hop that returns a value after a hop inside it threw caught the error and recovered: it accepted,
/// unless a hop inside it accepted (a retry or another handler that worked), and those failures no longer end the
/// command. A failure nothing recovered from (handed up and thrown out, or caught by a handler that then returned
/// nothing) still does: the trace's outcome is the first of those. Generated trees, synchronous and async.
@Suite("Failures caught and recovered from")
struct RecoveredFailureTests {
    typealias Failure = InstrumentedChainModelTests.Failure

    /// What a handler does after one it called threw.
    enum OnError: CaseIterable {
        /// Returns a value of its own: a fallback.
        case recover
        /// Returns nothing: it gives up, and its caller may try another.
        case giveUp
        /// Throws the error on.
        case rethrow
    }

    /// What a leaf does: accepts, passes (returns nothing), fails by throwing, or fails by returning its error as
    /// a value (``errorValue``, judged failed by `decide`), as a validator chain that returns errors does — an
    /// error every handler above it hands up as its own return, which recovers nothing.
    enum Leaf: CaseIterable {
        case accept, pass, fail, returnError
    }

    /// The value a handler returns for an error, judged failed at every hop.
    static let errorValue = -7

    /// A handler: a leaf, or one that calls its children in turn until one returns a value.
    struct Node: Sendable {
        var name: String
        var children: [Node]
        var leaf: Leaf
        var onError: OnError
        /// For a handler with children, when none returned a value: whether it returns one of its own.
        var valueWhenNoneDid: Bool

        static func random(_ random: inout SeededGenerator, depth: Int = 0, counter: inout Int) -> Node {
            counter += 1
            let count = depth >= 3 ? 0 : Int.random(in: depth == 0 ? 1...3 : 0...3, using: &random)
            return Node(
                name: "H\(counter)",
                children: (0..<count).map { _ in Node.random(&random, depth: depth + 1, counter: &counter) },
                leaf: random.pick(Leaf.allCases),
                onError: random.pick(OnError.allCases),
                valueWhenNoneDid: random.chance(0.3)
            )
        }

        func run() throws -> Int? {
            try traceHop(name, command: 1, chain: "recovery", decide: Self.judge) { () throws -> Int? in
                try body { try $0.run() }
            }
        }

        func runAsync() async throws -> Int? {
            try await traceHop(name, command: 1, chain: "recovery", decide: Self.judge) { () async throws -> Int? in
                if children.isEmpty { return try leafResult() }
                for child in children {
                    do {
                        if let value = try await child.runAsync() { return value }
                    } catch {
                        return try caught(error)
                    }
                }
                return valueWhenNoneDid ? 0 : nil
            }
        }

        private func leafResult() throws -> Int? {
            switch leaf {
            case .accept: return 1
            case .pass: return nil
            case .fail: throw Failure(handler: name)
            case .returnError: return RecoveredFailureTests.errorValue
            }
        }

        /// Every hop's `decide`: the error value is a failure; anything else keeps the inferred decision.
        static let judge: @Sendable (Int?) -> Decision? = { $0 == RecoveredFailureTests.errorValue ? .failed : nil }

        /// What it returns after a handler it called threw `error`.
        private func caught(_ error: any Error) throws -> Int? {
            switch onError {
            case .recover: return -1
            case .giveUp: return nil
            case .rethrow: throw error
            }
        }

        private func body(_ call: (Node) throws -> Int?) throws -> Int? {
            if children.isEmpty { return try leafResult() }
            for child in children {
                do {
                    if let value = try call(child) { return value }
                } catch {
                    return try caught(error)
                }
            }
            return valueWhenNoneDid ? 0 : nil
        }
    }

    /// The model's run: the hops in order with their decisions, and the outcome.
    struct Expected: Equatable, CustomStringConvertible {
        var hops: [String] = []
        var decisions: [Decision] = []
        var outcome: Outcome = .fellOffTheEnd
        var description: String { "\(zip(hops, decisions).map { "\($0):\($1)" }) → \(outcome)" }
    }

    enum Returned { case value, nothing, error, errorValue }

    static func model(_ root: Node) -> Expected {
        var expected = Expected()
        var parents: [Int?] = []
        var returnedValue: [Bool] = []
        var thrown: Set<Int> = []
        func visit(_ node: Node, parent: Int?) -> Returned {
            let index = expected.hops.count
            expected.hops.append(node.name)
            expected.decisions.append(.passed)
            parents.append(parent)
            returnedValue.append(false)
            var returned = Returned.nothing
            if node.children.isEmpty {
                switch node.leaf {
                case .accept: returned = .value
                case .pass: returned = .nothing
                case .fail: returned = .error
                case .returnError: returned = .errorValue
                }
                expected.decisions[index] = returned == .value ? .accepted : returned == .nothing ? .passed : .failed
            } else {
                returned = node.valueWhenNoneDid ? .value : .nothing
                for child in node.children {
                    let result = visit(child, parent: index)
                    if result == .value || result == .errorValue {
                        returned = result
                        break
                    }
                    if result == .error {
                        returned = node.onError == .recover ? .value : node.onError == .giveUp ? .nothing : .error
                        break
                    }
                }
                let inside = (index + 1)..<expected.hops.count
                // A failure a hop inside it recovered from already is not caught again.
                func recoveredBelow(_ hop: Int) -> Bool {
                    var node = parents[hop]
                    while let ancestor = node, ancestor != index {
                        if returnedValue[ancestor] { return true }
                        node = parents[ancestor]
                    }
                    return false
                }
                if returned == .value, inside.contains(where: { thrown.contains($0) && !recoveredBelow($0) }),
                    !inside.contains(where: { expected.decisions[$0] == .accepted })
                {
                    // Caught a failure and handled the command itself.
                    expected.decisions[index] = .accepted
                } else {
                    // Forwarded: a value came from inside, nothing was returned, or an error was handed up.
                    expected.decisions[index] = .passed
                }
            }
            returnedValue[index] = returned == .value
            if node.children.isEmpty, returned == .error { thrown.insert(index) }
            return returned
        }
        _ = visit(root, parent: nil)
        func recovered(_ hop: Int) -> Bool {
            var node = parents[hop]
            while let ancestor = node {
                if returnedValue[ancestor] { return true }
                node = parents[ancestor]
            }
            return false
        }
        if let failed = expected.decisions.indices.first(where: { expected.decisions[$0] == .failed && !recovered($0) })
        {
            let error = thrown.contains(failed) ? "\(expected.hops[failed]) broke (Failure)" : "\(Self.errorValue)"
            expected.outcome = .failed(at: expected.hops[failed], error: error)
        } else if let accepted = expected.decisions.lastIndex(of: .accepted) {
            expected.outcome = .accepted(by: expected.hops[accepted])
        }
        return expected
    }

    static func recorded(_ trace: Trace) -> Expected {
        Expected(hops: trace.hops.map(\.handler), decisions: trace.hops.map(\.decision), outcome: trace.outcome)
    }

    @Test(arguments: SeededGenerator.seeds(80))
    func synchronousHandlersThatCatch(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var counter = 0
        let root = Node.random(&random, counter: &counter)
        let traces = captureTraces { _ = try? root.run() }
        let trace = try #require(traces.first, "seed \(seed)")
        #expect(Self.recorded(trace) == Self.model(root), "seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(80))
    func asyncHandlersThatCatch(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        var counter = 0
        let root = Node.random(&random, counter: &counter)
        let traces = await captureTraces { _ = try? await root.runAsync() }
        let trace = try #require(traces.first, "seed \(seed)")
        #expect(Self.recorded(trace) == Self.model(root), "seed \(seed)")
    }

    /// The property is not empty: the seeds make fallbacks that recover, failures thrown out, and retries that
    /// work after a failure.
    @Test func theSeedsCoverEachCase() {
        var recovered = 0
        var thrownOut = 0
        var workedAfterAFailure = 0
        for seed in SeededGenerator.seeds(80) {
            var random = SeededGenerator(seed: seed)
            var counter = 0
            let expected = Self.model(Node.random(&random, counter: &counter))
            let failed = expected.decisions.contains(.failed)
            if failed, case .failed = expected.outcome { thrownOut += 1 }
            if failed, case .accepted(let by) = expected.outcome {
                let index = expected.hops.firstIndex(of: by)!
                if expected.decisions[(index + 1)...].contains(.failed) {
                    recovered += 1
                } else {
                    workedAfterAFailure += 1
                }
            }
        }
        #expect(
            recovered >= 3 && thrownOut >= 3 && workedAfterAFailure >= 3,
            "\(recovered), \(thrownOut), \(workedAfterAFailure)"
        )
    }

    /// `ChainTracing.decide` overrides everything: a handler that falls back and says it passed is *passed*, and the
    /// failure it caught still ends nothing.
    @Test func anOverrideKeepsItsDecision() async {
        let failing = AlwaysFailing()
        func fallBack(_ decision: Decision) -> Int {
            traceHop("Fallback", command: 1, chain: "recovery") { () -> Int in
                do { return try failing.run() } catch {
                    ChainTracing.decide(decision, reason: "fell back")
                    return -1
                }
            }
        }
        func fallBackAsync(_ decision: Decision) async -> Int {
            await traceHop("Fallback", command: 1, chain: "recovery") { () async -> Int in
                do { return try await failing.runAsync() } catch {
                    ChainTracing.decide(decision, reason: "fell back")
                    return -1
                }
            }
        }
        for decision in [Decision.passed, .continued, .accepted] {
            let traces = captureTraces { _ = fallBack(decision) }
            let asyncTraces = await captureTraces { _ = await fallBackAsync(decision) }
            for trace in [traces.first, asyncTraces.first] {
                #expect(trace?.hops.map(\.decision) == [decision, .failed], "\(decision)")
                #expect(trace?.outcome.failingHandler == nil, "\(decision): \(String(describing: trace?.outcome))")
            }
        }
    }

    /// A handler that always throws.
    struct AlwaysFailing {
        func run() throws -> Int {
            try traceHop("Primary", command: 1, chain: "recovery") { () throws -> Int in
                throw Failure(handler: "Primary")
            }
        }

        func runAsync() async throws -> Int {
            try await traceHop("Primary", command: 1, chain: "recovery") { () async throws -> Int in
                throw Failure(handler: "Primary")
            }
        }
    }
}
