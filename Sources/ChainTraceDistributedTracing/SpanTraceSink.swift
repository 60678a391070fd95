public import ChainTrace
import ChainTraceFastPath
import Dispatch
public import Tracing

/// Turns each recorded trace into spans of a swift-distributed-tracing `Tracer` — so chain traces appear in
/// Jaeger, Tempo or any OpenTelemetry collector, inside the app's own traces.
///
/// A command becomes a span named `chain kind`; each hop a child span named after its handler (nested as the
/// hops nested), or, with ``HopStyle/events``, an event on the command's span. Attributes name the chain, the
/// command, and each hop's handler, position, decision and self time; a failed hop's span and the command's span
/// get an error status. The command's span is a child of the `ServiceContext` current where the command was sent.
///
/// ```swift
/// InstrumentationSystem.bootstrap(otelTracer)      // e.g. swift-otel, at app start
/// chain.recorder = Recorder(sink: SpanTraceSink(delivery: .background()))
/// ```
///
/// Spans are made when a trace is finished, with the recorded start and end times. When no tracer is
/// bootstrapped (`NoOpTracer`), recording a trace into this sink does no work beyond that check.
///
/// Making spans is a tracer's slowest part: with swift-otel they took the recording thread 7.8–8.9 µs a hop here. With
/// ``Delivery/background(queueCapacity:)`` the recording thread only hands the trace (and the context it was
/// sent in) to a queue of its own; a thread of the sink's makes the spans. When that thread falls behind and a
/// queue is full, traces are dropped and counted in ``droppedCount`` — never silently.
public final class SpanTraceSink: TraceSink {
    /// How hops appear.
    public enum HopStyle: Sendable {
        /// A child span per hop: the most detail, a span each.
        case spans
        /// An event per hop on the command's span: one span per command.
        case events
    }

    /// Which thread makes the spans.
    public enum Delivery: Sendable, Hashable {
        /// The recording thread, before ``record(_:)`` returns: the spans exist as soon as the command has run.
        case onRecordingThread
        /// A thread of the sink's own: ``record(_:)`` hands the trace over through a queue of the recording
        /// thread's own holding at most `queueCapacity` traces (no lock shared with other threads, no allocation);
        /// a full queue drops the trace, counted in ``droppedCount``. ``flush()`` waits for the spans.
        case background(queueCapacity: Int = 8_192)
    }

    private let tracer: (any Tracer)?
    private let hopStyle: HopStyle
    /// The bootstrapped tracer as last looked up, and when to look again while it is the no-op one: the lookup
    /// takes a lock in swift-distributed-tracing, so it is done at most once a second, not once per trace.
    private let bootstrapped: LockedValue<(tracer: any Tracer, nextLookup: UInt64)>
    private let drain: BackgroundDrain<SpanMaker>?
    private let queueCapacity: Int
    private let slot = PerThreadSlot()
    private let closed = PublishedCounter()
    private let droppedAfterClose = LockedValue(0)

    /// Sends spans to `tracer`, or to the bootstrapped tracer (`InstrumentationSystem.tracer`) when `nil`; a
    /// tracer bootstrapped after the sink is made is picked up within a second.
    ///
    /// - Parameters:
    ///   - tracer: Where spans go; `nil` for the bootstrapped tracer.
    ///   - hops: A span per hop, or an event per hop on the command's span.
    ///   - delivery: Whether the recording thread makes the spans or hands the trace to the sink's own thread.
    public init(tracer: (any Tracer)? = nil, hops: HopStyle = .spans, delivery: Delivery = .onRecordingThread) {
        self.tracer = tracer
        self.hopStyle = hops
        bootstrapped = LockedValue((InstrumentationSystem.tracer, Self.now() + 1_000_000_000))
        switch delivery {
        case .onRecordingThread:
            drain = nil
            queueCapacity = 0
        case .background(let capacity):
            let drain = BackgroundDrain(consumer: SpanMaker(hops: hops), flushInterval: .seconds(1))
            drain.start()
            self.drain = drain
            queueCapacity = max(2, capacity)
        }
    }

    deinit {
        close()
        PerThreadSlot.ownerReleased()
    }

    /// How many traces were dropped instead of made into spans: by a full queue (background delivery), or
    /// recorded after ``close()``.
    public var droppedCount: Int {
        (drain?.droppedCount ?? 0) + droppedAfterClose.withLock { $0 }
    }

    public func record(_ trace: Trace) {
        let tracer =
            self.tracer
            ?? bootstrapped.withLock { state in
                if state.tracer is NoOpTracer {
                    let now = Self.now()
                    if now >= state.nextLookup {
                        state = (InstrumentationSystem.tracer, now + 1_000_000_000)
                    }
                }
                return state.tracer
            }
        if tracer is NoOpTracer { return }
        // The context the command was sent in, read here: the spans are children of it wherever they are made.
        let parent = InstrumentationContext.current ?? .topLevel
        guard let drain else {
            SpanMaker.emit(trace, parent: parent, to: tracer, hops: hopStyle)
            return
        }
        guard closed.value == 0 else {
            droppedAfterClose.withLock { $0 += 1 }
            return
        }
        let queue = slot.object(owner: self) { drain.register(capacity: queueCapacity) }
        if queue.queue.push(SpanMaker.Pending(trace: trace, parent: parent, tracer: tracer)) {
            // Half full: the drain may be in a long idle sleep.
            if queue.queue.isHalfFullToProducer { drain.wake() }
            return
        }
        drain.wake()
        queue.noteDropped()
    }

