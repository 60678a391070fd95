import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// Protocol chains of the kind users already have — each handler tries the command and otherwise calls the next
/// one — generated with responders, observers and handlers that throw, instrumented with one `traceHop` each,
/// sync and async. The trace's path, every hop's inferred decision and the outcome match what a plain walk of
/// the same handlers says.
@Suite("Instrumented chains against a model", .tags(.concurrent))
struct InstrumentedChainModelTests {
    struct Failure: Error, CustomStringConvertible {
        var handler: String
        var description: String { "\(handler) broke" }
    }

    enum Behaviour: Sendable {
        case accepts(multipleOf: Int)
        case observes
        case throwsOn(multipleOf: Int)
    }

    /// A handler of an existing protocol chain: an Optional result, a `next` it calls when the command is not its.
    final class Node: Sendable {
        let name: String
        let behaviour: Behaviour
        let next: Node?
        let chain: String

        init(name: String, behaviour: Behaviour, next: Node?, chain: String) {
            self.name = name
            self.behaviour = behaviour
            self.next = next
            self.chain = chain
        }

        func handle(_ value: Int) throws -> String? {
            try traceHop(name, command: value, chain: chain, role: role) {
                switch behaviour {
                case .accepts(let divisor) where value % divisor == 0: return name
                case .throwsOn(let divisor) where value % divisor == 0: throw Failure(handler: name)
                default: return try next?.handle(value)
                }
            }
        }

        func handle(_ value: Int) async throws -> String? {
            try await traceHop(name, command: value, chain: chain, role: role) {
                await Task.yield()
                switch behaviour {
                case .accepts(let divisor) where value % divisor == 0: return name
                case .throwsOn(let divisor) where value % divisor == 0: throw Failure(handler: name)
                default: return try await next?.handle(value)
                }
            }
        }

        var role: HandlerRole {
            if case .observes = behaviour { .observer } else { .responder }
        }
    }

    /// What a plain walk says: the hops with their decisions, and the outcome.
    static func model(_ behaviours: [Behaviour], _ value: Int) -> (
        path: [String], decisions: [Decision], outcome: Outcome
    ) {
        var path: [String] = []
        var decisions: [Decision] = []
        for (index, behaviour) in behaviours.enumerated() {
            let name = "N\(index)"
            path.append(name)
            switch behaviour {
            case .accepts(let divisor) where value % divisor == 0:
                decisions.append(.accepted)
                return (path, decisions, .accepted(by: name))
            case .throwsOn(let divisor) where value % divisor == 0:
                decisions.append(.failed)
                return (path, decisions, .failed(at: name, error: "\(name) broke (Failure)"))
            case .observes:
                decisions.append(.continued)
            default:
                decisions.append(.passed)
            }
        }
        // The last handler forwarded to nobody: it passed, and the command fell off the end.
        return (path, decisions, .fellOffTheEnd)
    }

    static func chain(_ random: inout SeededGenerator, name: String) -> (Node, [Behaviour]) {
        let behaviours: [Behaviour] = (0..<Int.random(in: 1...7, using: &random)).map { _ in
            switch Int.random(in: 0..<6, using: &random) {
            case 0: .observes
            case 1: .throwsOn(multipleOf: Int.random(in: 5...11, using: &random))
            default: .accepts(multipleOf: Int.random(in: 2...9, using: &random))
            }
        }
        var next: Node?
        for (index, behaviour) in behaviours.enumerated().reversed() {
            next = Node(name: "N\(index)", behaviour: behaviour, next: next, chain: name)
        }
        return (next!, behaviours)
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func syncChainsRecordWhatAPlainWalkSays(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (head, behaviours) = Self.chain(&random, name: "sync-\(seed)")
        let values = (0..<20).map { _ in Int.random(in: 1...100, using: &random) }
        let traces = captureTraces(payloads: .captured) {
            for value in values { _ = try? head.handle(value) }
        }
        #expect(traces.count == values.count, "seed \(seed)")
        for (trace, value) in zip(traces, values) {
            let expected = Self.model(behaviours, value)
            #expect(trace.path == expected.path, "seed \(seed), \(value)")
            #expect(trace.hops.map(\.decision) == expected.decisions, "seed \(seed), \(value)")
            #expect(trace.outcome == expected.outcome, "seed \(seed), \(value)")
            // Nested hops: each hop's inclusive time holds the ones after it, so self times never exceed it.
            #expect(trace.hops.allSatisfy { $0.selfDuration <= $0.inclusiveDuration }, "seed \(seed)")
        }
    }

    @Test(arguments: SeededGenerator.seeds(15))
    func asyncChainsRecordWhatAPlainWalkSaysWhileRunningAtOnce(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let (head, behaviours) = Self.chain(&random, name: "async-\(seed)")
        let values = (0..<20).map { _ in Int.random(in: 1...100, using: &random) }
        let traces = await captureTraces(payloads: .captured) {
            await withTaskGroup(of: Void.self) { group in
                for value in values { group.addTask { _ = try? await head.handle(value) } }
            }
        }
        #expect(traces.count == values.count, "seed \(seed)")
        // They ran at once: match each trace to its command by the payload, and every one as the model says.
        for trace in traces {
            guard case .integer(let value)? = trace.payload else {
                Issue.record("seed \(seed): a trace without its command")
                continue
            }
            let expected = Self.model(behaviours, Int(value))
            #expect(
                trace.path == expected.path && trace.hops.map(\.decision) == expected.decisions,
                "seed \(seed), \(value): \(trace.path)"
            )
            #expect(trace.outcome == expected.outcome, "seed \(seed), \(value)")
        }
    }

