import ChainTrace
import ChainTraceDistributedTracing
import ChainTraceTestSupport
import InMemoryTracing
import Testing
import Tracing

@Suite("Spans through swift-distributed-tracing")
struct SpanTraceSinkTests {
    @Test func eachCommandIsASpanInsideTheCallersSpanWithAChildSpanPerHop() throws {
        let tracer = InMemoryTracer()
        let chain = try makeSinkTestChain(recorder: Recorder(sink: SpanTraceSink(tracer: tracer)))
        let parent = tracer.startSpan("handle request")
        try InstrumentationContext.withValue(parent.context) {
            _ = try chain.send("quarter")
        }
        parent.end()
        let spans = tracer.finishedSpans
        let command = try #require(spans.first { $0.operationName == "vending String" })
        #expect(command.parentSpanID == parent.context.inMemorySpanContext?.spanID)
        #expect(command.traceID == parent.context.inMemorySpanContext?.traceID)
        #expect(command.attributes.get("chaintrace.chain") == .string("vending"))
        #expect(command.attributes.get("chaintrace.outcome") == .string("accepted"))
        let hops = spans.filter { $0.attributes.get("chaintrace.handler") != nil }
        #expect(hops.map(\.operationName).sorted() == ["Counter", "Penny", "Quarter"])
        let counter = try #require(hops.first { $0.operationName == "Counter" })
        #expect(counter.parentSpanID == command.spanID)
        #expect(counter.attributes.get("chaintrace.decision") == .string("continued"))
        #expect(counter.attributes.get("chaintrace.position") == .int64(0))
        let penny = try #require(hops.first { $0.operationName == "Penny" })
        #expect(penny.attributes.get("chaintrace.reason") == .string("not a penny"))
        // A chain's hops follow one another, so each is a child of the command's span.
        #expect(penny.parentSpanID == command.spanID)
        for hop in hops {
            #expect(hop.startInstant.nanosecondsSinceEpoch >= command.startInstant.nanosecondsSinceEpoch)
            #expect(hop.endInstant.nanosecondsSinceEpoch <= command.endInstant.nanosecondsSinceEpoch)
        }
    }

    @Test func hopsNestedInAHopAreChildrenOfItsSpan() throws {
        let tracer = InMemoryTracer()
        let chain = try Chain<String, String>("late", recorder: Recorder(sink: SpanTraceSink(tracer: tracer)))
        let registry = try chain.addRegistry("Screens")
        try registry.register(Handler("Detail") { $0 == "share" ? .accept("Detail") : .pass }, weight: 10)
        _ = try chain.send("share")
        let spans = tracer.finishedSpans
        let screens = try #require(spans.first { $0.operationName == "Screens" })
        let detail = try #require(spans.first { $0.operationName == "Detail" })
        #expect(detail.parentSpanID == screens.spanID)
        #expect(detail.attributes.get("chaintrace.registry") == .string("Screens"))
    }

    @Test func failingHopAndItsCommandAreMarkedAsErrors() throws {
        let tracer = InMemoryTracer()
        let chain = try makeSinkTestChain(recorder: Recorder(sink: SpanTraceSink(tracer: tracer)))
        _ = try? chain.send("crash")
        let spans = tracer.finishedSpans
        let quarter = try #require(spans.first { $0.operationName == "Quarter" })
        #expect(quarter.status?.code == .error)
        #expect(quarter.status?.message == "jammed (Jammed)")
        let command = try #require(spans.first { $0.operationName == "vending String" })
        #expect(command.status?.code == .error)
        #expect(command.parentSpanID == nil, "no caller span: a root span")
    }

    @Test func hopsCanBeEventsOnOneSpan() throws {
        let tracer = InMemoryTracer()
        let chain = try makeSinkTestChain(recorder: Recorder(sink: SpanTraceSink(tracer: tracer, hops: .events)))
        _ = try chain.send("penny")
        let spans = tracer.finishedSpans
        #expect(spans.count == 1)
        #expect(spans[0].events.map(\.name) == ["Counter", "Penny"])
        #expect(spans[0].events[1].attributes.get("chaintrace.decision") == .string("accepted"))
    }

    @Test func withoutABootstrappedTracerNothingIsMade() throws {
        // The process-wide tracer is the no-op one unless a test bootstraps another; none here does.
        #expect(InstrumentationSystem.tracer is NoOpTracer)
        let chain = try makeSinkTestChain(recorder: Recorder(sink: SpanTraceSink()))
        #expect(try chain.send("penny") == "penny")
    }
}