    /// Returns once the spans of every trace recorded before the call have been made (background delivery; at
    /// once otherwise). The tracer exports them as it does (swift-otel: in batches, in the background).
    public func flush() {
        drain?.flush()
    }

    /// Makes the spans of every trace recorded and stops the sink's thread; traces recorded later are dropped and
    /// counted. Called when the sink is released.
    public func close() {
        guard closed.value == 0 else { return }
        closed.store(1)
        drain?.close()
    }

    private static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }
}

/// Makes the spans of traces: on the recording thread, or as a background sink's drain consumer.
final class SpanMaker: BackgroundDrainConsumer {
    /// A trace handed over with the context it was sent in and the tracer to make its spans with.
    struct Pending {
        let trace: Trace
        let parent: InstrumentationContext
        let tracer: any Tracer
    }

    let hops: SpanTraceSink.HopStyle

    init(hops: SpanTraceSink.HopStyle) {
        self.hops = hops
    }

    func pass(flushing: Bool, drainQueues: ((borrowing Pending) -> Void, (Int) -> Void) -> Int) -> Int {
        // Drops are counted by the drain (`SpanTraceSink.droppedCount`); there is no log to note them in.
        drainQueues(
            { pending in Self.emit(pending.trace, parent: pending.parent, to: pending.tracer, hops: hops) },
            { _ in }
        )
    }

    func finish() {}

    /// Makes the spans of `trace` under `parent` with `tracer` (opened, so its spans are concrete).
    static func emit(
        _ trace: Trace,
        parent: InstrumentationContext,
        to tracer: any Tracer,
        hops: SpanTraceSink.HopStyle
    ) {
        emitSpans(trace, parent: parent, to: tracer, hops: hops)
    }

    private static func emitSpans<T: Tracer>(
        _ trace: Trace,
        parent: InstrumentationContext,
        to tracer: T,
        hops hopStyle: SpanTraceSink.HopStyle
    ) {
        let start = UInt64(max(0, trace.startTime))
        func instant(_ offset: UInt64) -> DefaultTracerClock.Timestamp {
            DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: start &+ offset)
        }
        let root = tracer.startSpan(
            "\(trace.chain) \(trace.commandKind)",
            context: parent,
            ofKind: .internal,
            at: instant(0)
        )
        root.updateAttributes { attributes in
            attributes["chaintrace.chain"] = trace.chain
            attributes["chaintrace.command.kind"] = trace.commandKind
            if let id = trace.commandID { attributes["chaintrace.command.id"] = id }
            attributes["chaintrace.entry"] = trace.entry
            attributes["chaintrace.outcome"] = trace.outcome.kind
            attributes["chaintrace.hops"] = trace.hops.count
        }
        // Each hop's span is a child of the span of the hop it ran inside (HopNesting), or of the command's; spans
        // end at their hops' ends, once every span has started.
        let hops = trace.hops
        let enclosing = hopStyle == .spans ? HopNesting.enclosing(hops) : []
        var spans: [(span: T.Span, end: UInt64)?] = []
        spans.reserveCapacity(hops.count)
        for (index, hop) in hops.enumerated() {
            var attributes: SpanAttributes = [:]
            attributes["chaintrace.handler"] = hop.handler
            attributes["chaintrace.position"] = hop.position
            attributes["chaintrace.decision"] = hop.decision.rawValue
            attributes["chaintrace.self_ns"] = Int64(clamping: hop.selfDuration)
            if let reason = hop.reason { attributes["chaintrace.reason"] = reason }
            if let registry = hop.registry { attributes["chaintrace.registry"] = registry }
            switch hopStyle {
            case .events:
                root.addEvent(SpanEvent(name: hop.handler, at: instant(hop.startOffset), attributes: attributes))
                spans.append(nil)
            case .spans:
                var context = root.context
                if let parent = enclosing[index], let span = spans[parent]?.span { context = span.context }
                let span = tracer.startSpan(
                    hop.handler,
                    context: context,
                    ofKind: .internal,
                    at: instant(hop.startOffset)
                )
                span.attributes = attributes
                if hop.decision == .failed {
                    span.setStatus(SpanStatus(code: .error, message: hop.failureMessage))
                }
                spans.append((span, hop.startOffset &+ hop.inclusiveDuration))
            }
        }
        // Innermost first, as they would have ended: the later a hop started, the sooner it is ended here.
        for case (let span, let end)? in spans.reversed() { span.end(at: instant(end)) }
        if case .failed(let handler, let error) = trace.outcome {
            root.setStatus(SpanStatus(code: .error, message: "\(handler): \(error)"))
        }
        root.end(at: instant(trace.duration))
    }
}
