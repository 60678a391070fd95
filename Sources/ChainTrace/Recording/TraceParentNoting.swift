extension Recorder {
    /// This recorder, noting on each trace it records the span the command ran under in the app's distributed
    /// tracing, as `read` finds it where the trace is handed to the sink — on the thread and in the task that sent
    /// the command, just after its last hop — so that a trace log keeps it (``Trace/traceParent``) and
    /// `chaintrace export --to otlp` puts the command's span under it. For chains of your own that run inside a
    /// span (a request's); the Hummingbird, Vapor and gRPC integrations note a request's (an RPC's) span without it.
    ///
    /// With swift-distributed-tracing, read the current context's span (ChainTraceDistributedTracing):
    ///
    /// ```swift
    /// ChainTracing.bootstrap(Recorder(sink: log).notingTraceParent { TraceParent.current() })
    /// ```
    ///
    /// `read` runs once a recorded trace that names no span yet, and not at all for the commands not recorded.
    public func notingTraceParent(_ read: @escaping @Sendable () -> TraceParent?) -> Recorder {
        guard let configuration else { return self }
        return Recorder(
            configuration: RecorderConfiguration(
                sink: configuration.sink,
                sampling: configuration.sampling,
                filter: configuration.filter,
                payloads: configuration.payloads,
                readsTraceParent: read
            )
        )
    }
}
