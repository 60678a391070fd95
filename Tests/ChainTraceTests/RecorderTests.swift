import ChainTrace
import ChainTraceTestSupport
import Testing

@Suite("Recorder: off, sampling, filtering, the ring bound, sinks", .tags(.concurrent))
struct RecorderTests {
    @Test func recorderOffRecordsNothing() throws {
        let chain = try coinChain()
        chain.recorder = .off
        #expect(!chain.recorder.isOn)
        #expect(try chain.send(.dime) == "Dime")
    }

    @Test func recorderCanBeSwitchedOffAndOnAtRunTime() throws {
        let sink = InMemoryTraceSink()
        let chain = try coinChain(recordingInto: sink)
        try chain.send(.penny)
        chain.recorder = .off
        try chain.send(.penny)
        chain.recorder = Recorder(sink: sink, payloads: .captured)
        try chain.send(.penny)
        #expect(sink.traces.count == 2)
    }

    @Test func samplingTracesOneCommandInN() throws {
        let sink = InMemoryTraceSink()
        let chain = try coinChain()
        chain.recorder = Recorder(sink: sink, sampling: .oneIn(100), payloads: .captured)
        for _ in 0..<1_000 { try chain.send(.quarter) }
        #expect(sink.traces.count == 10)
    }

    @Test func filterDecidesPerCommand() throws {
        let sink = InMemoryTraceSink()
        let chain = try coinChain()
        chain.recorder = Recorder(sink: sink, payloads: .captured) { (coin: Coin) in coin.weight > 5 }
        for coin in [Coin.penny, .nickel, .dime, .quarter, .washer] { try chain.send(coin) }
        #expect(sink.traces.map(\.outcome) == [.accepted(by: "Quarter"), .fellOffTheEnd])
    }

    /// A typed filter traces exactly the commands of its type it accepts, as filtering the sent list would; one
    /// taking `Any` sees every command; one for another type traces nothing.
    @Test(arguments: SeededGenerator.seeds(20))
    func typedFilterTracesWhatFilteringTheListKeeps(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let coins = (0..<Int.random(in: 0...40, using: &random)).map { _ in
            random.pick([Coin.penny, .nickel, .dime, .quarter, .washer])
        }
        let threshold = Double.random(in: 0...8, using: &random)
        let typed = InMemoryTraceSink()
        let untyped = InMemoryTraceSink()
        let otherType = InMemoryTraceSink()
        let chains = try (0..<3).map { _ in try coinChain() }
        chains[0].recorder = Recorder(sink: typed, payloads: .captured) { (coin: Coin) in coin.weight > threshold }
        chains[1].recorder = Recorder(sink: untyped, payloads: .captured) { (command: Any) in command is Coin }
        chains[2].recorder = Recorder(sink: otherType, payloads: .captured) { (_: String) in true }
        for coin in coins { for chain in chains { try chain.send(coin) } }
        let kept = coins.filter { $0.weight > threshold }
        #expect(typed.traces.count == kept.count, "seed \(seed)")
        #expect(untyped.traces.count == coins.count, "seed \(seed)")
        #expect(otherType.traces.isEmpty, "seed \(seed)")
    }

    @Test func boundedSinkKeepsTheNewestTracesAndCountsTheDropped() throws {
        let sink = InMemoryTraceSink(limit: 3)
        let chain = try coinChain(recordingInto: sink)
        for coin in [Coin.penny, .nickel, .dime, .quarter, .washer] { try chain.send(coin) }
        #expect(sink.traces.map(\.outcome) == [.accepted(by: "Dime"), .accepted(by: "Quarter"), .fellOffTheEnd])
        #expect(sink.droppedCount == 2)
    }

    @Test func boundedSinkKeepsTheNewestAcrossThreads() async throws {
        let sink = InMemoryTraceSink(limit: 50)
        let chain = try coinChain(recordingInto: sink)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { for _ in 0..<500 { _ = try? chain.send(.penny) } } }
        }
        let kept = sink.traces
        #expect(kept.count == 50)
        #expect(sink.droppedCount == 1_950)
        #expect(kept.map(\.startTime) == kept.map(\.startTime).sorted())
    }

    @Test func removeAllForgetsTraces() throws {
        let sink = InMemoryTraceSink()
        try coinChain(recordingInto: sink).send(.penny)
        sink.removeAll()
        #expect(sink.traces.isEmpty)
    }

    @Test func customSinksReceiveEveryTraceThroughAFanOut() throws {
        let first = InMemoryTraceSink()
        let outcomes = OutcomeCollector()
        let chain = try coinChain()
        chain.recorder = Recorder(sink: FanOutTraceSink([first, outcomes]), payloads: .captured)
        try chain.send(.dime)
        try chain.send(.washer)
        #expect(first.traces.count == 2)
        #expect(outcomes.outcomes == [.accepted(by: "Dime"), .fellOffTheEnd])
    }

    @Test func traceIDsAreUniqueAcrossThreads() async throws {
        let sink = InMemoryTraceSink()
        let chain = try coinChain(recordingInto: sink)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { for _ in 0..<1_000 { _ = try? chain.send(.nickel) } } }
        }
        #expect(Set(sink.traces.map(\.id)).count == 4_000)
    }

    @Test func commandKindComesFromTracedCommandOrTheTypeName() throws {
        enum Action: TracedCommand {
            case copy, paste
            var commandKind: String { "\(self)" }
        }
        let sink = InMemoryTraceSink()
        let actions = try Chain<Action, Bool>(
            "actions",
            handlers: [Handler("Editor") { _ in .accept(true) }],
            recorder: Recorder(sink: sink, payloads: .captured)
        )
        try actions.send(.paste)
        let numbers = try Chain<Int, Bool>(
            "numbers",
            handlers: [Handler("Any") { _ in .accept(true) }],
            recorder: Recorder(sink: sink, payloads: .captured)
        )
        try numbers.send(1)
        #expect(sink.traces.map(\.commandKind) == ["paste", "Int"])
        #expect(sink.traces.map(\.payload) == [nil, .integer(1)])
    }
}

/// A sink of our own, as a user would write one.
final class OutcomeCollector: TraceSink, @unchecked Sendable {
    // Appended under `lock` only.
    private var collected: [Outcome] = []
    private let mutex = NSLockBox()

    func record(_ trace: Trace) { mutex.locked { collected.append(trace.outcome) } }
    var outcomes: [Outcome] { mutex.locked { collected } }
}
