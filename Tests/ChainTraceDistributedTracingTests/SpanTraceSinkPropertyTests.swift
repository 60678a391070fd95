import ChainTrace
import ChainTraceDistributedTracing
import ChainTraceTestSupport
import InMemoryTracing
import Testing
import Tracing

/// Generated traces — flat, as chains on ChainTrace's types record them, and nested, as instrumented chains do,
/// ending in every outcome — through `SpanTraceSink`: one span for the command and one per hop, each hop a child of
/// the innermost hop it ran inside (else of the command), inside its parent's time, carrying its decision, self
/// time and reason; a failure marks its hop and the command as errors.
@Suite("Spans of generated traces")
struct SpanTraceSinkPropertyTests {
    static func trace(_ random: inout SeededGenerator, nested: Bool) -> Trace {
        let count = Int.random(in: 1...5, using: &random)
        let selfTimes = (0..<count).map { _ in UInt64.random(in: 1...5_000, using: &random) }
        let ending = random.pick([Decision.accepted, .failed, .passed])
        var hops: [Hop] = []
        var offset: UInt64 = 0
        for position in 0..<count {
            let last = position == count - 1
            let decision: Decision = last ? ending : .passed
            hops.append(
                Hop(
                    handler: "H\(position)",
                    position: position,
                    decision: decision,
                    reason: decision == .failed ? "H\(position) broke" : nil,
                    startOffset: offset,
                    inclusiveDuration: nested ? selfTimes[position...].reduce(0, +) : selfTimes[position],
                    selfDuration: selfTimes[position]
                )
            )
            offset += selfTimes[position]
        }
        let last = hops.last!.handler
        let outcome: Outcome =
            ending == .accepted
            ? .accepted(by: last) : ending == .failed ? .failed(at: last, error: "\(last) broke") : .fellOffTheEnd
        return Trace(
            id: 1,
            commandKind: "K",
            commandID: "c1",
            entry: "H0",
            chain: "spans",
            startTime: 1_700_000_000_000_000_000,
            hops: hops,
            outcome: outcome,
            duration: offset
        )
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func spansMirrorTheTrace(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let nested = random.chance(0.5)
        let trace = Self.trace(&random, nested: nested)
        let tracer = InMemoryTracer()
        SpanTraceSink(tracer: tracer).record(trace)
        let spans = tracer.finishedSpans
        #expect(spans.count == trace.hops.count + 1, "seed \(seed)")
        let command = try #require(spans.first { $0.operationName == "spans K" }, "seed \(seed)")
        #expect(command.attributes.get("chaintrace.hops") == .int64(Int64(trace.hops.count)), "seed \(seed)")
        #expect((command.status?.code == .error) == (trace.outcome.failingHandler != nil), "seed \(seed)")
        let byName = Dictionary(uniqueKeysWithValues: spans.map { ($0.operationName, $0) })
        for (index, hop) in trace.hops.enumerated() {
            let span = try #require(byName[hop.handler], "seed \(seed)")
            // Its parent: the innermost earlier hop whose time contains it, else the command.
            let enclosing = trace.hops[..<index].last {
                $0.startOffset <= hop.startOffset
                    && hop.startOffset + hop.inclusiveDuration <= $0.startOffset + $0.inclusiveDuration
            }
            let parent = enclosing.flatMap { byName[$0.handler] } ?? command
            #expect(
                span.parentSpanID == parent.spanID,
                "seed \(seed): \(hop.handler) under \(enclosing?.handler ?? "the command")"
            )
            #expect(
                span.startInstant.nanosecondsSinceEpoch >= parent.startInstant.nanosecondsSinceEpoch,
                "seed \(seed)"
            )
            #expect(span.endInstant.nanosecondsSinceEpoch <= parent.endInstant.nanosecondsSinceEpoch, "seed \(seed)")
            #expect(
                span.endInstant.nanosecondsSinceEpoch - span.startInstant.nanosecondsSinceEpoch
                    == hop.inclusiveDuration,
                "seed \(seed)"
            )
            #expect(span.attributes.get("chaintrace.decision") == .string(hop.decision.rawValue), "seed \(seed)")
            #expect(span.attributes.get("chaintrace.self_ns") == .int64(Int64(hop.selfDuration)), "seed \(seed)")
            #expect((span.status?.code == .error) == (hop.decision == .failed), "seed \(seed)")
            if let reason = hop.reason {
                #expect(span.attributes.get("chaintrace.reason") == .string(reason), "seed \(seed)")
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func eventsStyleIsOneSpanWithAnEventPerHop(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let trace = Self.trace(&random, nested: random.chance(0.5))
        let tracer = InMemoryTracer()
        SpanTraceSink(tracer: tracer, hops: .events).record(trace)
        let spans = tracer.finishedSpans
        #expect(spans.count == 1, "seed \(seed)")
        let command = try #require(spans.first, "seed \(seed)")
        #expect(command.events.map(\.name) == trace.hops.map(\.handler), "seed \(seed)")
        for (event, hop) in zip(command.events, trace.hops) {
            #expect(event.attributes.get("chaintrace.decision") == .string(hop.decision.rawValue), "seed \(seed)")
            #expect(event.attributes.get("chaintrace.position") == .int64(Int64(hop.position)), "seed \(seed)")
            #expect(event.nanosecondsSinceEpoch >= command.startInstant.nanosecondsSinceEpoch, "seed \(seed)")
            #expect(event.nanosecondsSinceEpoch <= command.endInstant.nanosecondsSinceEpoch, "seed \(seed)")
        }
        #expect((command.status?.code == .error) == (trace.outcome.failingHandler != nil), "seed \(seed)")
    }
}
