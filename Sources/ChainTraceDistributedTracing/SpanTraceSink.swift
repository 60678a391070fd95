import ChainTraceFastPath
public import ChainTrace
public import Tracing
import Dispatch

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
/// chain.recorder = Recorder(sink: SpanTraceSink())
/// ```
///
/// Spans are made when a trace is finished, with the recorded start and end times. When no tracer is
/// bootstrapped (`NoOpTracer`), recording a trace into this sink does no work beyond that check.
public final class SpanTraceSink: TraceSink {
    /// How hops appear.
    public enum HopStyle: Sendable {
        /// A child span per hop: the most detail, a span each.
        case spans
        /// An event per hop on the command's span: one span per command.
        case events
    }

    private let tracer: (any Tracer)?
    private let hopStyle: HopStyle
    /// The bootstrapped tracer as last looked up, and when to look again while it is the no-op one: the lookup
    /// takes a lock in swift-distributed-tracing, so it is done at most once a second, not once per trace.
    private let bootstrapped: LockedValue<(tracer: any Tracer, nextLookup: UInt64)>

    /// Sends spans to `tracer`, or to the bootstrapped tracer (`InstrumentationSystem.tracer`) when `nil`; a
    /// tracer bootstrapped after the sink is made is picked up within a second.
    public init(tracer: (any Tracer)? = nil, hops: HopStyle = .spans) {
        self.tracer = tracer
        self.hopStyle = hops
        bootstrapped = LockedValue((InstrumentationSystem.tracer, Self.now() + 1_000_000_000))
    }

    public func record(_ trace: Trace) {
        let tracer = self.tracer ?? bootstrapped.withLock { state in
            if state.tracer is NoOpTracer {
                let now = Self.now()
                if now >= state.nextLookup {
                    state = (InstrumentationSystem.tracer, now + 1_000_000_000)
                }
            }
            return state.tracer
        }
        if tracer is NoOpTracer { return }
        emit(trace, to: tracer)
    }

    private static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    private func emit<T: Tracer>(_ trace: Trace, to tracer: T) {
        let start = UInt64(max(0, trace.startTime))
        func instant(_ offset: UInt64) -> DefaultTracerClock.Timestamp {
            DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: start &+ offset)
        }
        let parent = InstrumentationContext.current ?? .topLevel
        let root = tracer.startSpan("\(trace.chain) \(trace.commandKind)", context: parent, ofKind: .internal, at: instant(0))
        root.updateAttributes { attributes in
            attributes["chaintrace.chain"] = trace.chain
            attributes["chaintrace.command.kind"] = trace.commandKind
            if let id = trace.commandID { attributes["chaintrace.command.id"] = id }
            attributes["chaintrace.entry"] = trace.entry
            attributes["chaintrace.outcome"] = trace.outcome.kind
            attributes["chaintrace.hops"] = trace.hops.count
        }
        var open: [(span: T.Span, end: UInt64)] = []
        func closeSpans(endingBy time: UInt64) {
            while let last = open.last, last.end <= time {
                last.span.end(at: instant(last.end))
                open.removeLast()
            }
        }
        for hop in trace.hops {
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
            case .spans:
                closeSpans(endingBy: hop.startOffset)
                let context = open.last?.span.context ?? root.context
                let span = tracer.startSpan(hop.handler, context: context, ofKind: .internal, at: instant(hop.startOffset))
                span.attributes = attributes
                if hop.decision == .failed {
                    span.setStatus(SpanStatus(code: .error, message: hop.reason))
                }
                open.append((span, hop.startOffset &+ hop.inclusiveDuration))
            }
        }
        closeSpans(endingBy: .max)
        if case .failed(let handler, let error) = trace.outcome {
            root.setStatus(SpanStatus(code: .error, message: "\(handler): \(error)"))
        }
        root.end(at: instant(trace.duration))
    }
}
