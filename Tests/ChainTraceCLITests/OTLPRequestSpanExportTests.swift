import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// `chaintrace export --to otlp` of a log whose commands ran under the app's own spans (each trace's `traceparent`, as
/// the Hummingbird and Vapor integrations note a request's span): each such command's span is that span's child, in
/// that span's trace, its hops under it as before; the other commands are traces of their own. Generated logs, in
/// either version, read back with OpenTelemetry's own definitions (`Scripts/validate-otlp.py`).
@Suite("OTLP export under the app's request spans")
struct OTLPRequestSpanExportTests {
    @Test(
        .enabled(
            if: OTLPExportTests.validatorAvailable || OTLPExportTests.required,
            "python3 with opentelemetry-proto is not installed"
        ),
        arguments: SeededGenerator.seeds(6)
    )
    func commandsGoUnderTheSpanTheirTraceNames(seed: UInt64) throws {
        guard OTLPExportTests.validatorIsThere() else { return }
        var random = SeededGenerator(seed: seed)
        let names = (0..<4).map { "H\($0)" }
        var traces: [Trace] = []
        for id in 0..<UInt64.random(in: 1...20, using: &random) {
            let (made, _) = OTLPExportTests.trace(&random, id: id, names: names)
            let parent =
                random.chance(0.7) ? TraceParent(traceID: random.hexDigits(32), spanID: random.hexDigits(16)) : nil
            traces.append(
                Trace(
                    id: made.id,
                    commandKind: made.commandKind,
                    commandID: made.commandID,
                    entry: made.entry,
                    chain: made.chain,
                    chainVersion: made.chainVersion,
                    startTime: made.startTime,
                    hops: made.hops,
                    outcome: made.outcome,
                    duration: made.duration,
                    traceParent: parent
                )
            )
        }
        let compact = random.chance(0.5)
        var bytes: [UInt8]
        if compact {
            bytes = CompactTraceLogFormat.header + [0x0A]
            var encoder = CompactTraceLogEncoder()
            for trace in traces { encoder.encode(trace, into: &bytes) }
        } else {
            bytes = TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] }
        }
        let directory = try CLI.temporaryDirectory()
        let log = try CLI.write(bytes, named: "log.jsonl", in: directory)
        let otlp = directory.appendingPathComponent("spans.json").path
        let run = try CLI.run("export", "--to", "otlp", log, "-o", otlp)
        #expect(run.status == 0, "seed \(seed): \(run.standardError)")
        #expect(try OTLPExportTests.validate(otlp).count == traces.count, "seed \(seed), compact \(compact)")
        // Each trace's spans, in the export's order: its command's span first, then its hops'.
        let request = try JSONParser.parse(try String(contentsOfFile: otlp, encoding: .utf8))
        guard case .array(let resources)? = request["resourceSpans"],
            case .array(let scopes)? = resources.first?["scopeSpans"],
            case .array(let spans)? = scopes.first?["spans"]
        else {
            Issue.record("seed \(seed): no spans")
            return
        }
        var next = 0
        for trace in traces {
            let own = spans[next..<min(spans.count, next + trace.hops.count + 1)]
            next += trace.hops.count + 1
            guard let command = own.first else { break }
            let parent = trace.traceParent
            #expect(command["parentSpanId"]?.stringValue == parent?.spanID, "seed \(seed), trace \(trace.id)")
            let traceID = command["traceId"]?.stringValue
            #expect(parent == nil || traceID == parent?.traceID, "seed \(seed), trace \(trace.id)")
            #expect(own.allSatisfy { $0["traceId"]?.stringValue == traceID }, "seed \(seed), trace \(trace.id)")
            let ids = Set(own.compactMap { $0["spanId"]?.stringValue })
            #expect(
                own.dropFirst().allSatisfy { $0["parentSpanId"]?.stringValue.map(ids.contains) == true },
                "seed \(seed), trace \(trace.id): every hop's span is under the command's span or another hop's"
            )
        }
        #expect(next == spans.count, "seed \(seed)")
    }
}
