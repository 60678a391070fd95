import ChainTrace
import Testing

/// Hops an integration opens and closes around its own awaits (`ChainTracing.openJoinedHop`) record what the same
/// chain written with `traceHop` records: the path, each hop's decision, the failure's origin, nesting.
@Suite("Joined hops record what traceHop records")
struct JoinedHopTests {
    struct Boom: Error {}

    /// A link as an integration writes it: joined when it can be, else through `traceHop`.
    static func link(_ name: String, _ call: () async throws -> String) async throws -> String {
        switch ChainTracing.openJoinedHop(name, commandType: String.self, chain: "links") {
        case .untraced:
            return try await call()
        case .opened(let hop):
            do {
                let value = try await call()
                ChainTracing.closeJoinedHop(hop, threw: nil)
                return value
            } catch {
                ChainTracing.closeJoinedHop(hop, threw: error)
                throw error
            }
        case .needsTraceHop:
            return try await traceHop(name, command: "request", chain: "links") { try await call() }
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

    @Test("outside any trace no hop opens: the first hop of a command goes through traceHop")
    func outsideAnyTrace() async throws {
        let sink = InMemoryTraceSink()
        #expect(try await Self.send(fails: false) == "answer")
        #expect(sink.traces.isEmpty)
        // Untraced when no recorder is in force anywhere; needing traceHop when another test's is: never opened.
        if case .opened = ChainTracing.openJoinedHop("Alone", commandType: String.self, chain: "links") {
            Issue.record("a hop opened outside any trace")
        }
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
}
