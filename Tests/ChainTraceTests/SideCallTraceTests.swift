import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// Handlers that, while handling their command, send another command through another chain — an audit log, a
/// metrics chain — generated at random hops of generated chains, sync and async. Each side call is a trace of its
/// own, of its own chain; the command's trace is exactly what it is without the side calls (path, decisions,
/// outcome), and no trace holds a hop of another chain. Stages of one chain whose commands differ in type are
/// no side calls.
@Suite("Side calls into other chains", .tags(.concurrent))
struct SideCallTraceTests {
    typealias Behaviour = InstrumentedChainModelTests.Behaviour

    /// A handler of the audit chain: `String` commands; the last one sends a metric (a `Double`) through
    /// `metrics` when there is one — a side call from inside a side call.
    final class AuditNode: Sendable {
        let name: String
        let takes: String
        let next: AuditNode?
        let metrics: MetricNode?

        init(name: String, takes: String, next: AuditNode?, metrics: MetricNode?) {
            (self.name, self.takes, self.next, self.metrics) = (name, takes, next, metrics)
        }

        func handle(_ note: String) -> String? {
            traceHop(name, command: note, chain: "audit") {
                if next == nil { _ = metrics?.handle(Double(note.count)) }
                return note == takes ? name : next?.handle(note)
            }
        }

        func handle(_ note: String) async -> String? {
            await traceHop(name, command: note, chain: "audit") {
                await Task.yield()
                if next == nil { _ = await metrics?.handle(Double(note.count)) }
                return note == takes ? name : await next?.handle(note)
            }
        }

        /// The names a plain walk visits, and who takes it.
        func walk(_ note: String) -> (path: [String], taker: String?) {
            if note == takes { return ([name], name) }
            guard let next else { return ([name], nil) }
            let rest = next.walk(note)
            return ([name] + rest.path, rest.taker)
        }
    }

    /// The one handler of the metrics chain: takes every metric.
    final class MetricNode: Sendable {
        func handle(_ value: Double) -> String? { traceHop("Metric", command: value, chain: "metrics") { "Metric" } }
        func handle(_ value: Double) async -> String? {
            await traceHop("Metric", command: value, chain: "metrics") {
                await Task.yield()
                return "Metric"
            }
        }
    }

    /// A handler of the command's own chain (`Int` commands) that sends `sideCalls` notes to the audit chain
    /// before it decides.
    final class Node: Sendable {
        let name: String
        let behaviour: Behaviour
        let sideCalls: [String]
        let next: Node?
        let audit: AuditNode

        init(name: String, behaviour: Behaviour, sideCalls: [String], next: Node?, audit: AuditNode) {
            (self.name, self.behaviour, self.sideCalls, self.next, self.audit) = (
                name, behaviour, sideCalls, next, audit
            )
        }

        var role: HandlerRole {
            if case .observes = behaviour { .observer } else { .responder }
        }

        func handle(_ value: Int) throws -> String? {
            try traceHop(name, command: value, chain: "main", role: role) {
                for note in sideCalls { _ = audit.handle(note) }
                switch behaviour {
                case .accepts(let divisor) where value % divisor == 0: return name
                case .throwsOn(let divisor) where value % divisor == 0:
                    throw InstrumentedChainModelTests.Failure(handler: name)
                default: return try next?.handle(value)
                }
            }
        }

        func handle(_ value: Int) async throws -> String? {
            try await traceHop(name, command: value, chain: "main", role: role) {
                for note in sideCalls { _ = await audit.handle(note) }
                switch behaviour {
                case .accepts(let divisor) where value % divisor == 0: return name
                case .throwsOn(let divisor) where value % divisor == 0:
                    throw InstrumentedChainModelTests.Failure(handler: name)
                default: return try await next?.handle(value)
                }
            }
        }
    }

    struct Setup {
        var head: Node
        var behaviours: [Behaviour]
        var sideCalls: [[String]]
        var audit: AuditNode
        var auditCount: Int
        var hasMetrics: Bool

        /// The notes sent to the audit chain while `value` goes through the main chain, in order.
        func notes(for value: Int) -> [String] {
            InstrumentedChainModelTests.model(behaviours, value).path.indices.flatMap { sideCalls[$0] }
        }
    }

