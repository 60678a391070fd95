import ChainTrace
import ChainTraceDistributedTracing
import ChainTraceTestSupport
import InMemoryTracing
import Testing
import Tracing

/// A plain non-`Sendable` handler of an existing synchronous chain, instrumented with one `traceHop` line.
final class Screener {
    let name: String
    let takes: String
    var next: Screener?

    init(_ name: String, takes: String, next: Screener? = nil) {
        self.name = name
        self.takes = takes
        self.next = next
    }

    func handle(_ word: String) -> String? {
        traceHop(name, command: word, chain: "screening") { word == takes ? name : next?.handle(word) }
    }
}

/// The async form: a plain class awaiting the next one.
final class AsyncScreener {
    let name: String
    let takes: String
    var next: AsyncScreener?

    init(_ name: String, takes: String, next: AsyncScreener? = nil) {
        self.name = name
        self.takes = takes
        self.next = next
    }

    func handle(_ word: String) async -> String? {
        await traceHop(name, command: word, chain: "screening") {
            if word == takes { return name }
            return await next?.handle(word)
        }
    }
}

/// `Recorder.notingTraceParent(_:)` with `TraceParent.current(instrument:)`: a chain of the user's own — `Chain`,
/// a `traceHop` chain of plain classes, sync and async, commands sent at once from many tasks — run inside a span of
/// a tracer that propagates W3C Trace Context records that span on each trace, and none outside any span.
@Suite("Traces note the span their command ran under", .tags(.concurrent))
struct TraceParentNotingTests {
    /// The span `span` is, as a trace names it.
    static func parent(of span: InMemorySpan) -> TraceParent? {
        span.context.inMemorySpanContext.flatMap { TraceParent(traceID: $0.traceID, spanID: $0.spanID) }
    }

    @Test func aChainsTraceNamesTheSpanItWasSentIn() throws {
        let tracer = W3CInMemoryTracer()
        let sink = InMemoryTraceSink()
        let chain = try makeSinkTestChain(
            recorder: Recorder(sink: sink).notingTraceParent { TraceParent.current(instrument: tracer) }
        )
        let span = tracer.startSpan("request")
        try ServiceContext.withValue(span.context) { _ = try chain.send("quarter") }
        span.end()
        _ = try chain.send("quarter")
        #expect(sink.traces.map(\.traceParent) == [Self.parent(of: span), nil])
        #expect(Self.parent(of: span) != nil)
    }

    @Test func aTraceHopChainOfPlainClassesSyncAndAsync() async {
        let tracer = W3CInMemoryTracer()
        let sink = InMemoryTraceSink()
        let recorder = Recorder(sink: sink).notingTraceParent { TraceParent.current(instrument: tracer) }
        let first = Screener("Penny", takes: "penny", next: Screener("Dime", takes: "dime"))
        let asyncFirst = AsyncScreener("Penny", takes: "penny", next: AsyncScreener("Dime", takes: "dime"))
        let spans = await ChainTracing.withRecorder(recorder) {
            let span = tracer.startSpan("sync request")
            ServiceContext.withValue(span.context) { _ = first.handle("dime") }
            span.end()
            let asyncSpan = await tracer.withSpan("async request") { span in
                _ = await asyncFirst.handle("dime")
                return span
            }
            _ = first.handle("penny")
            return [span, asyncSpan]
        }
        #expect(sink.traces.map(\.path) == [["Penny", "Dime"], ["Penny", "Dime"], ["Penny"]])
        #expect(sink.traces.map(\.traceParent) == spans.map(Self.parent(of:)) + [nil])
    }

    @Test(arguments: SeededGenerator.seeds(3))
    func commandsSentAtOnceEachNameTheirOwnSpan(seed: UInt64) async {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 50...200, using: &random)
        let tracer = W3CInMemoryTracer()
        let sink = InMemoryTraceSink()
        let recorder = Recorder(sink: sink).notingTraceParent { TraceParent.current(instrument: tracer) }
        await ChainTracing.withRecorder(recorder) {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<count {
                    group.addTask {
                        let first = AsyncScreener("Penny", takes: "penny", next: AsyncScreener("Dime", takes: "dime"))
                        await tracer.withSpan("request \(index)") { _ in
                            _ = await first.handle(index.isMultiple(of: 2) ? "dime" : "penny")
                        }
                    }
                }
            }
        }
        let requests = Dictionary(
            uniqueKeysWithValues: tracer.finishedSpans.compactMap { span in
                TraceParent(traceID: span.traceID, spanID: span.spanID).map { ($0, span) }
            }
        )
        #expect(sink.traces.count == count, "seed \(seed)")
        let named = sink.traces.compactMap { $0.traceParent.flatMap { requests[$0] } }
        #expect(named.count == count && Set(named.map(\.operationName)).count == count, "seed \(seed)")
    }
}
