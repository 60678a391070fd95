import ChainTrace
import ChainTraceAnalysis
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// Logs whose traces name thousands of distinct handlers (names holding an id, a handler per tenant) are read and
/// profiled in time linear in their size: the reader's shared name list grows without copying itself for every
/// new name past a limit, and analyses map only the names a list adds. Before, `chaintrace stats` over a
/// compact log of 50 000 commands, each naming a handler of its own, took 17.8 s.
///
/// Generated logs of such traces — a few fixed handlers, a new one in most traces, earlier ones met again, so that
/// the reader's shared list fills and traces alternate between it and lists of their own — in both formats: the
/// profile, the inclusive times and the traces themselves read back are those of the traces as written, each
/// with names of its own (`ChainProfile` over plain traces, the differential's other side).
@Suite("Logs naming thousands of handlers")
struct ManyHandlerNamesTests {
    static func traces(_ random: inout SeededGenerator, count: Int) -> [Trace] {
        var unique: [String] = []
        return (0..<count).map { index in
            let middle: String
            if unique.isEmpty || random.chance(0.7) {
                middle = "Tenant-\(index)-\(random.hostileName(maximumLength: 4, minimumLength: 1))"
                unique.append(middle)
            } else {
                middle = random.pick(unique)
            }
            var names = ["Router", middle]
            if random.chance(0.5) { names.append(random.pick(["Final", "Audit", middle + "-late"])) }
            let hops = names.enumerated().map { position, name in
                Hop(
                    handler: name,
                    position: position,
                    decision: position == names.count - 1 ? .accepted : .passed,
                    parent: position == 0 ? nil : position - 1,
                    startOffset: UInt64(position),
                    inclusiveDuration: UInt64(10 * (names.count - position)),
                    selfDuration: UInt64.random(in: 1...10_000, using: &random)
                )
            }
            return Trace(
                id: UInt64(index + 1),
                commandKind: "K",
                entry: "Router",
                chain: random.chance(0.9) ? "api" : "admin",
                hops: hops,
                outcome: .accepted(by: names.last!),
                duration: 30
            )
        }
    }

    static func summary(_ profile: ChainProfile) -> [String] {
        profile.handlers.map { handler in
            "\(handler.handler) \(handler.seen) \(handler.accepted) \(handler.passed) \(handler.selfTime(atPercentile: 50)) \(handler.selfTime(atPercentile: 95))"
        }
    }

    @Test(arguments: SeededGenerator.seeds(2), [true, false])
    func profilesOfLogsWithManyNamesAreThoseOfTheTracesWritten(seed: UInt64, compact: Bool) throws {
        var random = SeededGenerator(seed: seed)
        // Past the shared list's limit (4096 names), with traces going back and forth across it.
        let written = Self.traces(&random, count: 6_000)
        var bytes: [UInt8]
        if compact {
            bytes = CompactTraceLogFormat.header + [0x0A]
            var encoder = CompactTraceLogEncoder()
            for trace in written { encoder.encode(trace, into: &bytes) }
        } else {
            bytes = TraceLogFormat.header + [0x0A] + written.flatMap { TraceLogFormat.encode($0) + [0x0A] }
        }
        let reader = TraceLogReader(bytes: bytes, name: "many.jsonl")
        var read: [Trace] = []
        while let trace = try reader.next() { read.append(trace) }
        #expect(read == written, "seed \(seed)")

        let plain = ChainProfile(written)
        let fromLog = ChainProfile(read)
        #expect(Self.summary(fromLog) == Self.summary(plain), "seed \(seed)")
        #expect(fromLog.edges == plain.edges, "seed \(seed)")
        var plainTimes = InclusiveTimes()
        var logTimes = InclusiveTimes()
        for trace in written { plainTimes.add(trace) }
        for trace in read { logTimes.add(trace) }
        for handler in plain.handlers.prefix(200) {
            #expect(
                logTimes.inclusiveTime(of: handler.handler, atPercentile: 95)
                    == plainTimes.inclusiveTime(of: handler.handler, atPercentile: 95),
                "seed \(seed): \(handler.handler)"
            )
        }

        // Written again from the traces read (their names shared, as a reader shares them), the log reads back the same.
        var again = CompactTraceLogFormat.header + [0x0A]
        var encoder = CompactTraceLogEncoder()
        for trace in read { encoder.encode(trace, into: &again) }
        let rereader = TraceLogReader(bytes: again, name: "again.jsonl")
        var reread: [Trace] = []
        while let trace = try rereader.next() { reread.append(trace) }
        #expect(reread == written, "seed \(seed)")
    }
}