    static func setup(_ random: inout SeededGenerator) -> Setup {
        let hasMetrics = random.chance(0.5)
        let metrics = hasMetrics ? MetricNode() : nil
        var audit: AuditNode?
        let auditCount = Int.random(in: 1...3, using: &random)
        for index in (0..<auditCount).reversed() {
            audit = AuditNode(name: "Audit\(index)", takes: "note\(index)", next: audit, metrics: metrics)
        }
        let (_, behaviours) = InstrumentedChainModelTests.chain(&random, name: "main")
        let sideCalls = behaviours.map { _ in
            (0..<Int.random(in: 0...2, using: &random)).map { _ in "note\(Int.random(in: 0...3, using: &random))" }
        }
        var next: Node?
        for (index, behaviour) in behaviours.enumerated().reversed() {
            next = Node(name: "N\(index)", behaviour: behaviour, sideCalls: sideCalls[index], next: next, audit: audit!)
        }
        return Setup(
            head: next!,
            behaviours: behaviours,
            sideCalls: sideCalls,
            audit: audit!,
            auditCount: auditCount,
            hasMetrics: hasMetrics
        )
    }

    /// Checks `traces` against the model: the main ones (matched to `values` by payload), then every audit and
    /// metrics trace, counted.
    static func check(_ traces: [Trace], _ setup: Setup, values: [Int], seed: UInt64) {
        let main = traces.filter { $0.chain == "main" }
        let audits = traces.filter { $0.chain == "audit" }
        let metrics = traces.filter { $0.chain == "metrics" }
        #expect(main.count == values.count, "seed \(seed)")
        let notes = values.flatMap(setup.notes(for:))
        #expect(audits.count == notes.count, "seed \(seed): \(audits.count) audit traces for \(notes.count) notes")
        // The last audit handler sends a metric for each note that reaches it.
        let reachingTheLast = notes.filter { setup.audit.walk($0).path.count == setup.auditCount }.count
        #expect(metrics.count == (setup.hasMetrics ? reachingTheLast : 0), "seed \(seed)")
        #expect(main.count + audits.count + metrics.count == traces.count, "seed \(seed): a trace of no chain")
        for trace in main {
            guard case .integer(let value)? = trace.payload else {
                Issue.record("seed \(seed): a main trace without its command")
                continue
            }
            let expected = InstrumentedChainModelTests.model(setup.behaviours, Int(value))
            #expect(trace.path == expected.path, "seed \(seed), \(value): \(trace.path)")
            #expect(trace.hops.map(\.decision) == expected.decisions, "seed \(seed), \(value)")
            #expect(trace.outcome == expected.outcome, "seed \(seed), \(value)")
        }
        var expectedAudits = notes.map { setup.audit.walk($0).path }
        for trace in audits {
            guard case .string(let note)? = trace.payload else {
                Issue.record("seed \(seed): an audit trace without its note")
                continue
            }
            let walk = setup.audit.walk(note)
            #expect(trace.path == walk.path, "seed \(seed), \(note): \(trace.path)")
            #expect(trace.outcome == (walk.taker.map { .accepted(by: $0) } ?? .fellOffTheEnd), "seed \(seed), \(note)")
            if let index = expectedAudits.firstIndex(of: trace.path) { expectedAudits.remove(at: index) }
        }
        #expect(expectedAudits.isEmpty, "seed \(seed): audit walks with no trace: \(expectedAudits)")
        for trace in metrics {
            #expect(trace.path == ["Metric"] && trace.outcome == .accepted(by: "Metric"), "seed \(seed)")
        }
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func syncSideCallsAreTracesOfTheirOwn(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let setup = Self.setup(&random)
        let values = (0..<12).map { _ in Int.random(in: 1...100, using: &random) }
        let traces = captureTraces(payloads: .captured) {
            for value in values { _ = try? setup.head.handle(value) }
        }
        Self.check(traces, setup, values: values, seed: seed)
    }

    @Test(arguments: SeededGenerator.seeds(15))
    func asyncSideCallsAreTracesOfTheirOwnWhileCommandsRunAtOnce(seed: UInt64) async {
        var random = SeededGenerator(seed: seed)
        let setup = Self.setup(&random)
        let values = (0..<12).map { _ in Int.random(in: 1...100, using: &random) }
        let traces = await captureTraces(payloads: .captured) {
            await withTaskGroup(of: Void.self) { group in
                for value in values { group.addTask { _ = try? await setup.head.handle(value) } }
            }
        }
        Self.check(traces, setup, values: values, seed: seed)
    }

    /// Stages that each hold a request of their own type, as the seed sign-up flow does, instrumented with their own
    /// request as the command under one chain's name (or, past the first, no name): each command is one trace of
    /// all its stages, sync and async, however the stages' types differ — they are not side calls.
    struct UsernameRequest: Sendable { var name: String }
    struct AuthRequest: Sendable { var name: String }
    struct PhotoRequest: Sendable { var bytes: Int }
    struct ProfileRequest: Sendable { var bio: String }

    enum StageError: Error { case rejected(String) }

    /// One stage: its own request as the command, failing when `fails` says, else handing on to `next`.
    final class Stage<Request: Sendable>: Sendable {
        let name: String
        let request: Request
        let fails: Bool
        let namesChain: Bool
        let next: (any StageHandling)?

        init(_ name: String, request: Request, fails: Bool, namesChain: Bool, next: (any StageHandling)?) {
            (self.name, self.request, self.fails, self.namesChain, self.next) = (name, request, fails, namesChain, next)
        }
    }

    static func stages(_ random: inout SeededGenerator) -> (head: any StageHandling, names: [String], failing: Int?) {
        let failing: Int? = random.chance(0.5) ? Int.random(in: 0..<4, using: &random) : nil
        let namesChain = (0..<4).map { $0 == 0 || random.chance(0.5) }
        let profile = Stage(
            "SaveProfile",
            request: ProfileRequest(bio: "b"),
            fails: failing == 3,
            namesChain: namesChain[3],
            next: nil
        )
        let photo = Stage(
            "UploadPhoto",
            request: PhotoRequest(bytes: 3),
            fails: failing == 2,
            namesChain: namesChain[2],
            next: profile
        )
        let auth = Stage(
            "Authenticate",
            request: AuthRequest(name: "n"),
            fails: failing == 1,
            namesChain: namesChain[1],
            next: photo
        )
        let head = Stage(
            "CheckUsername",
            request: UsernameRequest(name: "n"),
            fails: failing == 0,
            namesChain: namesChain[0],
            next: auth
        )
        let names = ["CheckUsername", "Authenticate", "UploadPhoto", "SaveProfile"]
        return (head, Array(names.prefix((failing ?? 3) + 1)), failing)
    }

    static func checkStages(_ traces: [Trace], names: [String], failing: Int?, count: Int, seed: UInt64) {
        #expect(traces.count == count, "seed \(seed): \(traces.map(\.path))")
        for trace in traces {
            #expect(trace.chain == "sign-up" && trace.path == names, "seed \(seed): \(trace.path)")
            if let failing {
                #expect(trace.outcome.failingHandler == names[failing], "seed \(seed): \(trace.outcome)")
            } else {
                #expect(trace.outcome == .accepted(by: "SaveProfile"), "seed \(seed): \(trace.outcome)")
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func stagesWithRequestsOfTheirOwnTypesAreOneTrace(seed: UInt64) async {
        var random = SeededGenerator(seed: seed)
        let (head, names, failing) = Self.stages(&random)
        let sync = captureTraces(payloads: .captured) {
            for _ in 0..<3 { _ = try? head.handle() }
        }
        Self.checkStages(sync, names: names, failing: failing, count: 3, seed: seed)
        let async = await captureTraces(payloads: .captured) {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<6 { group.addTask { _ = try? await head.handleAsync() } }
            }
        }
        Self.checkStages(async, names: names, failing: failing, count: 6, seed: seed)
    }
}

/// A stage of the sign-up flow, whatever its request's type.
protocol StageHandling: Sendable {
    func handle() throws -> Bool
    func handleAsync() async throws -> Bool
}

extension SideCallTraceTests.Stage: StageHandling {
    func handle() throws -> Bool {
        try traceHop(name, command: request, chain: namesChain ? "sign-up" : "") {
            if fails { throw SideCallTraceTests.StageError.rejected(name) }
            guard let next else { return true }
            return try next.handle()
        }
    }

    func handleAsync() async throws -> Bool {
        try await traceHop(name, command: request, chain: namesChain ? "sign-up" : "") {
            await Task.yield()
            if fails { throw SideCallTraceTests.StageError.rejected(name) }
            guard let next else { return true }
            return try await next.handleAsync()
        }
    }
}
