import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// `export --to jsonl`'s rows, written member by member with the trace's members encoded once, against the plain
/// way — each row built as a JSON object and written with sorted keys — on generated traces: hostile names, ids,
/// reasons and registries or none, hopless traces, times at and past the signed 64-bit limits, file names with
/// quotes and controls. The same bytes.
@Suite("Hop rows against JSON objects")
struct HopRowsDifferentialTests {
    /// The plain model: each row a JSON object, written with sorted keys.
    static func plainRows(for trace: Trace, number: Int, file: String) -> [UInt8] {
        let common: [String: JSONValue] = [
            "file": .string(file), "trace": .integer(Int64(clamping: number)),
            "traceId": .integer(Int64(clamping: trace.id)),
            "chain": .string(trace.chain), "chainVersion": .integer(Int64(clamping: trace.chainVersion)),
            "commandKind": .string(trace.commandKind), "commandId": trace.commandID.map(JSONValue.string) ?? .null,
            "startNs": .integer(trace.startTime), "durationNs": .integer(Int64(clamping: trace.duration)),
            "outcome": .string(trace.outcome.kind),
        ]
        let parents = HopNesting.enclosing(trace.hops)
        func hop(_ hop: Hop?, parent: Int?) -> [String: JSONValue] {
            guard let hop else {
                return [
                    "position": .null, "parent": .null, "handler": .null, "registry": .null, "decision": .null,
                    "selfNs": .null,
                    "inclusiveNs": .null, "offsetNs": .null, "reason": .null,
                ]
            }
            return [
                "position": .integer(Int64(clamping: hop.position)), "handler": .string(hop.handler),
                "parent": parent.map { .integer(Int64(clamping: trace.hops[$0].position)) } ?? .null,
                "registry": hop.registry.map(JSONValue.string) ?? .null, "decision": .string(hop.decision.rawValue),
                "selfNs": .integer(Int64(clamping: hop.selfDuration)),
                "inclusiveNs": .integer(Int64(clamping: hop.inclusiveDuration)),
                "offsetNs": .integer(Int64(clamping: hop.startOffset)),
                "reason": hop.reason.map(JSONValue.string) ?? .null,
            ]
        }
        var writer = JSONWriter()
        let rows: [(Hop?, Int?)] =
            trace.hops.isEmpty ? [(nil, nil)] : trace.hops.indices.map { (trace.hops[$0], parents[$0]) }
        for (row, parent) in rows {
            writer.write(JSONValue.object(common.merging(hop(row, parent: parent)) { first, _ in first }))
            writer.append("\n")
        }
        return writer.bytes
    }

    static func trace(_ random: inout SeededGenerator, id: UInt64) -> Trace {
        func name() -> String {
            random.chance(0.5) ? random.hostileName() : "H\(Int.random(in: 0...9, using: &random))"
        }
        func time() -> UInt64 {
            random.chance(0.1)
                ? UInt64.max - UInt64.random(in: 0...3, using: &random)
                : UInt64.random(in: 0...1_000_000, using: &random)
        }
        let hops = (0..<Int.random(in: 0...6, using: &random)).map { position in
            let decision = random.pick([Decision.accepted, .passed, .continued, .failed])
            return Hop(
                handler: name(),
                position: random.chance(0.05) ? Int.max : position,
                decision: decision,
                reason: random.chance(0.3) ? name() : nil,
                registry: random.chance(0.3) ? name() : nil,
                parent: position > 0 && random.chance(0.4) ? Int.random(in: 0..<position, using: &random) : nil,
                startOffset: time(),
                inclusiveDuration: time(),
                selfDuration: time()
            )
        }
        let outcome = random.pick([Outcome.accepted(by: name()), .fellOffTheEnd, .failed(at: name(), error: name())])
        return Trace(
            id: random.chance(0.05) ? .max : id,
            commandKind: name(),
            commandID: random.chance(0.7) ? name() : nil,
            entry: name(),
            chain: name(),
            chainVersion: random.chance(0.05) ? .max : Int.random(in: 0...9, using: &random),
            startTime: random.chance(0.1)
                ? random.pick([Int64.min, .max]) : Int64.random(in: 0...Int64(1) << 62, using: &random),
            hops: hops,
            outcome: outcome,
            duration: time()
        )
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func rowsAreTheSortedObjectsBytes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let file = random.chance(0.5) ? "logs/traces-0001.jsonl" : random.hostileName() + "\"\u{0}.jsonl"
        var all: [UInt8] = []
        var expected: [UInt8] = []
        for index in 0..<Int.random(in: 1...20, using: &random) {
            let trace = Self.trace(&random, id: UInt64(index))
            let number = random.chance(0.05) ? Int.max : index + 1
            let plain = Self.plainRows(for: trace, number: number, file: file)
            #expect(
                HopRowsExport().rows(for: trace, number: number, file: file) == plain,
                "seed \(seed), trace \(index)"
            )
            HopRowsExport().appendRows(for: trace, number: number, file: file, to: &all)
            expected += plain
        }
        #expect(all == expected, "seed \(seed): appended")
    }
}
