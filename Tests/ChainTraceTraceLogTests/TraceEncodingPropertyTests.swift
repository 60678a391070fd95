import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// The log line of a generated trace — hostile names, reasons, registries, payloads of every JSON kind, extreme
/// times, every outcome — written by the direct encoder is byte for byte what writing the trace's JSON value gives
/// (keys sorted), and both read back to the same trace through the fast and the general decoder.
@Suite("Trace encoding, direct and by value")
struct TraceEncodingPropertyTests {
    static func payload(_ random: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0...(depth > 1 ? 4 : 6), using: &random) {
        case 0: return .null
        case 1: return .bool(random.chance(0.5))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &random))
        case 3: return .double(Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / 64)
        case 4: return .string(random.hostileName())
        case 5:
            return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in payload(&random, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                members[random.hostileName(maximumLength: 4)] = payload(&random, depth: depth + 1)
            }
            return .object(members)
        }
    }

    @Test(arguments: SeededGenerator.seeds(100))
    func directEncodingIsTheValueWrittenAndReadsBack(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let names = (0..<3).map { _ in random.hostileName(maximumLength: 6) }
        let hops = (0..<Int.random(in: 0...5, using: &random)).map { position in
            Hop(
                handler: random.pick(names),
                position: position,
                decision: random.pick(Decision.allCases),
                reason: random.chance(0.4) ? random.hostileName() : nil,
                registry: random.chance(0.3) ? random.pick(names) : nil,
                parent: position > 0 && random.chance(0.5) ? Int.random(in: 0..<position, using: &random) : nil,
                startOffset: UInt64.random(in: 0...UInt64(Int64.max), using: &random),
                inclusiveDuration: UInt64.random(in: 0...UInt64(Int64.max), using: &random),
                selfDuration: UInt64.random(in: 0...UInt64(Int64.max), using: &random)
            )
        }
        let outcome: Outcome =
            switch (Int.random(in: 0..<3, using: &random), hops.last) {
            case (0, let last?): .accepted(by: last.handler)
            case (1, let last?): .failed(at: last.handler, error: random.hostileName())
            default: .fellOffTheEnd
            }
        let trace = Trace(
            id: random.next() >> 1,
            commandKind: random.hostileName(),
            commandID: random.chance(0.6) ? random.hostileName() : nil,
            payload: random.chance(0.7) ? Self.payload(&random) : nil,
            entry: random.pick(names),
            chain: random.hostileName(),
            chainVersion: Int.random(in: 0...10_000, using: &random),
            startTime: Int64.random(in: .min ... .max, using: &random),
            hops: hops,
            outcome: outcome,
            duration: UInt64.random(in: 0...UInt64(Int64.max), using: &random)
        )

        let direct = TraceLogFormat.encode(trace)
        var writer = JSONWriter()
        writer.write(TraceLogFormat.value(of: trace))
        #expect(direct == writer.bytes, "seed \(seed): \(String(decoding: direct, as: UTF8.self))")

        let log = TraceLogFormat.header + [0x0A] + direct + [0x0A] + direct + [0x0A]
        let read = try TraceLogReader(bytes: log).readAll().traces
        #expect(read == [trace, trace], "seed \(seed)")
        let general = try TraceLogFormat.decode(JSONDocument(bytes: direct, file: "line"))
        #expect(general == trace, "seed \(seed)")
    }
}
