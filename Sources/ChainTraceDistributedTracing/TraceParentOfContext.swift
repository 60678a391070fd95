public import ChainTrace
public import Tracing

extension TraceParent {
    /// The span `context` names, as the app's tracer propagates it: what `instrument` (the bootstrapped one by
    /// default) injects into outgoing headers as W3C Trace Context's `traceparent` — swift-otel's default
    /// propagator does. `nil` when the context holds no span, or the tracer propagates another format.
    ///
    /// The Hummingbird, Vapor and gRPC integrations note it, from the context a request's (an RPC's) deepest hop ran
    /// in, on each request's trace (`Trace.traceParent`), so that a trace log keeps the request span its command
    /// ran under:
    ///
    /// ```swift
    /// let parent = TraceParent(context: ServiceContext.current ?? .topLevel)   // inside a request's span
    /// ```
    public init?(context: ServiceContext, instrument: any Instrument = InstrumentationSystem.instrument) {
        var headers = TraceParentHeaders()
        instrument.inject(context, into: &headers, using: TraceParentHeaders.Injector())
        guard let value = headers.traceparent else { return nil }
        self.init(header: value)
    }

    /// The span of the current `ServiceContext` (the task's), as ``init(context:instrument:)`` reads it; `nil` outside
    /// any span. What a recorder notes on each trace of a chain of your own that runs inside a span:
    ///
    /// ```swift
    /// ChainTracing.bootstrap(Recorder(sink: log).notingTraceParent { TraceParent.current() })
    /// ```
    public static func current(instrument: any Instrument = InstrumentationSystem.instrument) -> TraceParent? {
        ServiceContext.current.flatMap { TraceParent(context: $0, instrument: instrument) }
    }
}

/// The one header `TraceParent(context:instrument:)` reads of what an instrument injects.
struct TraceParentHeaders {
    var traceparent: String?

    /// Keeps `traceparent` (header names are case-insensitive) and drops the rest.
    struct Injector: Tracing.Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout TraceParentHeaders) {
            if key.lowercased() == "traceparent" { carrier.traceparent = value }
        }
    }
}
