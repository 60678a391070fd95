import ChainTrace
import ChainTraceDistributedTracing
import ChainTraceTestSupport
import Dispatch
import Foundation
import InMemoryTracing
import Testing
import Tracing

/// `SpanTraceSink(delivery: .background())` against the plain path: generated traces recorded on several threads
/// become exactly the spans the recording thread would have made — names, parents, times, attributes, statuses —
/// each thread's in its order, under the context each command was sent in; a full queue drops and counts, so
/// spans made plus traces dropped is always every trace recorded.
@Suite("Spans made on the sink's own thread", .tags(.concurrent))
struct SpanTraceSinkBackgroundTests {
    /// `count` generated traces, each with its own id and command id.
    static func traces(_ random: inout SeededGenerator, count: Int) -> [Trace] {
        (0..<count).map { index in
            let trace = SpanTraceSinkPropertyTests.trace(&random, nested: random.chance(0.5))
            return Trace(
                id: UInt64(index),
                commandKind: trace.commandKind,
                commandID: "c\(index)",
                entry: trace.entry,
                chain: trace.chain,
                startTime: trace.startTime + Int64(index) * 1_000_000,
                hops: trace.hops,
                outcome: trace.outcome,
                duration: trace.duration
            )
        }
    }

    /// Each finished span as plain text — its name, its parent's description (so the whole line of ancestors),
    /// times, attributes, status and events — in a multiset: what must be equal whichever thread made them.
    static func described(_ spans: [FinishedInMemorySpan]) -> [String: Int] {
        let byID = Dictionary(spans.map { ($0.spanID, $0) }, uniquingKeysWith: { first, _ in first })
        func describe(_ span: FinishedInMemorySpan) -> String {
            let parent = span.parentSpanID.flatMap { byID[$0] }.map(describe) ?? "-"
            var pairs: [String] = []
            span.attributes.forEach { key, value in pairs.append("\(key)=\(value)") }
            let attributes = pairs.sorted().joined(separator: ",")
            let events = span.events.map { "\($0.name)@\($0.nanosecondsSinceEpoch)" }.joined(separator: ",")
            return
                "\(span.operationName) [\(span.startInstant.nanosecondsSinceEpoch)–\(span.endInstant.nanosecondsSinceEpoch)] "
                + "{\(attributes)} \(span.status.map { "\($0.code) \($0.message ?? "")" } ?? "ok") <\(events)> in (\(parent))"
        }
        return spans.reduce(into: [:]) { $0[describe($1), default: 0] += 1 }
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func backgroundDeliveryMakesTheSpansTheRecordingThreadWould(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = Self.traces(&random, count: Int.random(in: 1...60, using: &random))
        let hops = random.pick([SpanTraceSink.HopStyle.spans, .events])
        let threads = Int.random(in: 1...4, using: &random)
        let plain = InMemoryTracer()
        let plainSink = SpanTraceSink(tracer: plain, hops: hops)
        for trace in traces { plainSink.record(trace) }

        let background = InMemoryTracer()
        let sink = SpanTraceSink(tracer: background, hops: hops, delivery: .background(queueCapacity: 256))
        // Thread `t` records every `threads`-th trace from `t`, in order.
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in stride(from: thread, to: traces.count, by: threads) { sink.record(traces[index]) }
        }
        sink.flush()
        #expect(sink.droppedCount == 0, "seed \(seed)")
        #expect(Self.described(background.finishedSpans) == Self.described(plain.finishedSpans), "seed \(seed)")
        // Each thread's commands in the order it recorded them.
        let commands = background.finishedSpans.filter { $0.parentSpanID == nil }.compactMap { span -> Int? in
            guard case .string(let id)? = span.attributes.get("chaintrace.command.id") else { return nil }
            return Int(id.dropFirst())
        }
        #expect(commands.count == traces.count, "seed \(seed)")
        for thread in 0..<threads {
            let mine = commands.filter { $0 % threads == thread }
            #expect(mine == mine.sorted(), "seed \(seed): thread \(thread)")
        }
    }

    @Test func theContextTheCommandWasSentInIsTheParent() throws {
        var random = SeededGenerator(seed: 7)
        let trace = Self.traces(&random, count: 1)[0]
        let tracer = InMemoryTracer()
        let sink = SpanTraceSink(tracer: tracer, delivery: .background())
        tracer.withSpan("request") { _ in sink.record(trace) }
        sink.flush()
        let request = try #require(tracer.finishedSpans.first { $0.operationName == "request" })
        let command = try #require(
            tracer.finishedSpans.first { $0.operationName == "\(trace.chain) \(trace.commandKind)" }
        )
        #expect(command.parentSpanID == request.spanID)
        #expect(command.traceID == request.traceID)
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func aFullQueueDropsAndCountsAndNothingElseIsLost(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = Self.traces(&random, count: Int.random(in: 20...200, using: &random))
        let gate = Gate()
        let tracer = GatedTracer(inner: InMemoryTracer(), gate: gate)
        let capacity = Int.random(in: 2...16, using: &random)
        let sink = SpanTraceSink(tracer: tracer, delivery: .background(queueCapacity: capacity))
        // The sink's thread blocks in the tracer on the first span: the queue fills, the rest are dropped.
        for trace in traces { sink.record(trace) }
        #expect(sink.droppedCount > 0, "seed \(seed)")
        gate.open()
        sink.flush()
        let made = tracer.inner.finishedSpans.filter { $0.parentSpanID == nil }.count
        #expect(made + sink.droppedCount == traces.count, "seed \(seed): \(made) made, \(sink.droppedCount) dropped")
        sink.close()
        sink.record(traces[0])
        #expect(made + sink.droppedCount == traces.count + 1, "seed \(seed): a trace after close() is counted")
        #expect(tracer.inner.finishedSpans.filter { $0.parentSpanID == nil }.count == made, "seed \(seed)")
    }

    @Test func withNoTracerBootstrappedNothingIsHandedOver() {
        let sink = SpanTraceSink(delivery: .background(queueCapacity: 2))
        var random = SeededGenerator(seed: 3)
        for trace in Self.traces(&random, count: 50) { sink.record(trace) }
        sink.flush()
        #expect(sink.droppedCount == 0)
    }
}

/// Blocks every caller until opened.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let opened = LockedFlag()

    func open() {
        opened.set()
        semaphore.signal()
    }

    func pass() {
        guard !opened.value else { return }
        semaphore.wait()
        semaphore.signal()
    }
}

/// A flag under a lock.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false

    var value: Bool { lock.withLock { flag } }
    func set() { lock.withLock { flag = true } }
}

/// An in-memory tracer that makes each span only once its gate is open.
struct GatedTracer: Tracer {
    let inner: InMemoryTracer
    let gate: Gate

    func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> InstrumentationContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> InMemorySpan {
        gate.pass()
        return inner.startSpan(
            operationName,
            context: context(),
            ofKind: kind,
            at: instant(),
            function: function,
            file: fileID,
            line: line
        )
    }

    func forceFlush() {}

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier,
        into context: inout InstrumentationContext,
        using extractor: Extract
    )
    where Extract.Carrier == Carrier {
        inner.extract(carrier, into: &context, using: extractor)
    }

    func inject<Carrier, Inject: Injector>(
        _ context: InstrumentationContext,
        into carrier: inout Carrier,
        using injector: Inject
    )
    where Inject.Carrier == Carrier {
        inner.inject(context, into: &carrier, using: injector)
    }
}
