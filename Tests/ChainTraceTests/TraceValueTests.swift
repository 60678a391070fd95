import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import Testing

/// A `Trace` built from its parts gives back exactly those parts — hops with every field, names shared between
/// hops and the entry, reasons on some hops only, outcomes that agree with the last hop and ones that do not —
/// and two traces are equal (with equal hashes) exactly when their parts are.
@Suite("Traces as values")
struct TraceValueTests {
    struct Parts: Equatable {
        var id: UInt64
        var kind: String
        var commandID: String?
        var payload: JSONValue?
        var entry: String
        var chain: String
        var version: Int
        var start: Int64
        var hops: [Hop]
        var outcome: Outcome
        var duration: UInt64

        var trace: Trace {
            Trace(
                id: id,
                commandKind: kind,
                commandID: commandID,
                payload: payload,
                entry: entry,
                chain: chain,
                chainVersion: version,
                startTime: start,
                hops: hops,
                outcome: outcome,
                duration: duration
            )
        }
    }

    static func parts(_ random: inout SeededGenerator) -> Parts {
        let names = (0..<Int.random(in: 1...4, using: &random)).map { _ in random.hostileName(maximumLength: 5) }
        let hops = (0..<Int.random(in: 0...6, using: &random)).map { position in
            Hop(
                handler: random.pick(names),
                position: position,
                decision: random.pick(Decision.allCases),
                reason: random.chance(0.4) ? random.hostileName() : nil,
                registry: random.chance(0.2) ? random.pick(names) : nil,
                startOffset: UInt64.random(in: 0 ... .max, using: &random),
                inclusiveDuration: UInt64.random(in: 0 ... .max, using: &random),
                selfDuration: UInt64.random(in: 0 ... .max, using: &random)
            )
        }
        let outcome: Outcome =
            switch Int.random(in: 0..<3, using: &random) {
            case 0: .accepted(by: random.chance(0.7) ? hops.last?.handler ?? "x" : random.pick(names))
            case 1: .failed(at: random.pick(names), error: random.hostileName())
            default: .fellOffTheEnd
            }
        return Parts(
            id: random.next(),
            kind: random.hostileName(),
            commandID: random.chance(0.5) ? random.hostileName() : nil,
            payload: random.chance(0.5)
                ? .object(["k": .integer(Int64.random(in: .min ... .max, using: &random))]) : nil,
            entry: random.chance(0.6) ? hops.first?.handler ?? names[0] : random.pick(names),
            chain: random.hostileName(),
            version: Int.random(in: 0...1_000, using: &random),
            start: Int64.random(in: .min ... .max, using: &random),
            hops: hops,
            outcome: outcome,
            duration: UInt64.random(in: 0 ... .max, using: &random)
        )
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func aTraceGivesBackItsPartsAndEqualityFollowsThem(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let parts = Self.parts(&random)
        let trace = parts.trace
        #expect(
            trace.id == parts.id && trace.commandKind == parts.kind && trace.commandID == parts.commandID,
            "seed \(seed)"
        )
        #expect(
            trace.payload == parts.payload && trace.entry == parts.entry && trace.chain == parts.chain,
            "seed \(seed)"
        )
        #expect(
            trace.chainVersion == parts.version && trace.startTime == parts.start && trace.duration == parts.duration,
            "seed \(seed)"
        )
        #expect(trace.hops == parts.hops, "seed \(seed): \(trace.hops) vs \(parts.hops)")
        #expect(trace.path == parts.hops.map(\.handler), "seed \(seed)")
        #expect(trace.outcome == parts.outcome, "seed \(seed): \(trace.outcome) vs \(parts.outcome)")

        let same = parts.trace
        #expect(same == trace && same.hashValue == trace.hashValue, "seed \(seed)")
        var other = parts
        switch Int.random(in: 0..<4, using: &random) {
        case 0: other.kind += "x"
        case 1 where !other.hops.isEmpty: other.hops[other.hops.count - 1].selfDuration &+= 1
        case 2: other.outcome = other.outcome == .fellOffTheEnd ? .accepted(by: "someone") : .fellOffTheEnd
        default: other.version += 1
        }
        #expect((other.trace == trace) == (other == parts), "seed \(seed)")
    }
}
