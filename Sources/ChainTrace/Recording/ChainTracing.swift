import CChainTraceSupport
import ChainTraceFastPath

/// Settings and helpers for chains instrumented with `traceHop(_:command:chain:role:decide:_:)`, and the recorder
/// scopes every chain records into when its own recorder is off.
///
/// Declared here, in Recording, with the recorder settings; the hop helpers instrumented chains call are an
/// extension in Instrumentation, the layer above.
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
    /// The innermost `withRecorder(_:operation:)` scope's recorder, boxed: a task-local's value is copied out
    /// through its type's value witnesses on every read, and an optional struct's copy took ~110 instructions —
    /// one read per traced command — where a class reference's is one retain.
    @TaskLocal fileprivate static var scoped = ScopedRecorder.none

    /// A recorder set by a `withRecorder(_:operation:)` scope, or none.
    fileprivate final class ScopedRecorder: Sendable {
        static let none = ScopedRecorder(nil)
        let recorder: Recorder?

        init(_ recorder: Recorder?) {
            self.recorder = recorder
        }
    }

    /// Whether any recorder could be in force — the bootstrapped one if it is on, or any open
    /// `withRecorder(_:operation:)` scope. When none is, an instrumented hop costs this one load.
    @inlinable
    package static var mayRecord: Bool { chaintrace_recording_sources() != 0 }

    /// The innermost `withRecorder(_:operation:)` scope's recording settings, which chains whose own recorder is
    /// off also record into — else, while a trace capture that claims `chain` is open, that capture's (see
    /// ``TraceCaptureScope``); one load when no recorder is in force anywhere.
    @inlinable
    static func scopedConfiguration(thread: ThreadState, chain: () -> String) -> RecorderConfiguration? {
        guard mayRecord else { return nil }
        return scopedRecorder(thread: thread)?.configuration ?? UnscopedTraces.configuration(chain: chain)
    }

    /// The innermost `withRecorder(_:operation:)` scope's recorder, if any. Outside any task, it is the one the
    /// synchronous `withRecorder(_:operation:)` noted in the thread's state: outside a task, the task-local is
    /// bound only there (the async form always runs in a task), so the two agree, and the thread's is one load
    /// where the task-local's lookup walks the thread's bindings — about 130 instructions a traced command
    /// (callgrind, the traced `traceHop` row of `chaintrace-benchmarks`). Tested against the task-local in
    /// `ScopedRecorderCopyTests`.
    ///
    /// - Parameter inTask: Whether the caller runs in a task, when it has asked already.
    @usableFromInline
    static func scopedRecorder(thread: ThreadState, inTask: Bool = currentTaskIdentity() != 0) -> Recorder? {
        inTask ? scoped.recorder : thread.scopedRecorderOutsideTasks
    }

    /// The innermost `withRecorder(_:operation:)` scope's recorder as the task-local holds it: what
    /// ``scopedRecorder(thread:)`` is checked against.
    static var taskLocalScopedRecorder: Recorder? { scoped.recorder }

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
        scoped.recorder ?? bootstrapped(thread: ThreadState.current)
    }

    /// The bootstrapped recorder, from this thread's cache unless it changed since.
    static func bootstrapped(thread: ThreadState) -> Recorder {
        refreshCache(thread)
        return thread.cachedRecorder
    }

    /// Re-reads the bootstrapped recorder and hop limit into `thread`'s cache if either changed.
    static func refreshCache(_ thread: ThreadState) {
        let generation = chaintrace_recorder_generation()
        guard thread.cachedRecorderGeneration != generation else { return }
        (thread.cachedRecorder, thread.cachedMaximumHops) = global.withLock { ($0.recorder, $0.maximumHops) }
        thread.cachedRecorderGeneration = generation
    }

    /// The most hops one instrumented command may take before it is stopped — as a loop when a handler repeated,
    /// else as over this limit; 1000 by default, and at least 1.
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
    ///
    /// - Parameters:
    ///   - recorder: The recorder in force while `operation` runs.
    ///   - isolation: The actor `operation` runs on: the caller's.
    ///   - operation: The code to run.
    public static func withRecorder<T>(
        _ recorder: Recorder,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> T
    ) async rethrows -> T {
        let source: Int64 = recorder.isOn ? 1 : 0
        chaintrace_add_recording_sources(source)
        defer { chaintrace_add_recording_sources(-source) }
        return try await $scoped.withValue(ScopedRecorder(recorder), operation: operation, isolation: isolation)
    }

    /// Synchronous form of `withRecorder(_:operation:)`.
    public static func withRecorder<T>(_ recorder: Recorder, operation: () throws -> T) rethrows -> T {
        let source: Int64 = recorder.isOn ? 1 : 0
        chaintrace_add_recording_sources(source)
        defer { chaintrace_add_recording_sources(-source) }
        // Outside any task the task-local is bound to the thread, and so is the copy the hops read (see
        // `scopedRecorder(thread:)`); in a task, the task-local alone.
        guard currentTaskIdentity() == 0 else {
            return try $scoped.withValue(ScopedRecorder(recorder), operation: operation)
        }
        let thread = ThreadState.current
        let outer = thread.scopedRecorderOutsideTasks
        thread.scopedRecorderOutsideTasks = recorder
        defer { thread.scopedRecorderOutsideTasks = outer }
        return try $scoped.withValue(ScopedRecorder(recorder), operation: operation)
    }
}
