import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

@Suite("Async chains on ChainTrace types", .tags(.concurrent))
struct AsyncChainTests {
    func signUp(_ sink: InMemoryTraceSink) throws -> AsyncChain<SignUpForm, String> {
        try AsyncChain(
            "sign-up",
            handlers: [
                AsyncHandler("CheckUsername") { form in
                    await Task.yield()
                    if form.username == "taken" { throw SignUpError.usernameTaken(form.username) }
                    return .continue
                },
                AsyncHandler("UploadPhoto") { form in
                    await Task.yield()
                    var updated = form
                    updated.photoURL = "https://photos.example/\(form.username)"
                    return .continue(with: updated)
                },
                AsyncHandler("SaveProfile") { form in
                    await Task.yield()
                    guard let url = form.photoURL else { throw SignUpError.uploadFailed }
                    return .accept("\(form.username) \(url)")
                },
            ],
            recorder: Recorder(sink: sink, payloads: .captured)
        )
    }

    @Test func stagesContinueAndTheLastAccepts() async throws {
        let sink = InMemoryTraceSink()
        let result = try await signUp(sink).send(SignUpForm(username: "ada"))
        #expect(result == "ada https://photos.example/ada")
        #expect(sink.traces[0].hops.map(\.decision) == [.continued, .continued, .accepted])
    }

    @Test func aThrowingStageNamesItselfAndItsError() async throws {
        let sink = InMemoryTraceSink()
        await #expect(throws: SignUpError.usernameTaken("taken")) {
            try await signUp(sink).send(SignUpForm(username: "taken"))
        }
        expectFailed(sink.traces[0], at: "CheckUsername", error: "usernameTaken(\"taken\")")
        expectPath(sink.traces[0], ["CheckUsername"])
    }

    @Test func asyncRegistriesLoopsAndDryRunsBehaveLikeSyncOnes() async throws {
        let sink = InMemoryTraceSink()
        let chain = try AsyncChain<String, String>(
            "screens",
            handlers: [
                AsyncHandler("List") { $0 == "delete" ? .accept("List") : .pass },
                AsyncHandler("Window", canHandle: { $0 == "close" }) { $0 == "close" ? .accept("Window") : .pass },
            ],
            recorder: Recorder(sink: sink, payloads: .captured)
        )
        let registry = try chain.addRegistry("Late", at: .after("List"))
        try registry.register(AsyncHandler("Low") { $0 == "find" ? .accept("Low") : .pass }, weight: 1)
        try registry.register(AsyncHandler("High") { $0 == "find" ? .accept("High") : .pass }, weight: 9)
        #expect(try await chain.send("find") == "High")
        expectPath(sink.traces[0], ["List", "Late", "High"])
        #expect(sink.traces[0].hop("High")?.registry == "Late")

        #expect(try chain.whoWouldHandle("close").handler == "Window")

        try chain.link("Window", to: "List")
        let error = try await #require(throws: ChainError.self) { try await chain.send("nobody") }
        #expect(error.code == .loop)
        #expect(sink.traces.last?.outcome.failingHandler != nil)
    }

    @Test func eightTasksTimesTenThousandCommandsNeverMixHops() async throws {
        let sink = InMemoryTraceSink()
        let chain = try AsyncChain<Int, Int>(
            "parity",
            handlers: [
                AsyncHandler("Even") { $0 % 2 == 0 ? .accept($0) : .pass },
                AsyncHandler("Observer", role: .observer) { _ in .continue },
                AsyncHandler("Odd") { .accept($0) },
            ],
            recorder: Recorder(sink: sink, payloads: .captured)
        )
        let syncChain = try Chain<Int, Int>(
            "parity-sync",
            handlers: [Handler("Even") { $0 % 2 == 0 ? .accept($0) : .pass }, Handler("Odd") { .accept($0) }],
            recorder: Recorder(sink: sink, payloads: .captured)
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<10_000 {
                        let value = task * 10_000 + index
                        if task % 2 == 0 {
                            _ = try await chain.send(value)
                        } else {
                            _ = try syncChain.send(value)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let traces = sink.traces
        #expect(traces.count == 80_000)
        var seen = Set<Int64>()
        for trace in traces {
            guard case .integer(let value) = trace.payload else {
                Issue.record("trace \(trace.id) has no payload")
                continue
            }
            seen.insert(value)
            let even = value % 2 == 0
            let expected: [String] =
                even ? ["Even"] : (trace.chain == "parity" ? ["Even", "Observer", "Odd"] : ["Even", "Odd"])
            if trace.path != expected || trace.outcome != .accepted(by: even ? "Even" : "Odd") {
                Issue.record("trace of \(value) mixed: \(trace.path) \(trace.outcome)")
            }
        }
        #expect(seen.count == 80_000)
    }
}
