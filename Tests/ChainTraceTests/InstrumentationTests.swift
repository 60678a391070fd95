import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

@Suite("Instrumenting chains users already have", .tags(.concurrent))
struct InstrumentationTests {
    func validators(delayedDime: UInt64 = 0) -> any CoinHandling {
        linked(
            [
                CoinValidator("Penny", .penny), CoinValidator("Nickel", .nickel),
                CoinValidator("Dime", .dime, delay: delayedDime), CoinValidator("Quarter", .quarter),
            ] as [any CoinHandling]
        ) { $0.next = $1 }
    }

    @Test func nestedHopsAreInferredPassedUntilTheOneThatReturnsAValue() {
        let sink = InMemoryTraceSink()
        let chain = validators()
        let coin = ChainTracing.withRecorder(Recorder(sink: sink, payloads: .captured)) { chain.validate(.dime) }
        #expect(coin == .dime)
        let trace = sink.traces[0]
        expectPath(trace, ["Penny", "Nickel", "Dime"])
        #expect(trace.hops.map(\.decision) == [.passed, .passed, .accepted])
        expectHandled(trace, by: "Dime")
        #expect(trace.chain == "validators")
        #expect(trace.entry == "Penny")
    }

    @Test func nilFromTheLastHandlerFallsOffTheEnd() {
        let sink = InMemoryTraceSink()
        let chain = validators()
        let coin = ChainTracing.withRecorder(Recorder(sink: sink, payloads: .captured)) { chain.validate(.washer) }
        #expect(coin == nil)
        expectUnhandled(sink.traces[0])
        #expect(sink.traces[0].hops.count == 4)
    }

    @Test func selfTimeExcludesNestedHopsAndInclusiveTimeIncludesThem() throws {
        let sink = InMemoryTraceSink()
        let chain = validators(delayedDime: 3_000_000)
        ChainTracing.withRecorder(Recorder(sink: sink, payloads: .captured)) { _ = chain.validate(.quarter) }
        let trace = sink.traces[0]
        let penny = try #require(trace.hop("Penny"))
        let dime = try #require(trace.hop("Dime"))
        #expect(dime.selfDuration >= 3_000_000)
        #expect(penny.inclusiveDuration >= 3_000_000)
        #expect(penny.selfDuration < 1_000_000)
        // Self times are converted from clock ticks one by one, so each may round by 1 ns.
        let selfTotal = trace.hops.reduce(0) { $0 + $1.selfDuration }
        #expect(penny.inclusiveDuration.distance(to: selfTotal).magnitude <= UInt64(trace.hops.count))
        #expect(trace.hops.map(\.startOffset) == trace.hops.map(\.startOffset).sorted())
    }

    @Test func observerRoleContinues() {
        let sink = InMemoryTraceSink()
        let counter = CoinCounter()
        counter.next = validators()
        ChainTracing.withRecorder(Recorder(sink: sink, payloads: .captured)) { _ = counter.validate(.penny) }
        #expect(counter.counter.value == 1)
        #expect(sink.traces[0].hops.map(\.decision) == [.continued, .accepted])
    }

    @Test func explicitDecisionOverridesTheInference() {
        final class Greedy: CoinHandling {
            var next: (any CoinHandling)?
            func validate(_ coin: Coin) -> Coin? {
                traceHop("Greedy", command: coin, chain: "instrumentation") {
                    ChainTracing.decide(.continued, reason: "looked only")
                    return next?.validate(coin)
                }
            }
        }
        let sink = InMemoryTraceSink()
        let greedy = Greedy()
        greedy.next = validators()
        ChainTracing.withRecorder(Recorder(sink: sink, payloads: .captured)) { _ = greedy.validate(.penny) }
        #expect(sink.traces[0].hops[0].decision == .continued)
        #expect(sink.traces[0].hops[0].reason == "looked only")
    }

