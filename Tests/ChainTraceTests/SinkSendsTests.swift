import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

/// Sinks whose code sends commands of its own — an analytics pipeline that every trace is forwarded through, a
/// sink that relays through an instrumented handler, one that changes a chain — generated: every way a trace is
/// made (a ``Chain``, an ``AsyncChain``, instrumented hops sync and async, chain changes), under a sampling
/// recorder whose sink forwards each trace it takes through chains that record into that same sink. Before sinks'
/// own sends were left untraced, the sink took the trace of its forwarding, forwarded that, and so on until the
/// stack ran out (a user's package crashed on its first command). Checked against the same run with a sink that
/// forwards nothing: the sink takes exactly the same traces, is never re-entered on its thread with a trace, every
/// forwarded command ran, and commands sent after a sink returned are traced again.
@Suite("Sinks that send commands of their own")
struct SinkSendsTests {
    struct Order: Sendable, Codable { var id: Int }
    struct Event: Sendable, Codable { var id: Int }

    enum Origin: CaseIterable { case chain, asyncChain, hops, asyncHops, edits }

    /// What the sink does with each trace it takes.
    enum Reaction: CaseIterable {
        /// Sends an event through a `Chain` whose own recorder records into the sink.
        case chain
        /// Runs an instrumented handler for an event (the scope's recorder records into the sink).
        case hops
        /// Runs an instrumented relay that sends the event through the `Chain`: a side call inside the sink's send.
        case sideCall
        /// Adds a handler to the pipeline's chain and removes it: two chain changes, recorded into the sink.
        case edit

        /// How many pipeline handlers the reaction runs.
        var handlerRuns: Int {
            switch self {
            case .chain, .hops: 1
            case .sideCall: 2
            case .edit: 0
            }
        }
    }

    /// The chains a sink forwards through, counting the handlers that ran.
    final class Pipeline: Sendable {
        let runs = Counter()
        let chain: Chain<Event, Bool>

        init(recorder: Recorder) throws {
            let runs = runs
            chain = try Chain<Event, Bool>(
                "pipeline",
                handlers: [
                    Handler("Upload") { _ in
                        runs.add()
                        return .accept(true)
                    }
                ],
                recorder: recorder
            )
        }

        func react(_ reaction: Reaction, to id: Int) {
            switch reaction {
            case .chain:
                _ = try? chain.send(Event(id: id))
            case .hops:
                traceHop("Collector", command: Event(id: id), chain: "collector") { runs.add() }
            case .sideCall:
                traceHop("Relay", command: Event(id: id), chain: "relay") {
                    runs.add()
                    _ = try? chain.send(Event(id: id))
                }
            case .edit:
                try? chain.insert(Handler("Extra") { _ in .pass }, at: .last)
                try? chain.remove("Extra")
            }
        }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// Takes traces and chain changes, and reacts to each trace by running `reactions` through `pipeline` — unless
    /// it is already taking a trace on this thread (it was handed a trace of its own forwarding): then it counts
    /// that and stops, so that the run ends either way.
    final class ForwardingSink: TraceSink, @unchecked Sendable {
        let reactions: [Reaction]
        /// The pipeline, whose chain records into this sink: a cycle, broken by ``letGo()``.
        var pipeline: Pipeline?
        private let lock = NSLock()
        private var traceSummaries: [String] = []
        private var editSummaries: [String] = []
        private var depths: [ObjectIdentifier: Int] = [:]
        private var reentries = 0

        init(reactions: [Reaction]) {
            self.reactions = reactions
        }

        var traces: [String] { lock.withLock { traceSummaries } }
        var edits: [String] { lock.withLock { editSummaries } }
        var reentered: Int { lock.withLock { reentries } }

        func record(_ trace: Trace) {
            let thread = ObjectIdentifier(Thread.current)
            let nested = lock.withLock {
                traceSummaries.append("\(trace.chain): \(trace.path.joined(separator: " → ")) \(trace.outcome)")
                depths[thread, default: 0] += 1
                if depths[thread]! > 1 { reentries += 1 }
                return depths[thread]! > 1
            }
            if !nested, let pipeline {
                for reaction in reactions { pipeline.react(reaction, to: Int(trace.id % 1000)) }
            }
            lock.withLock { depths[thread]! -= 1 }
        }

        /// Drops the pipeline, whose chain holds this sink through its recorder.
        func letGo() { pipeline = nil }

        func record(_ edit: ChainEdit) {
            lock.withLock { editSummaries.append("\(edit.chain) \(edit.kind) \(edit.handler)") }
        }
    }

    struct Scenario: CustomStringConvertible {
        let seed: UInt64
        let origin: Origin
        let orders: [Int]
        let reactions: [Reaction]
        let interval: Int

        init(seed: UInt64) {
            var random = SeededGenerator(seed: seed)
            self.seed = seed
            origin = Origin.allCases.randomElement(using: &random)!
            orders = (0..<Int.random(in: 1...6, using: &random)).map { _ in Int.random(in: 0..<4, using: &random) }
            reactions = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                Reaction.allCases.randomElement(using: &random)!
            }
            interval = Int.random(in: 1...3, using: &random)
        }

