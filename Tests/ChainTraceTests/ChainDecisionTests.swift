import ChainTrace
import ChainTraceTesting
import Testing

@Suite("Decisions recorded by chains built on ChainTrace types")
struct ChainDecisionTests {
    @Test func acceptingHandlerEndsTheChainAndTheTraceNamesIt() throws {
        let sink = InMemoryTraceSink()
        let chain = try coinChain(recordingInto: sink)
        let result = try chain.send(.dime)
        #expect(result == "Dime")
        let trace = try #require(sink.traces.first)
        expectPath(trace, ["Penny", "Nickel", "Dime"])
        #expect(trace.hops.map(\.decision) == [.passed, .passed, .accepted])
        expectHandled(trace, by: "Dime")
        #expect(trace.hops.map(\.position) == [0, 1, 2])
        #expect(trace.entry == "Penny")
        #expect(trace.chain == "coins")
        #expect(trace.commandKind == "Coin")
    }

    @Test func passReasonsAreKept() throws {
        let sink = InMemoryTraceSink()
        try coinChain(recordingInto: sink).send(.quarter)
        #expect(sink.traces[0].hops[0].reason == "diameter 24.26")
        #expect(sink.traces[0].hops[3].reason == nil)
    }

    @Test func commandNobodyAcceptsFallsOffTheEnd() throws {
        let sink = InMemoryTraceSink()
        let result = try coinChain(recordingInto: sink).send(.washer)
        #expect(result == nil)
        expectUnhandled(sink.traces[0])
        expectPath(sink.traces[0], ["Penny", "Nickel", "Dime", "Quarter"])
        #expect(sink.traces[0].hops.allSatisfy { $0.decision == .passed })
    }

    @Test func observerContinuesAndTheNextHandlerStillGetsTheCommand() throws {
        let sink = InMemoryTraceSink()
        let seen = Counter()
        let chain = try coinChain(recordingInto: sink)
        try chain.insert(.observer("Analytics") { _ in seen.increment() }, at: .first)
        #expect(try chain.send(.penny) == "Penny")
        #expect(seen.value == 1)
        #expect(sink.traces[0].hops.map(\.decision) == [.continued, .accepted])
        #expect(sink.traces[0].entry == "Analytics")
    }

    @Test func throwingHandlerFailsTheTraceWithItsNameAndError() throws {
        let sink = InMemoryTraceSink()
        let chain = try coinChain(recordingInto: sink)
        try chain.insert(
            Handler("Jammed") { _ in throw ValidationFailure(message: "coin slot jammed") },
            at: .after("Nickel")
        )
        #expect(throws: ValidationFailure(message: "coin slot jammed")) { try chain.send(.quarter) }
        let trace = try #require(sink.traces.first)
        expectFailed(trace, at: "Jammed", error: "coin slot jammed")
        #expect(trace.hops.last?.decision == .failed)
        #expect(trace.hops.last?.reason == "coin slot jammed (ValidationFailure)")
        #expect(!trace.visited("Quarter"))
    }

    @Test func continueWithHandsANewCommandToTheRest() throws {
        let sink = InMemoryTraceSink()
        let chain = try Chain<Int, String>(
            "pipeline",
            handlers: [
                Handler("Double") { .continue(with: $0 * 2) },
                Handler("Report") { .accept("got \($0)") },
            ],
            recorder: Recorder(sink: sink, payloads: .captured)
        )
        #expect(try chain.send(21) == "got 42")
        #expect(sink.traces[0].hops.map(\.decision) == [.continued, .accepted])
    }

    @Test func replacementsCarryOnThroughLaterStagesAndRegistryMembers() throws {
        let sink = InMemoryTraceSink()
        let chain = try Chain<Int, String>(
            "pipeline",
            handlers: [
                Handler("Double") { .continue(with: $0 * 2) },
                Handler("Observe") { _ in .continue },
                Handler("Report") { .accept("got \($0)") },
            ],
            recorder: Recorder(sink: sink, payloads: .captured)
        )
        let registry = try chain.addRegistry("Adjust", at: .before("Report"))
        try registry.register(Handler("AddOne") { .continue(with: $0 + 1) }, weight: 5)
        try registry.register(Handler("Check") { $0 == 11 ? .pass : .accept("saw \($0)") }, weight: 3)
        try registry.register(Handler("Triple") { .continue(with: $0 * 3) }, weight: 1)
        // 5 doubled is 10; the registry's members see 11 in turn, and Report gets 33.
        #expect(try chain.send(5) == "got 33")
        #expect(sink.traces[0].path == ["Double", "Observe", "Adjust", "AddOne", "Check", "Triple", "Report"])
        chain.recorder = .off
        #expect(try chain.send(1) == "saw 3")
    }

    @Test func timingsAreConsistentAndMeasureRealWork() throws {
        let sink = InMemoryTraceSink()
        let chain = try Chain<Int, Int>(
            "timed",
            handlers: [
                Handler("Fast") { _ in .pass },
                Handler("Slow") { _ in
                    spin(2_000_000)
                    return .pass
                },
                Handler("Last") { .accept($0) },
            ],
            recorder: Recorder(sink: sink, payloads: .captured)
        )
        try chain.send(1)
        let trace = sink.traces[0]
        let slow = try #require(trace.hop("Slow"))
        #expect(slow.selfDuration >= 2_000_000)
        #expect(slow.selfDuration == slow.inclusiveDuration)
        #expect(trace.hops.reduce(0) { $0 + $1.inclusiveDuration } == trace.duration)
        for (earlier, later) in zip(trace.hops, trace.hops.dropFirst()) {
            #expect(later.startOffset == earlier.startOffset + earlier.inclusiveDuration)
        }
        #expect(trace.duration >= 2_000_000)
    }

    @Test func untracedChainReturnsTheSameResults() throws {
        let chain = try coinChain()
        #expect(try chain.send(.nickel) == "Nickel")
        #expect(try chain.send(.washer) == nil)
    }

    @Test func payloadAndCommandIDAreCapturedForCodableCommands() throws {
        let sink = InMemoryTraceSink()
        try coinChain(recordingInto: sink).send(Coin(diameter: 19.05, weight: 2.5, serial: "c-1"))
        let trace = sink.traces[0]
        #expect(trace.commandID == "c-1")
        #expect(trace.payload == ["diameter": 19.05, "weight": 2.5, "serial": "c-1"])
    }

    @Test func payloadsAreCapturedOnlyWhenAsked() throws {
        let sink = InMemoryTraceSink()
        let chain = try coinChain()
        chain.recorder = Recorder(sink: sink)
        try chain.send(.penny)
        #expect(sink.traces[0].payload == nil)
        #expect(
            !Payloads.none.areCaptured && Payloads.captured.areCaptured
                && Payloads.captured(redacting: { _ in }).areCaptured
        )
    }
}
