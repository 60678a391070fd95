import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTesting
import ChainTraceTraceLog
import Testing

/// Each hop records the hop it ran inside (``Hop/parent``) as it starts, and the trace logs keep it: on generated
/// trees of instrumented handlers — synchronous calls, async stages that await their children one after the other,
/// and async stages that fan out to child tasks — and on chains with registries, every recorded parent is the
/// model's, reads back the same from version 1 and version 3 logs, and is where the exports nest the hop
/// (``HopNesting``). Inferred from the times alone, a fan-out's children were put under a sibling in 91 of the 300
/// traces of a probe, and in 232 of 300 once a fan-out stage's self time became what its children did not
/// cover (`FanOutSelfTimeTests`).
@Suite("Hop parents")
struct HopParentTests {
    /// `trace`'s parents as names, by hop name (names are unique in these trees).
    static func recordedParents(_ trace: Trace) -> [String: String?] {
        var result: [String: String?] = [:]
        for hop in trace.hops { result.updateValue(hop.parent.map { trace.hops[$0].handler }, forKey: hop.handler) }
        return result
    }

    /// The checks every recorded trace gets: its parents are the model's; both log versions give them back; and
    /// the nesting the exports use is exactly them.
    static func check(_ trace: Trace, expected: [String: String?], seed: UInt64, _ label: String) throws {
        #expect(
            Self.recordedParents(trace) == expected,
            "seed \(seed), \(label): \(trace.hops.map { "\($0.handler)<\($0.parent.map(String.init) ?? "-")" })"
        )
        let version1 = try TraceLogReader(bytes: TraceLogFormat.header + [0x0A] + TraceLogFormat.encode(trace) + [0x0A])
            .readAll().traces
        var compact = CompactTraceLogFormat.header + [0x0A]
        var encoder = CompactTraceLogEncoder()
        encoder.encode(trace, into: &compact)
        for fast in [true, false] {
            let reader = TraceLogReader(bytes: compact)
            reader.usesFastPath = fast
            let version3 = try reader.readAll().traces
            #expect(version3.map(\.hops) == [trace.hops], "seed \(seed), \(label): version 3 (fast path \(fast))")
        }
        #expect(version1.map(\.hops) == [trace.hops], "seed \(seed), \(label): version 1")
        #expect(HopNesting.enclosing(trace.hops) == trace.hops.map(\.parent), "seed \(seed), \(label): nesting")
    }

    /// The trees both the synchronous and the async test run: up to four levels, most nodes fanning out when async.
    static func tree(seed: UInt64) -> HandlerTree {
        HandlerTree.random(seed: seed, chain: "tree", leafDepth: 3, atOnce: 0.6, maximumWait: .microseconds(300))
    }

    @Test(arguments: SeededGenerator.seeds(24))
    func synchronousCallsRecordTheirCaller(seed: UInt64) throws {
        let root = Self.tree(seed: seed)
        let traces = captureTraces { _ = root.runSynchronously() }
        #expect(traces.count == 1, "seed \(seed)")
        try Self.check(try #require(traces.first), expected: root.parents, seed: seed, "synchronous")
    }

    @Test(arguments: SeededGenerator.seeds(24))
    func asyncStagesRecordTheHopThatRanOrFannedOutToThem(seed: UInt64) async throws {
        let root = Self.tree(seed: seed)
        let traces = await captureTraces { _ = await root.run() }
        #expect(traces.count == 1, "seed \(seed)")
        try Self.check(try #require(traces.first), expected: root.parents, seed: seed, "async")
    }

    /// A chain's handlers run one after the other (no parent); a registry's members run inside it.
    @Test(arguments: SeededGenerator.seeds(20))
    func registryMembersRecordTheirRegistry(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let sink = InMemoryTraceSink()
        let handlers = (0..<Int.random(in: 1...4, using: &random)).map { index in
            Handler<Int, Int>("H\(index)") { _ in .pass }
        }
        let chain = try Chain<Int, Int>("registries", handlers: handlers, recorder: Recorder(sink: sink))
        var expected: [String: String?] = [:]
        for handler in handlers { expected.updateValue(nil, forKey: handler.name) }
        for number in 0..<Int.random(in: 1...3, using: &random) {
            let registry = try chain.addRegistry("R\(number)", at: random.chance(0.5) ? .first : .last)
            expected.updateValue(nil, forKey: "R\(number)")
            for member in 0..<Int.random(in: 0...3, using: &random) {
                try registry.register(Handler("R\(number)M\(member)") { _ in .pass }, weight: member)
                expected["R\(number)M\(member)"] = "R\(number)"
            }
        }
        _ = try chain.send(1)
        try Self.check(try #require(sink.traces.first), expected: expected, seed: seed, "registries")
    }

    /// A parent that is no earlier hop is not kept by a hand-built trace, and refused by both log readers, naming
    /// the field.
    @Test(arguments: [-1, 1, 2, 7])
    func aParentThatIsNoEarlierHopIsRefused(parent: Int) throws {
        let hops = [
            Hop(handler: "A", position: 0, decision: .passed, inclusiveDuration: 2, selfDuration: 1),
            Hop(
                handler: "B",
                position: 1,
                decision: .accepted,
                parent: parent,
                startOffset: 1,
                inclusiveDuration: 1,
                selfDuration: 1
            ),
        ]
        let trace = Trace(
            id: 1,
            commandKind: "K",
            entry: "A",
            chain: "c",
            hops: hops,
            outcome: .accepted(by: "B"),
            duration: 2
        )
        #expect(trace.hops[1].parent == nil)
        let line =
            #"{"chain":"c","chainVersion":0,"command":{"kind":"K"},"durationNs":2,"entry":"A","hops":[{"decision":"passed","handler":"A","inclusiveNs":2,"position":0,"selfNs":1,"startOffsetNs":0},{"decision":"accepted","handler":"B","inclusiveNs":1,"parent":\#(parent),"position":1,"selfNs":1,"startOffsetNs":1}],"id":1,"outcome":{"handler":"B","kind":"accepted"},"startTimeNs":0}"#
        for fast in [true, false] {
            let reader = TraceLogReader(
                bytes: TraceLogFormat.header + [0x0A] + Array(line.utf8) + [0x0A],
                name: "p.jsonl"
            )
            reader.usesFastPath = fast
            let error = #expect(throws: FormatError.self) { _ = try reader.readAll() }
            #expect(
                error?.expected == "hops[1].parent to be an earlier hop's position, 0…0",
                "fast \(fast): \(String(describing: error))"
            )
            #expect(
                error?.line == 2
                    && error?.column == line.utf8.count - line.split(separator: "\"parent\":").last!.utf8.count + 1,
                "fast \(fast): \(String(describing: error))"
            )
        }
    }
}
