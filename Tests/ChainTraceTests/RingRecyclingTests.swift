import ChainTrace
import ChainTraceTestSupport
import Testing

/// A ring (`InMemoryTraceSink(limit:)`) hands the trace it lets go of back to the recording thread, whose next
/// trace refills it instead of allocating one. Against a sink that keeps everything, on the same generated
/// commands: the ring keeps exactly the newest traces, each as it was recorded, and a trace someone still holds is
/// never refilled.
@Suite("A ring's traces, recycled")
struct RingRecyclingTests {
    typealias Command = NumberedCommand
    typealias Broke = BrokeOnNumber
    typealias Summary = TraceSummary

    /// A chain of `count` handlers: handler `i` accepts a multiple of its divisor, passes with a reason on some
    /// values, and throws on others — so traces differ in length, outcome and reasons from one to the next.
    static func chain(_ random: inout SeededGenerator, name: String, recorder: Recorder) throws -> Chain<Command, Int> {
        let handlers = (0..<Int.random(in: 1...8, using: &random)).map { index -> Handler<Command, Int> in
            let divisor = Int.random(in: 2...9, using: &random)
            let breaksOn = Int.random(in: 10...40, using: &random)
            return Handler("H\(index)") { command in
                if command.value % breaksOn == 0 { throw Broke(value: command.value) }
                if command.value % divisor == 0 { return .accept(index) }
                return command.value % 3 == 0 ? .pass(because: "not a multiple of \(divisor)") : .pass
            }
        }
        return try Chain(name, handlers: handlers, recorder: recorder)
    }

    /// The same handlers as an existing protocol chain, one `traceHop` each.
    final class Node: Sendable {
        let name: String
        let divisor: Int
        let next: Node?
        init(name: String, divisor: Int, next: Node?) { (self.name, self.divisor, self.next) = (name, divisor, next) }
        func handle(_ command: Command) -> Int? {
            traceHop(name, command: command, chain: "instrumented") {
                command.value % divisor == 0 ? divisor : next?.handle(command)
            }
        }
    }

    /// The same generated chain twice: one recording into a sink that keeps everything, one into a ring of `limit`.
    static func sameChainTwice(
        _ random: inout SeededGenerator,
        limit: Int
    ) throws -> (
        everything: InMemoryTraceSink, ring: InMemoryTraceSink, plain: Chain<Command, Int>, ringed: Chain<Command, Int>
    ) {
        let everything = InMemoryTraceSink()
        let ring = InMemoryTraceSink(limit: limit)
        var chainRandom = random
        let plain = try chain(&random, name: "c", recorder: Recorder(sink: everything))
        let ringed = try chain(&chainRandom, name: "c", recorder: Recorder(sink: ring))
        return (everything, ring, plain, ringed)
    }

    static func commands(_ random: inout SeededGenerator) -> [Command] {
        (0..<Int.random(in: 1...300, using: &random)).map { _ in
            Command(
                value: Int.random(in: 1...1_000, using: &random),
                note: random.chance(0.3) ? "n\(Int.random(in: 0...99, using: &random))" : nil
            )
        }
    }

