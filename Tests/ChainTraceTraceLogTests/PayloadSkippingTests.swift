import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Testing

/// Reading a log without payloads — what `stats`, `diff` and `render` do to go faster — gives exactly the traces
/// reading with them gives, but for the payloads, on generated logs with payloads of every shape; and a payload
/// that is not valid JSON is still an error, at the same place, either way.
@Suite("Reading logs without payloads")
struct PayloadSkippingTests {
    @Test(arguments: SeededGenerator.seeds(60))
    func skippingPayloadsChangesNothingElse(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = (0..<Int.random(in: 1...20, using: &random)).map { index in
            Trace(
                id: UInt64(index),
                commandKind: random.hostileName(),
                commandID: random.chance(0.5) ? "c\(index)" : nil,
                payload: random.chance(0.8) ? TraceEncodingPropertyTests.payload(&random) : nil,
                entry: "A",
                chain: "c",
                hops: [
                    Hop(
                        handler: "A",
                        position: 0,
                        decision: .accepted,
                        reason: random.chance(0.3) ? random.hostileName() : nil,
                        inclusiveDuration: UInt64.random(in: 0...1_000_000, using: &random),
                        selfDuration: 7
                    )
                ],
                outcome: .accepted(by: "A"),
                duration: 9
            )
        }
        var bytes = TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] }
        let with = try TraceLogReader(bytes: bytes, payloads: true).readAll().traces
        let without = try TraceLogReader(bytes: bytes, payloads: false).readAll().traces
        #expect(with == traces, "seed \(seed)")
        #expect(without.count == traces.count, "seed \(seed)")
        for (skipped, full) in zip(without, traces) {
            #expect(skipped.payload == nil, "seed \(seed)")
            #expect(
                skipped.hops == full.hops && skipped.outcome == full.outcome && skipped.commandKind == full.commandKind
                    && skipped.commandID == full.commandID && skipped.duration == full.duration,
                "seed \(seed)"
            )
        }

        // A broken payload in the last line is an error both ways, at the same line and column.
        bytes +=
            Array(
                #"{"chain":"c","chainVersion":0,"command":{"kind":"K","payload":{"a":[1,}},"durationNs":1,"entry":"A","hops":[],"id":1,"outcome":{"kind":"fellOffTheEnd"},"startTimeNs":0}"#
                    .utf8
            ) + [0x0A]
        var errors: [FormatError] = []
        for payloads in [true, false] {
            do {
                _ = try TraceLogReader(bytes: bytes, payloads: payloads).readAll()
                Issue.record("seed \(seed): a broken payload was accepted (payloads: \(payloads))")
            } catch {
                errors.append(error)
            }
        }
        if errors.count == 2 {
            #expect(errors[0].line == errors[1].line && errors[0].column == errors[1].column, "seed \(seed): \(errors)")
            #expect(errors[0].line == traces.count + 2, "seed \(seed)")
        }
    }
}
