import ChainTraceFastPath
import CChainTraceSupport

/// Settings and helpers for chains instrumented with `traceHop(_:command:chain:role:decide:_:)`.
///
/// ```swift
/// ChainTracing.bootstrap(Recorder(sink: logSink))          // once, at app start
/// try await ChainTracing.withRecorder(Recorder(sink: sink)) {  // or scoped, e.g. per test
///     _ = machine.insert(coin)
/// }
/// ```
public enum ChainTracing {
    /// The bootstrapped recorder and the hop limit; threads cache both (see ``bootstrapped(thread:)``).
    private static let global = LockedValue((recorder: Recorder.off, maximumHops: 1000))
    @TaskLocal private static var scoped: Recorder?
    /// Set while an async instrumented hop of a command the recorder chose not to trace runs: its nested hops
    /// (in this task and its children) must not start a trace for the same command.
    @usableFromInline @TaskLocal static var skipsCommand = false

    /// Whether any recorder could be in force — the bootstrapped one if it is on, or any open
    /// `withRecorder(_:operation:)` scope. When none is, an instrumented hop costs this one load.
    @inlinable
    static var mayRecord: Bool { chaintrace_recording_sources() != 0 }

    /// The innermost `withRecorder(_:operation:)` scope's recording settings, which chains whose own recorder is
    /// off also record into — else, while a trace capture is open, the captures' (see ``TraceCaptureScope``); one
    /// load when no recorder is in force anywhere.
    @inlinable
    static var scopedConfiguration: RecorderConfiguration? {
        guard mayRecord else { return nil }
        return scopedRecorder?.configuration ?? UnscopedTraces.configuration
    }

    @usableFromInline
    static var scopedRecorder: Recorder? { scoped }

    /// Sets the recorder that instrumented chains use outside any `withRecorder(_:operation:)` scope.
    public static func bootstrap(_ recorder: Recorder) {
        global.withLock { current in
            let change = (recorder.isOn ? 1 : 0) - (current.recorder.isOn ? 1 : 0)
            current.recorder = recorder
            if change != 0 { chaintrace_add_recording_sources(Int64(change)) }
            chaintrace_bump_recorder_generation()
        }
    }

    /// The recorder instrumented chains use here: the innermost `withRecorder(_:operation:)` scope's, else the
    /// bootstrapped one, else ``Recorder/off``.
    public static var recorder: Recorder {
        scoped ?? bootstrapped(thread: ThreadState.current)
    }

    /// The bootstrapped recorder, from this thread's cache unless it changed since.
    static func bootstrapped(thread: ThreadState) -> Recorder {
        refreshCache(thread)
        return thread.cachedRecorder
    }

    /// Re-reads the bootstrapped recorder and hop limit into `thread`'s cache if either changed.
    private static func refreshCache(_ thread: ThreadState) {
        let generation = chaintrace_recorder_generation()
        guard thread.cachedRecorderGeneration != generation else { return }
        (thread.cachedRecorder, thread.cachedMaximumHops) = global.withLock { ($0.recorder, $0.maximumHops) }
        thread.cachedRecorderGeneration = generation
    }

    /// The most hops one instrumented command may take before it is stopped as a loop; 1000 by default.
    public static var maximumHops: Int {
        get { global.withLock { $0.maximumHops } }
        set {
            global.withLock { current in
                current.maximumHops = max(1, newValue)
                chaintrace_bump_recorder_generation()
            }
        }
    }

    /// Runs `operation` with `recorder` as the recorder for instrumented chains in this task and its child tasks,
    /// and for every ``Chain`` and ``AsyncChain`` whose own recorder is off. Parallel tests each get their own
    /// traces this way, even of a chain they share.
    public static func withRecorder<T>(
        _ recorder: Recorder,
        operation: () async throws -> T
    ) async rethrows -> T {
        let source: Int64 = recorder.isOn ? 1 : 0
        chaintrace_add_recording_sources(source)
        defer { chaintrace_add_recording_sources(-source) }
        return try await $scoped.withValue(recorder, operation: operation)
    }

    /// Synchronous form of `withRecorder(_:operation:)`.
    public static func withRecorder<T>(_ recorder: Recorder, operation: () throws -> T) rethrows -> T {
        let source: Int64 = recorder.isOn ? 1 : 0
        chaintrace_add_recording_sources(source)
        defer { chaintrace_add_recording_sources(-source) }
        return try $scoped.withValue(recorder, operation: operation)
    }

