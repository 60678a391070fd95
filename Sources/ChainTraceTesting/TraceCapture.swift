public import ChainTrace

/// Runs `body` and returns every trace it produced — of `Chain`s and `AsyncChain`s whose own recorder is off,
/// and of instrumented chains — in the order they finished.
///
/// Capture is scoped to the calling task (and its child tasks): tests running in parallel, as Swift Testing runs
/// them, never see each other's traces, even of a chain they share.
///
/// ```swift
/// let traces = try captureTraces {
///     _ = try chain.send(Coin(diameter: 17.91, weight: 2.268))
/// }
/// expectHandled(traces[0], by: "Dime")
/// ```
public func captureTraces(_ body: () throws -> Void) rethrows -> [Trace] {
    let sink = InMemoryTraceSink()
    try ChainTracing.withRecorder(Recorder(sink: sink), operation: body)
    return sink.traces
}

/// Runs async `body` and returns every trace it produced, scoped to this task like the synchronous form.
public func captureTraces(_ body: () async throws -> Void) async rethrows -> [Trace] {
    let sink = InMemoryTraceSink()
    try await ChainTracing.withRecorder(Recorder(sink: sink), operation: body)
    return sink.traces
}
