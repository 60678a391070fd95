import ChainTrace
import ChainTraceTestSupport
import Testing

/// An async trace keeps its root task's hops as one thread's until a hop of another task opens; then it gives the
/// open ones the bookkeeping of tasks, as if they had had it all along. On generated chains that fan out at their end
/// — with failures caught on the way, before the fan-out and inside it — the same chain must record the same hops
/// (names, parents, decisions) and the same outcome whether its fan-out runs in child tasks at once (the trace is
/// shared among tasks mid-command) or one after the other in the root task (it never is).
@Suite("An async trace shared among tasks mid-command records what one task's would", .tags(.concurrent))
struct RootTaskEscalationTests {
    struct Failure: Error {}

    /// One handler: it may first look something up (a hop that accepts) and call a hop that throws, catching its
    /// error; then it forwards to `next`, or fans out to `fanOut`'s chains, or answers (`accepts`: a value, else
    /// `nil`); and it may then throw an error of its own (`throwsAfter`). An observer continues.
    final class Node: Sendable {
        let name: String
        let looksUp: Bool
        let catchesFailure: Bool
        let next: Node?
        let fanOut: [Node]
        let accepts: Bool
        let throwsAfter: Bool
        let role: HandlerRole

        init(
            name: String,
            looksUp: Bool,
            catchesFailure: Bool,
            next: Node?,
            fanOut: [Node],
            accepts: Bool,
            throwsAfter: Bool,
            role: HandlerRole
        ) {
            self.name = name
            self.looksUp = looksUp
            self.catchesFailure = catchesFailure
            self.next = next
            self.fanOut = fanOut
            self.accepts = accepts
            self.throwsAfter = throwsAfter
            self.role = role
        }

        func handle(_ command: NumberedCommand, concurrently: Bool) async throws -> Int? {
            try await traceHop(name, command: command, chain: "escalation", role: role) {
                if looksUp {
                    _ = await traceHop("\(name).lookup", command: command, chain: "escalation") {
                        await Task.yield()
                        return 1
                    }
                }
                if catchesFailure {
                    do { _ = try await Self.fail("\(name).failing", command) } catch {}
                }
                let answer = try await forward(command, concurrently: concurrently)
                if throwsAfter { throw Failure() }
                return answer
            }
        }

        private func forward(_ command: NumberedCommand, concurrently: Bool) async throws -> Int? {
            if let next { return try await next.handle(command, concurrently: concurrently) }
            guard !fanOut.isEmpty else { return accepts ? command.value : nil }
            var found: Int?
            if concurrently {
                found = await withTaskGroup(of: Int?.self) { group in
                    for chain in fanOut {
                        group.addTask { try? await chain.handle(command, concurrently: true) }
                    }
                    var first: Int?
                    for await answer in group { first = first ?? answer }
                    return first
                }
            } else {
                for chain in fanOut {
                    let answer = try? await chain.handle(command, concurrently: false)
                    found = found ?? answer
                }
            }
            return found
        }

        static func fail(_ name: String, _ command: NumberedCommand) async throws -> Int? {
            try await traceHop(name, command: command, chain: "escalation") {
                // A suspension: the hop may end on another thread than it began.
                await Task.yield()
                throw Failure()
            }
        }
    }

    static func chain(_ random: inout SeededGenerator, prefix: String, length: Int, fansOut: Bool) -> Node {
        var fanOut: [Node] = []
        if fansOut {
            fanOut = (0..<Int.random(in: 1...3, using: &random)).map { branch in
                chain(
                    &random,
                    prefix: "\(prefix).\(branch)",
                    length: Int.random(in: 1...3, using: &random),
                    fansOut: false
                )
            }
        }
        func node(_ level: Int, next: Node?, fanOut: [Node]) -> Node {
            Node(
                name: "\(prefix).\(level)",
                looksUp: Int.random(in: 0..<3, using: &random) == 0,
                catchesFailure: Int.random(in: 0..<3, using: &random) == 0,
                next: next,
                fanOut: fanOut,
                accepts: Bool.random(using: &random),
                throwsAfter: Int.random(in: 0..<5, using: &random) == 0,
                role: Int.random(in: 0..<4, using: &random) == 0 ? .observer : .responder
            )
        }
        var head = node(length - 1, next: nil, fanOut: fanOut)
        for level in stride(from: length - 2, through: 0, by: -1) { head = node(level, next: head, fanOut: []) }
        return head
    }

    /// The trace's hops as (name, parent's name, decision), sorted: hops of child tasks run in any order.
    static func summary(_ trace: Trace) -> [String] {
        trace.hops.map { hop in
            let parent = hop.parent.map { trace.hops[$0].handler } ?? "-"
            return "\(hop.handler) in \(parent): \(hop.decision)"
        }
        .sorted()
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func fanningOutInChildTasksRecordsWhatOneTaskWould(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let head = Self.chain(&random, prefix: "n", length: Int.random(in: 1...4, using: &random), fansOut: true)
        var summaries: [[String]] = []
        var outcomes: [String] = []
        var acceptors: [Set<String>] = []
        for concurrently in [false, true] {
            let sink = InMemoryTraceSink()
            await ChainTracing.withRecorder(Recorder(sink: sink)) {
                _ = try? await head.handle(NumberedCommand(value: 7), concurrently: concurrently)
            }
            let traces = sink.traces
            try #require(traces.count == 1, "seed \(seed): \(traces.count) traces of one command")
            summaries.append(Self.summary(traces[0]))
            // Branches that accept at once each may be the first to: the outcome names one of them.
            let outcome = "\(traces[0].outcome)"
            outcomes.append(String(outcome.prefix { $0 != " " }))
            acceptors.append(Set(traces[0].hops.filter { $0.decision == .accepted }.map(\.handler)))
            if let named = outcome.split(separator: " by ").dropFirst().first, outcome.hasPrefix("accepted") {
                #expect(acceptors[acceptors.count - 1].contains(String(named)), "seed \(seed): \(outcome)")
            }
        }
        #expect(summaries[1] == summaries[0], "seed \(seed): in child tasks, against in the root task")
        #expect(outcomes[1] == outcomes[0], "seed \(seed)")
    }
}
