import ChainTrace
import ChainTraceTestSupport
import Testing

/// Hops an integration records with a `LinearTrace` around its own awaits (a middleware stack's links) record what
/// the same chain written with `traceHop` records: the path, each hop's decision, the failure's origin, nesting; a
/// hop in a child task that inherited the binding records nothing.
@Suite("Linear traces record what traceHop records", .tags(.concurrent))
struct LinearTraceTests {
    struct Boom: Error {}

    /// A link as an integration writes it: a hop of the task's trace, or the first, which starts one (recording
    /// or not) and runs the link again with it bound.
    static func link(_ name: String, _ call: () async throws -> String) async throws -> String {
        switch LinearTrace.binding {
        case .untraced:
            return try await call()
        case .running(let trace):
            guard trace.open(name) else { return try await call() }
            do {
                let value = try await call()
                trace.close(threw: nil)
                return value
            } catch {
                trace.close(threw: error)
                throw error
            }
        case .none:
            var started: LinearTrace? = LinearTrace.start(command: "request", chain: "links")
            do {
                let value = try await started!.run { try await link(name, call) }
                LinearTrace.finish(&started)
                return value
            } catch {
                LinearTrace.finish(&started)
                throw error
            }
        }
    }

    /// Three links; the last answers, or throws when `fails`; the middle one recovers when `recovers`.
    static func send(fails: Bool, recovers: Bool = false) async throws -> String {
        try await link("First") {
            try await link("Middle") {
                do {
                    return try await link("Last") {
                        if fails { throw Boom() }
                        return "answer"
                    }
                } catch is Boom where recovers {
                    return "fallback"
                }
            }
        }
    }

    @Test("passed, passed, accepted: one trace, nested")
    func answered() async throws {
        let sink = InMemoryTraceSink()
        let value = try await ChainTracing.withRecorder(Recorder(sink: sink)) { try await Self.send(fails: false) }
        #expect(value == "answer")
        let trace = try #require(sink.traces.first)
        #expect(sink.traces.count == 1)
        #expect(trace.path == ["First", "Middle", "Last"])
        #expect(trace.hops.map(\.decision) == [.passed, .passed, .accepted])
        #expect(trace.hops.map(\.parent) == [nil, 0, 1])
        #expect(trace.outcome == .accepted(by: "Last"))
    }

    @Test("a throw fails at its origin; the hops it passes through stay passed")
    func thrown() async throws {
        let sink = InMemoryTraceSink()
        await #expect(throws: Boom.self) {
            try await ChainTracing.withRecorder(Recorder(sink: sink)) { try await Self.send(fails: true) }
        }
        let trace = try #require(sink.traces.first)
        #expect(trace.hops.map(\.decision) == [.passed, .passed, .failed])
        #expect(trace.outcome.failingHandler == "Last")
    }

    @Test("an error caught and answered is recovered by the hop that caught it")
    func recovered() async throws {
        let sink = InMemoryTraceSink()
        let value = try await ChainTracing.withRecorder(Recorder(sink: sink)) {
            try await Self.send(fails: true, recovers: true)
        }
        #expect(value == "fallback")
        let trace = try #require(sink.traces.first)
        #expect(trace.hops.map(\.decision) == [.passed, .accepted, .failed])
        #expect(trace.outcome == .accepted(by: "Middle"))
    }

    @Test("outside any trace nothing is bound")
    func outsideAnyTrace() async throws {
        #expect(try await Self.send(fails: false) == "answer")
        #expect({ if case .none = LinearTrace.binding { true } else { false } }())
        // Started where no recorder takes it, a trace records nothing, and binds the command as untraced.
        let untraced = LinearTrace.start(command: "request", chain: "never-claimed-\(UInt64.random(in: 0 ... .max))")
        if untraced.isTracing { return }  // another test's capture of unclaimed chains is open: nothing to check
        await untraced.run {
            #expect({ if case .untraced = LinearTrace.binding { true } else { false } }())
        }
    }

    @Test("a hop in a child task that inherited the binding is not recorded; the task's own are")
    func childTaskHopsAreNotRecorded() async throws {
        let sink = InMemoryTraceSink()
        let value = try await ChainTracing.withRecorder(Recorder(sink: sink)) {
            try await Self.link("First") {
                async let child = Self.link("InChild") { "child" }
                let inChild = try await child
                return try await Self.link("Last") { inChild + " answer" }
            }
        }
        #expect(value == "child answer")
        #expect(sink.traces.map(\.path) == [["First", "Last"]])
    }

    @Test("sampled out: every link runs untraced")
    func sampledOut() async throws {
        let sink = InMemoryTraceSink()
        let value = try await ChainTracing.withRecorder(Recorder(sink: sink, sampling: .oneIn(1_000_000_000))) {
            // The first command of a sampler may be taken: send until one is not.
            var last = ""
            for _ in 0..<3 { last = try await Self.send(fails: false) }
            return last
        }
        #expect(value == "answer")
        #expect(sink.traces.count <= 1)
        #expect(sink.traces.allSatisfy { $0.path == ["First", "Middle", "Last"] })
    }

    @Test("sampled one in two: a command is traced whole or not at all, never from a later link")
    func sampledHalf() async throws {
        let sink = InMemoryTraceSink()
        try await ChainTracing.withRecorder(Recorder(sink: sink, sampling: .oneIn(2))) {
            for _ in 0..<20 { _ = try await Self.send(fails: false) }
        }
        #expect(!sink.traces.isEmpty && sink.traces.count < 20, "\(sink.traces.count) of 20 traced")
        #expect(sink.traces.allSatisfy { $0.path == ["First", "Middle", "Last"] }, "\(sink.traces.map(\.path))")
    }
}