    /// Sets the decision of the instrumented hop this code runs in, replacing the one the recorder would infer.
    ///
    /// ```swift
    /// func handle(_ event: Event) -> Bool {
    ///     traceHop("Analytics", command: event) {
    ///         analytics.log(event)
    ///         ChainTracing.decide(.continued, reason: "logged")
    ///         return next?.handle(event) ?? false
    ///     }
    /// }
    /// ```
    public static func decide(_ decision: Decision, reason: String? = nil) {
        (ThreadState.current.activeTrace ?? ActiveTrace.current)?.override(decision, reason: reason)
    }

    /// The active trace a new hop joins — the thread's (synchronous hops only) or the task's — or a new one if the
    /// command is to be traced. `isOutermost` tells the caller it owns the trace. A trace started by an async
    /// hop is shared with the task's children, so it locks; one started by a synchronous hop is the thread's.
    ///
    /// A hop inside one of a command the recorder chose not to trace (sampled out, filtered out) starts nothing:
    /// deciding again for the same command would trace it from the middle, and count it twice for sampling.
    @usableFromInline
    static func traceForHop<Command>(
        command: Command,
        chain: () -> String,
        isAsync: Bool,
        thread: ThreadState = .current
    ) -> (trace: ActiveTrace, isOutermost: Bool)? {
        if !isAsync, let active = thread.activeTrace { return (active, false) }
        if let active = ActiveTrace.current { return (active, false) }
        if thread.untracedDepth > 0 || skipsCommand { return nil }
        refreshCache(thread)
        guard let configuration = (scoped ?? thread.cachedRecorder).configuration ?? UnscopedTraces.configuration,
            configuration.admits(command, thread: thread)
        else {
            return nil
        }
        let trace = ActiveTrace(
            command: command,
            chain: chain(),
            configuration: configuration,
            maximumHops: thread.cachedMaximumHops,
            isShared: isAsync,
            thread: thread
        )
        return (trace, true)
    }

    /// Runs a synchronous hop's body inside the command's trace; `onLoop` gives the value to return instead of
    /// running the body when the hop limit is reached (`nil` runs it untraced).
    @inlinable
    static func runHop<Command, Result>(
        _ handler: () -> String,
        command: Command,
        chain: () -> String,
        role: HandlerRole,
        judge: (Result) -> HopReturn,
        onLoop: (() -> Result)?,
        _ body: () throws -> Result
    ) rethrows -> Result {
        let thread = ThreadState.current
        guard let (trace, isOutermost) = traceForHop(command: command, chain: chain, isAsync: false, thread: thread) else {
            // The command is not traced: its nested hops must not trace it either.
            thread.untracedDepth += 1
            defer { thread.untracedDepth -= 1 }
            return try body()
        }
        guard trace.begin(handler()) else {
            if let onLoop { return onLoop() }
            return try body()
        }
        if isOutermost { ThreadState.current.activeTrace = trace }
        defer {
            if isOutermost {
                ThreadState.current.activeTrace = nil
                finish(trace)
            }
        }
        do {
            let result = try body()
            trace.end(judge(result), role: role)
            return result
        } catch {
            trace.end(.error(error), role: role)
            throw error
        }
    }

    /// Delivers a finished outermost trace to its sink.
    @usableFromInline
    static func finish(_ trace: ActiveTrace) {
        trace.configuration.sink.record(trace.trace(id: ThreadState.current.makeTraceID()))
    }
}

extension ChainTracing {
    /// Runs an async hop's body for a command that is not traced, so that its nested hops do not trace it.
    @usableFromInline
    static func runUntraced<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        if skipsCommand { return try await body() }
        return try await $skipsCommand.withValue(true, operation: body)
    }

    /// Runs an async hop's body inside `trace`, binding the trace to the task when this hop started it.
    @usableFromInline
    static func run<Result>(
        _ trace: ActiveTrace,
        isOutermost: Bool,
        role: HandlerRole,
        judge: (Result) -> HopReturn,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        guard isOutermost else { return try await observe(trace, role: role, judge: judge, body) }
        defer { finish(trace) }
        return try await ActiveTrace.$current.withValue(trace) {
            try await observe(trace, role: role, judge: judge, body)
        }
    }

    private static func observe<Result>(
        _ trace: ActiveTrace,
        role: HandlerRole,
        judge: (Result) -> HopReturn,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        do {
            let result = try await body()
            trace.end(judge(result), role: role)
            return result
        } catch {
            trace.end(.error(error), role: role)
            throw error
        }
    }
}
