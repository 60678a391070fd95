import ChainTraceFastPath

/// Decides which commands are traced and where their traces go. The one thing users hold.
///
/// A recorder is cheap to copy. ``off`` records nothing and costs a branch per command. Give one to a chain
/// (`chain.recorder = recorder`) or, for chains instrumented with `traceHop(_:command:chain:role:decide:_:)`, install it
/// with ``ChainTracing/bootstrap(_:)`` or scope it with `ChainTracing.withRecorder(_:operation:)`.
///
/// ```swift
/// let sink = InMemoryTraceSink()
/// let recorder = Recorder(sink: sink, sampling: .oneIn(10)) { (coin: Coin) in coin.weight > 5 }
/// ```
public struct Recorder: Sendable {
    @usableFromInline let configuration: RecorderConfiguration?

    /// Records nothing.
    public static let off = Recorder(configuration: nil)

    /// Creates a recorder that traces every command, or the share `sampling` picks.
    ///
    /// - Parameters:
    ///   - sink: Where finished traces go.
    ///   - sampling: Which share of commands to trace; ``Sampling/all`` by default.
    ///   - payloads: Whether traces carry the command as JSON, and what of it; ``Payloads/none`` by default. A trace
    ///     log replays only with payloads: ``Payloads/captured``, or ``Payloads/captured(redacting:)``.
    public init(sink: some TraceSink, sampling: Sampling = .all, payloads: Payloads = .none) {
        configuration = RecorderConfiguration(sink: sink, sampling: sampling, filter: nil, payloads: payloads)
    }

    /// Creates a recorder that traces only the commands of type `Command` that `filter` accepts.
    ///
    /// Commands of any other type are not traced. To filter commands of several types, take `Any` and cast.
    ///
    /// - Parameters:
    ///   - sink: Where finished traces go.
    ///   - sampling: Which share of the accepted commands to trace; ``Sampling/all`` by default.
    ///   - payloads: Whether traces carry the command as JSON, and what of it; ``Payloads/none`` by default.
    ///   - filter: Whether to trace a command. Runs once per command, before sampling counts it.
    public init<Command>(
        sink: some TraceSink,
        sampling: Sampling = .all,
        payloads: Payloads = .none,
        filter: @escaping @Sendable (Command) -> Bool
    ) {
        configuration = RecorderConfiguration(
            sink: sink,
            sampling: sampling,
            filter: { command in (command as? Command).map(filter) ?? false },
            payloads: payloads
        )
    }

    @usableFromInline
    init(configuration: RecorderConfiguration?) {
        self.configuration = configuration
    }

    /// Whether this recorder records anything at all.
    @inlinable
    public var isOn: Bool { configuration != nil }
}

/// A recorder's settings, shared by all copies of it.
@usableFromInline
final class RecorderConfiguration: Sendable {
    @usableFromInline let sink: any TraceSink
    @usableFromInline let sampling: Sampling
    @usableFromInline let filter: (@Sendable (Any) -> Bool)?
    let payloads: Payloads
    /// How payloads are captured, worked out once from `payloads` and the sink.
    @usableFromInline let payloadCapture: PayloadCapture
    @usableFromInline let token = OwnerTokens.make()
    /// The count of commands sent through async chains that the filter let through (see
    /// ``admitsInTask(_:thread:)``); only a sampling recorder keeps one.
    let asyncCommands: SharedCounter?
    /// Reads the span a command ran under, for each trace that names none (see
    /// ``Recorder/notingTraceParent(_:)``); `nil` for nearly every recorder.
    @usableFromInline let readsTraceParent: (@Sendable () -> TraceParent?)?

    /// Hands `trace` to the sink, called where it is stored: read out of the configuration by a caller, the
    /// existential was copied — a retain and a release of the sink, on their slow path since per-thread state
    /// refers to sinks weakly.
    /// Nothing the sink sends on `thread` meanwhile is traced (see ``ThreadStateFields/sinkDepth``).
    @inlinable
    func record(_ trace: Trace, on thread: ThreadState) {
        if let readsTraceParent { trace.noteTraceParent(readsTraceParent) }
        thread.whileSinkRecords { sink.record(trace) }
    }

    /// A copy with its own identity, for one chain: threads sending through different chains then never share
    /// its reference count, and sampling counts per chain.
    func copyForChain() -> RecorderConfiguration {
        RecorderConfiguration(
            sink: sink,
            sampling: sampling,
            filter: filter,
            payloads: payloads,
            readsTraceParent: readsTraceParent
        )
    }

    init(
        sink: any TraceSink,
        sampling: Sampling,
        filter: (@Sendable (Any) -> Bool)?,
        payloads: Payloads,
        readsTraceParent: (@Sendable () -> TraceParent?)? = nil
    ) {
        self.sink = sink
        self.sampling = sampling
        self.filter = filter
        self.payloads = payloads
        self.readsTraceParent = readsTraceParent
        self.payloadCapture = PayloadCapture(payloads, sink: sink)
        asyncCommands = sampling.interval > 1 ? SharedCounter() : nil
    }

    deinit {
        // Threads drop their sampling countdowns for this configuration. Only a sampling configuration has any,
        // and every chain edit releases one configuration: the others make no thread sweep its cache.
        if sampling.interval > 1 { ThreadState.ownerReleased() }
    }

    /// Whether `command`, sent from async code, is to be traced: the filter first, then one count shared by every
    /// task — the first command and every `interval`-th after it, whichever task sends it. Not a count per thread:
    /// a task moves between threads at its suspension points. Nor per task: a server's tasks come and go, one a
    /// request, and a count per task traced each new task's first command — every request (300 of 300 sign-up
    /// flows of one task each, sampled 1 in 10, before this count; 30 after).
    @usableFromInline
    func admitsInTask<Command>(_ command: Command, thread: ThreadState) -> Bool {
        guard let asyncCommands else { return admits(command, thread: thread) }
        if thread.sinkDepth > 0 { return false }
        if let filter, !filter(command) { return false }
        return asyncCommands.next() % UInt64(sampling.interval) == 0
    }

    /// Whether `command` is to be traced: never while a sink records on this thread (a sink's own sends), then
    /// the filter, then this thread's sampling countdown.
    @inlinable
    func admits<Command>(_ command: Command, thread: ThreadState) -> Bool {
        if thread.sinkDepth > 0 { return false }
        if let filter, !filter(command) { return false }
        if sampling.interval == 1 { return true }
        let countdown = thread.slot(token: token, owner: self) { SamplingCountdown.make(0) }
        if countdown.value == 0 {
            countdown.value = sampling.interval - 1
            return true
        }
        countdown.value -= 1
        return false
    }
}