    @Test func theHandlerThatThrewFirstIsNamedNotTheOnesItPassedThrough() throws {
        let sink = InMemoryTraceSink()
        let chain = linked(
            [
                RangeCheck("Small", 0..<10), RangeCheck("Medium", 10..<100, rejects: true),
                RangeCheck("Large", 100..<1000),
            ]
                as [any Checking]
        ) { $0.next = $1 }
        let recorder = Recorder(sink: sink, payloads: .captured)
        #expect(throws: ValidationFailure(message: "42 rejected by Medium")) {
            try ChainTracing.withRecorder(recorder) { try chain.check(42) }
        }
        #expect(try ChainTracing.withRecorder(recorder) { try chain.check(500) } == "Large")
        #expect(sink.traces[0].hops.map(\.decision) == [.passed, .failed])
        expectFailed(sink.traces[0], at: "Medium", error: "42 rejected by Medium")
        expectHandled(sink.traces[1], by: "Large")
    }

    @Test func aProtocolChainLinkedIntoALoopIsStoppedAndTheLoopNamed() throws {
        let sink = InMemoryTraceSink()
        let a = CoinValidator("A", .penny)
        let b = CoinValidator("B", .nickel)
        a.next = b
        b.next = a
        defer { b.next = nil }  // break the loop so the validators are freed
        // The limit is one global: read, never set here, so that no test running beside this one is stopped by it.
        let limit = ChainTracing.maximumHops
        let coin = ChainTracing.withRecorder(Recorder(sink: sink, payloads: .captured)) { a.validate(.washer) }
        #expect(coin == nil)
        let trace = sink.traces[0]
        #expect(trace.hops.count == limit + 1)
        guard case .failed(let handler, let error) = trace.outcome else {
            Issue.record("expected a failed outcome, got \(trace.outcome)")
            return
        }
        #expect(["A", "B"].contains(handler))
        #expect(error.contains("A → B") || error.contains("B → A"))

        // Sent again through a loop of long (heap-stored) names: the second trace follows the first's names, which
        // it does not store again, up to the same stop.
        let c = CoinValidator("Validator C of pennies", .penny)
        let d = CoinValidator("Validator D of nickels", .nickel)
        c.next = d
        d.next = c
        defer { d.next = nil }
        let loopSink = InMemoryTraceSink()
        ChainTracing.withRecorder(Recorder(sink: loopSink, payloads: .captured)) {
            #expect(c.validate(.washer) == nil)
            #expect(c.validate(.washer) == nil)
        }
        let loops = loopSink.traces
        #expect(loops.count == 2 && loops.allSatisfy { $0.hops.count == limit + 1 })
        #expect(loops.count == 2 && loops[0].path == loops[1].path && "\(loops[0].outcome)" == "\(loops[1].outcome)")

        // A chain longer than the limit, with no handler repeated, is stopped at the hop past it — as a hop limit,
        // not a loop.
        let long = linked((0..<(limit + 10)).map { CoinValidator("V\($0)", .penny) } as [any CoinHandling]) {
            $0.next = $1
        }
        let longSink = InMemoryTraceSink()
        #expect(
            ChainTracing.withRecorder(Recorder(sink: longSink, payloads: .captured)) { long.validate(.washer) } == nil
        )
        let longTrace = try #require(longSink.traces.first)
        #expect(longTrace.hops.count == limit + 1)
        guard case .failed("V\(limit)", let reason) = longTrace.outcome else {
            Issue.record("expected a failure at V\(limit), got \(longTrace.outcome)")
            return
        }
        #expect(
            reason.contains("no handler repeated") && reason.contains("maximumHops \(limit)")
                && !reason.contains("loops"),
            "\(reason)"
        )
    }

    @Test func withoutARecorderInstrumentedChainsRunUntraced() {
        let chain = validators()
        #expect(chain.validate(.nickel) == .nickel)
    }

    @Test func asyncHopsNestAcrossAwaitsAndErrorValuesFailTheStage() async {
        let sink = InMemoryTraceSink()
        let flow = signUpFlow()
        await ChainTracing.withRecorder(Recorder(sink: sink, payloads: .captured)) {
            #expect(await flow.handle(SignUpForm(username: "ada")) == nil)
            #expect(await flow.handle(SignUpForm(username: "taken")) == .usernameTaken("taken"))
            #expect(await flow.handle(SignUpForm(username: "nophoto")) == .uploadFailed)
        }
        let traces = sink.traces
        #expect(traces.count == 3)
        expectPath(traces[0], ["CheckUsername", "UploadPhoto", "SaveProfile"])
        expectHandled(traces[0], by: "SaveProfile")
        expectFailed(traces[1], at: "CheckUsername", error: "usernameTaken(\"taken\")")
        #expect(traces[2].outcome.failingHandler == "SaveProfile")
        #expect(traces[2].hops.map(\.decision) == [.passed, .passed, .failed])
    }

    @Test func concurrentAsyncFlowsNeverMixTheirHops() async {
        let sink = InMemoryTraceSink()
        let flow = signUpFlow()
        await ChainTracing.withRecorder(Recorder(sink: sink, payloads: .captured)) {
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for index in 0..<250 { _ = await flow.handle(SignUpForm(username: "user-\(task)-\(index)")) }
                    }
                }
            }
        }
        let traces = sink.traces
        #expect(traces.count == 2_000)
        for trace in traces {
            expectPath(trace, ["CheckUsername", "UploadPhoto", "SaveProfile"])
            expectHandled(trace, by: "SaveProfile")
            #expect(trace.payload?["username"]?.stringValue?.hasPrefix("user-") == true)
        }
        #expect(Set(traces.compactMap { $0.payload?["username"] }).count == 2_000)
    }

    @Test func scopedRecordersKeepParallelTestsApart() async {
        let first = InMemoryTraceSink()
        let second = InMemoryTraceSink()
        async let a: Void = ChainTracing.withRecorder(Recorder(sink: first, payloads: .captured)) {
            let chain = validators()
            for _ in 0..<100 { _ = chain.validate(.penny) }
        }
        async let b: Void = ChainTracing.withRecorder(Recorder(sink: second, payloads: .captured)) {
            let chain = validators()
            for _ in 0..<50 { _ = chain.validate(.quarter) }
        }
        _ = await (a, b)
        #expect(first.traces.count == 100)
        #expect(second.traces.count == 50)
        #expect(first.traces.allSatisfy { $0.outcome == .accepted(by: "Penny") })
        #expect(second.traces.allSatisfy { $0.outcome == .accepted(by: "Quarter") })
    }
}