    /// A responder tree: a node takes a command or hands it to one of its children, chosen by the command — so the
    /// handler at a given depth differs from one command to the next.
    final class TreeNode: Sendable {
        let name: String
        let takes: Int
        let children: [TreeNode]
        let chain: String

        init(name: String, takes: Int, children: [TreeNode], chain: String) {
            (self.name, self.takes, self.children, self.chain) = (name, takes, children, chain)
        }

        func handle(_ value: Int) -> String? {
            traceHop(name, command: value, chain: chain) {
                if value % takes == 0 || children.isEmpty { return value % takes == 0 ? name : nil }
                return children[value % children.count].handle(value)
            }
        }

        /// The path a plain walk takes, and who took the command.
        func walk(_ value: Int) -> (path: [String], taker: String?) {
            if value % takes == 0 { return ([name], name) }
            guard !children.isEmpty else { return ([name], nil) }
            let rest = children[value % children.count].walk(value)
            return ([name] + rest.path, rest.taker)
        }

        static func random(_ random: inout SeededGenerator, depth: Int, name: String, chain: String) -> TreeNode {
            let count = depth == 0 ? 0 : Int.random(in: 0...3, using: &random)
            // Names of every length: short ones are stored in the string itself, long ones in an allocation.
            let label = Bool.random(using: &random) ? name : "\(name)-a-handler-with-a-long-name"
            return TreeNode(
                name: label,
                takes: Int.random(in: 3...13, using: &random),
                children: (0..<count).map {
                    Self.random(&random, depth: depth - 1, name: "\(name).\($0)", chain: chain)
                },
                chain: chain
            )
        }
    }

    /// Commands sent in turn through two trees on one thread: every trace names the handlers its own command
    /// visited, though the trace before it — of the other tree, or of another branch — named others at the same
    /// depths (a trace shares the names of the one before only when they are the same).
    @Test(arguments: SeededGenerator.seeds(30))
    func branchingTreesNameEveryHopOfTheirOwnPath(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let trees = (0..<2).map {
            TreeNode.random(
                &random,
                depth: Int.random(in: 1...4, using: &random),
                name: "T\($0)",
                chain: "tree-\(seed)-\($0)"
            )
        }
        let sends = (0..<40).map { _ in
            (tree: Int.random(in: 0..<2, using: &random), value: Int.random(in: 1...500, using: &random))
        }
        let traces = captureTraces(payloads: .captured) {
            for send in sends { _ = trees[send.tree].handle(send.value) }
        }
        #expect(traces.count == sends.count, "seed \(seed)")
        for (trace, send) in zip(traces, sends) {
            let expected = trees[send.tree].walk(send.value)
            #expect(trace.path == expected.path, "seed \(seed), tree \(send.tree), \(send.value)")
            #expect(trace.chain == "tree-\(seed)-\(send.tree)", "seed \(seed)")
            #expect(
                trace.outcome == (expected.taker.map { .accepted(by: $0) } ?? .fellOffTheEnd),
                "seed \(seed), \(send.value)"
            )
        }
    }
}
