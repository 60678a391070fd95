import ChainTrace
import ChainTraceFiles
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A trace log hands each trace it has written back to the thread that recorded it, and that thread's next traced
/// walk refills the trace's storage instead of allocating one (`Trace.recycle(_:on:)`, through
/// `HandOffQueue.push(_:reclaiming:)`). Against a sink that keeps every trace, on the same generated commands —
/// chains of our own type, instrumented chains (`traceHop`) and hand-built traces, with and without payloads,
/// recorded in turn on one thread while the writer drains — the log reads back exactly what was recorded, and
/// storages did come back: nothing of a refilled trace's last use shows through. Some traces go to a second sink
/// too, which keeps them: their storage must never be refilled (they stay as recorded to the end).
@Suite("Trace log storages reused")
struct TraceLogStorageReuseTests {
    typealias Command = NumberedCommand
    typealias Broke = BrokeOnNumber
    typealias Summary = TraceSummary

    /// Handler `i` accepts a multiple of its divisor, passes with a reason on some values, throws on others.
    static func handlers(_ random: inout SeededGenerator) -> [Handler<Command, Int>] {
        (0..<Int.random(in: 1...8, using: &random)).map { index -> Handler<Command, Int> in
            let divisor = Int.random(in: 2...9, using: &random)
            let breaksOn = Int.random(in: 10...40, using: &random)
            return Handler(index.isMultiple(of: 3) ? "H\(index)-with-a-name-too-long-to-be-inline" : "H\(index)") {
                command in
                if command.value % breaksOn == 0 { throw Broke(value: command.value) }
                if command.value % divisor == 0 { return .accept(index) }
                return command.value % 3 == 0 ? .pass(because: "not a multiple of \(divisor)") : .pass
            }
        }
    }

    /// A `next`-linked chain of nodes, one `traceHop` each.
    final class Node: Sendable {
        let name: String
        let divisor: Int
        let next: Node?
        init(name: String, divisor: Int, next: Node?) { (self.name, self.divisor, self.next) = (name, divisor, next) }
        func handle(_ command: Command) throws -> Int? {
            try traceHop(name, command: command, chain: "instrumented") {
                if command.value % 37 == 0 { throw Broke(value: command.value) }
                return try command.value % divisor == 0 ? divisor : next?.handle(command)
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(16))
    func aLogOfReusedStoragesReadsBackAsRecorded(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let path = TestFiles.directory.appendingPathComponent("reuse-\(seed)-\(UUID()).jsonl").path
        var options = TraceLogSink.Options()
        options.format = random.chance(0.5) ? .compact : .jsonLines
        options.whenBehind = .block
        options.queueCapacity = Int.random(in: 2...64, using: &random)
        options.flushInterval = .milliseconds(1)
        let log = try TraceLogSink(path: path, options: options)
        let everything = InMemoryTraceSink()
        let payloads = random.chance(0.5)
        let handlers = Self.handlers(&random)
        let logged = try Chain(
            "own",
            handlers: handlers,
            recorder: Recorder(sink: log, payloads: payloads ? .captured : .none)
        )
        let kept = try Chain(
            "own",
            handlers: handlers,
            recorder: Recorder(sink: everything, payloads: payloads ? .captured : .none)
        )
        // Traces recorded into the log and kept by a second sink as well, with what each said when recorded.
        let alsoKept = InMemoryTraceSink()
        let both = try Chain(
            "own",
            handlers: handlers,
            recorder: Recorder(sink: FanOutTraceSink([log, alsoKept]), payloads: payloads ? .captured : .none)
        )
        var keptAsRecorded: [Summary] = []
        var head: Node?
        for index in (0..<Int.random(in: 1...6, using: &random)).reversed() {
            head = Node(name: "N\(index)", divisor: Int.random(in: 2...9, using: &random), next: head)
        }
        let outcomes: [Outcome] = [.accepted(by: "Nobody"), .failed(at: "P0", error: "never thrown"), .fellOffTheEnd]
        var expected: [Summary] = []
        var sparesSeen = 0
        for index in 0..<Int.random(in: 100...600, using: &random) {
            let command = Command(
                value: Int.random(in: 1...1_000, using: &random),
                note: random.chance(0.3) ? "n\(Int.random(in: 0...99, using: &random))" : nil
            )
            switch Int.random(in: 0...5, using: &random) {
            case 0:
                // A hand-built trace, as a log reader builds one: an outcome no hop accounts for, reasons.
                let hops = Int.random(in: 1...12, using: &random)
                let outcome = outcomes.randomElement(using: &random)!
                func built() -> Trace {
                    Trace(
                        id: UInt64(index),
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
                if random.chance(0.3) {
                    let trace = built()
                    log.record(trace)
                    alsoKept.record(trace)
                    keptAsRecorded.append(Summary(trace))
                } else {
                    log.record(built())
                }
                // Not read from `everything`, which lists traces by start time, and a hand-built one starts at 0.
                expected.append(Summary(built()))
            case 1, 2:
                ChainTracing.withRecorder(Recorder(sink: log, payloads: payloads ? .captured : .none)) {
                    _ = try? head?.handle(command)
                }
                ChainTracing.withRecorder(Recorder(sink: everything, payloads: payloads ? .captured : .none)) {
                    _ = try? head?.handle(command)
                }
                expected.append(Summary(try #require(everything.traces.last)))
            case 3 where random.chance(0.3):
                _ = try? both.send(command)
                _ = try? kept.send(command)
                let trace = try #require(alsoKept.traces.last)
                keptAsRecorded.append(Summary(trace))
                expected.append(Summary(trace))
            default:
                _ = try? logged.send(command)
                _ = try? kept.send(command)
                expected.append(Summary(try #require(everything.traces.last)))
            }
            if Trace.callingThreadHasSpareStorage { sparesSeen += 1 }
            // Now and then the writer catches up, so that what it finished comes back.
            if random.chance(0.2) { try log.flush() }
        }
        try log.close()
        let reader = try TraceLogReader(paths: [path])
        var read: [Summary] = []
        while let trace = try reader.next() { read.append(Summary(trace)) }
        #expect(read.count == expected.count, "seed \(seed)")
        for (index, (got, wanted)) in zip(read, expected).enumerated() where got != wanted {
            Issue.record("seed \(seed), trace \(index): read back \(got), recorded \(wanted)")
            break
        }
        #expect(sparesSeen > 0, "seed \(seed): no storage came back from the log")
        // The same traces, whatever the order (a sink lists them by start time, and hand-built ones all start at 0).
        var stillKept = alsoKept.traces.map(Summary.init)
        for summary in keptAsRecorded {
            guard let index = stillKept.firstIndex(of: summary) else {
                Issue.record("seed \(seed): a trace a second sink kept was refilled: \(summary) is gone")
                break
            }
            stillKept.remove(at: index)
        }
        #expect(stillKept.isEmpty, "seed \(seed): the second sink holds \(stillKept.count) traces it was not given")
    }
}