    @Test(arguments: SeededGenerator.seeds(30))
    func aChainsRingKeepsTheNewestAsRecorded(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let limit = Int.random(in: 1...20, using: &random)
        let (everything, ring, plain, ringed) = try Self.sameChainTwice(&random, limit: limit)
        let commands = Self.commands(&random)
        var held: [(index: Int, trace: Trace)] = []
        for (index, command) in commands.enumerated() {
            _ = try? plain.send(command)
            _ = try? ringed.send(command)
            // Now and then someone holds a trace the ring will later let go of: it must stay as it was.
            if random.chance(0.1), let newest = ring.traces.last { held.append((index, newest)) }
        }
        let all = everything.traces.map(Summary.init)
        #expect(all.count == commands.count, "seed \(seed)")
        #expect(ring.traces.map(Summary.init) == Array(all.suffix(limit)), "seed \(seed), limit \(limit)")
        for (index, trace) in held {
            #expect(Summary(trace) == all[index], "seed \(seed): the trace of command \(index), held, changed")
        }
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func anInstrumentedChainsRingKeepsTheNewestAsRecorded(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let limit = Int.random(in: 1...20, using: &random)
        var head: Node?
        for index in (0..<Int.random(in: 1...8, using: &random)).reversed() {
            head = Node(
                name: index.isMultiple(of: 2) ? "N\(index)" : "N\(index)-with-a-name-too-long-to-be-inline",
                divisor: Int.random(in: 2...9, using: &random),
                next: head
            )
        }
        let commands = Self.commands(&random)
        let everything = InMemoryTraceSink()
        let ring = InMemoryTraceSink(limit: limit)
        ChainTracing.withRecorder(Recorder(sink: everything)) {
            for command in commands { _ = head?.handle(command) }
        }
        ChainTracing.withRecorder(Recorder(sink: ring)) {
            for command in commands { _ = head?.handle(command) }
        }
        let all = everything.traces.map(Summary.init)
        #expect(all.count == commands.count, "seed \(seed)")
        #expect(ring.traces.map(Summary.init) == Array(all.suffix(limit)), "seed \(seed), limit \(limit)")
    }

    /// A trace built by hand, as a test or a log reader builds one: `hops` passes, then perhaps an outcome no hop
    /// accounts for — which the trace keeps beside its hops.
    static func handBuilt(hops: Int, outcome: Outcome, id: UInt64) -> Trace {
        Trace(
            id: id,
            commandKind: "Hand",
            entry: "P0",
            chain: "hand",
            hops: (0..<hops).map {
                Hop(handler: "P\($0)", position: $0, decision: .passed, reason: $0 == 0 ? "built" : nil)
            },
            outcome: outcome,
            duration: UInt64(hops) * 100
        )
    }

    /// Hand-built traces recorded into the same ring as a chain's, on the same thread: a ring lets go of either
    /// kind, and the chain's next trace refills the storage. Nothing of a hand-built trace — its outcome that no
    /// hop accounts for, its reasons, its names — may show through in the refilled one.
    @Test(arguments: SeededGenerator.seeds(20))
    func handBuiltTracesInTheRingLeaveNothingBehind(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let limit = Int.random(in: 1...4, using: &random)
        let (everything, ring, plain, ringed) = try Self.sameChainTwice(&random, limit: limit)
        var head: Node?
        for index in (0..<Int.random(in: 1...6, using: &random)).reversed() {
            head = Node(name: "N\(index)", divisor: Int.random(in: 2...9, using: &random), next: head)
        }
        let outcomes: [Outcome] = [.accepted(by: "Nobody"), .failed(at: "P0", error: "never thrown"), .fellOffTheEnd]
        // In the order recorded (a sink lists its traces by start time, and hand-built ones start at 0).
        var recorded: [Summary] = []
        for (index, command) in Self.commands(&random).enumerated() {
            switch Int.random(in: 0...2, using: &random) {
            case 0:
                // Built twice, so that the ring's copy is its only holder and gets recycled.
                let hops = Int.random(in: 1...12, using: &random)
                let outcome = outcomes.randomElement(using: &random)!
                recorded.append(Summary(Self.handBuilt(hops: hops, outcome: outcome, id: UInt64(index))))
                ring.record(Self.handBuilt(hops: hops, outcome: outcome, id: UInt64(index)))
                continue
            case 1:
                _ = try? plain.send(command)
                _ = try? ringed.send(command)
            default:
                ChainTracing.withRecorder(Recorder(sink: everything)) { _ = head?.handle(command) }
                ChainTracing.withRecorder(Recorder(sink: ring)) { _ = head?.handle(command) }
            }
            try recorded.append(Summary(#require(everything.traces.last)))
        }
        let kept = ring.traces.map(Summary.init)
        let newest = Array(recorded.suffix(limit))
        #expect(kept.count == newest.count, "seed \(seed), limit \(limit)")
        for summary in kept {
            #expect(newest.contains(summary), "seed \(seed), limit \(limit): the ring holds \(summary)")
        }
    }
}