        var description: String {
            "seed \(seed): \(origin), orders \(orders), reactions \(reactions), 1 in \(interval)"
        }
    }

    /// An instrumented order handler of a `next`-linked chain of three: the one whose number is the order's id
    /// modulo 3 takes it.
    final class OrderHop: Sendable {
        let index: Int
        let next: OrderHop?
        init(_ index: Int, next: OrderHop?) { (self.index, self.next) = (index, next) }

        func handle(_ order: Order) -> Int? {
            traceHop("Step\(index)", command: order, chain: "orders") {
                order.id % 3 == index ? index : next?.handle(order)
            }
        }

        func handle(_ order: Order) async -> Int? {
            await traceHop("Step\(index)", command: order, chain: "orders") {
                await Task.yield()
                return order.id % 3 == index ? index : await next?.handle(order)
            }
        }
    }

    static func orderHandlers() -> [Handler<Order, Int>] {
        (0..<3).map { index in Handler("Step\(index)") { $0.id % 3 == index ? .accept(index) : .pass } }
    }

    /// Runs `scenario` into `sink`.
    static func run(_ scenario: Scenario, into sink: ForwardingSink) async throws {
        let recorder = Recorder(sink: sink, sampling: .oneIn(scenario.interval))
        sink.pipeline = try Pipeline(recorder: Recorder(sink: sink))
        let hops = OrderHop(0, next: OrderHop(1, next: OrderHop(2, next: nil)))
        switch scenario.origin {
        case .chain:
            let chain = try Chain<Order, Int>("orders", handlers: orderHandlers(), recorder: recorder)
            try ChainTracing.withRecorder(recorder) {
                for id in scenario.orders { _ = try chain.send(Order(id: id)) }
            }
        case .asyncChain:
            let chain = try AsyncChain<Order, Int>(
                "orders",
                handlers: orderHandlers().map { AsyncHandler($0) },
                recorder: recorder
            )
            try await ChainTracing.withRecorder(recorder) {
                for id in scenario.orders { _ = try await chain.send(Order(id: id)) }
            }
        case .hops:
            ChainTracing.withRecorder(recorder) {
                for id in scenario.orders { _ = hops.handle(Order(id: id)) as Int? }
            }
        case .asyncHops:
            await ChainTracing.withRecorder(recorder) {
                for id in scenario.orders { _ = await hops.handle(Order(id: id)) as Int? }
            }
        case .edits:
            let chain = try Chain<Order, Int>("orders", handlers: orderHandlers(), recorder: recorder)
            try ChainTracing.withRecorder(recorder) {
                for id in scenario.orders {
                    try chain.insert(Handler("Late\(id)") { _ in .pass }, at: .first)
                    _ = try chain.send(Order(id: id))
                    try chain.remove("Late\(id)")
                }
            }
        }
    }

    @Test("a sink's own sends are not traced, whatever made the trace", arguments: SeededGenerator.seeds(60))
    func sinksOwnSendsAreNotTraced(seed: UInt64) async throws {
        let scenario = Scenario(seed: seed)
        let plain = ForwardingSink(reactions: [])
        let forwarding = ForwardingSink(reactions: scenario.reactions)
        defer {
            plain.letGo()
            forwarding.letGo()
        }
        try await Self.run(scenario, into: plain)
        try await Self.run(scenario, into: forwarding)

        #expect(forwarding.reentered == 0, "\(scenario): the sink took traces of its own forwarding")
        #expect(forwarding.traces == plain.traces, "\(scenario)")
        #expect(!plain.traces.isEmpty, "\(scenario): the recorder traces the first order at least")
        let runs = forwarding.traces.count * scenario.reactions.reduce(0) { $0 + $1.handlerRuns }
        #expect(forwarding.pipeline?.runs.value == runs, "\(scenario): every forwarded command ran")
        // The pipeline's own changes, made inside the sink, are still recorded: they are the chain's history.
        let pipelineEdits = forwarding.edits.filter { $0.hasPrefix("pipeline ") }
        let editReactions = scenario.reactions.filter { $0 == .edit }.count
        #expect(pipelineEdits.count == 2 * editReactions * forwarding.traces.count, "\(scenario)")
        #expect(forwarding.edits.filter { !$0.hasPrefix("pipeline ") } == plain.edits, "\(scenario)")
    }

    @Test("commands sent after a sink returned are traced again")
    func tracingResumesAfterTheSink() throws {
        let sink = ForwardingSink(reactions: [.chain, .hops, .sideCall])
        defer { sink.letGo() }
        sink.pipeline = try Pipeline(recorder: Recorder(sink: sink))
        let chain = try Chain<Order, Int>("orders", handlers: Self.orderHandlers(), recorder: Recorder(sink: sink))
        _ = try chain.send(Order(id: 1))
        // Sent by the test, not by the sink: traced, as the order was.
        _ = try sink.pipeline?.chain.send(Event(id: 7))
        #expect(sink.traces.map { $0.components(separatedBy: ":")[0] } == ["orders", "pipeline"])
        #expect(sink.reentered == 0)
        #expect(
            sink.pipeline?.runs.value == 2 * 4 + 1,
            "two traces forwarded three ways (four handler runs), and the test's event"
        )
    }
}
