import Foundation
import InMemoryTracing
import Tracing

/// swift-distributed-tracing's `InMemoryTracer` with ids as W3C Trace Context writes them (32 and 16 hex digits)
/// and propagation as swift-otel's default propagator does it: it injects a `traceparent` header, which
/// `TraceParent(context:)` reads. Spans are the in-memory tracer's: `finishedSpans` lists them.
public struct W3CInMemoryTracer: Tracer {
    /// The tracer that makes and keeps the spans.
    public let spans: InMemoryTracer

    /// A tracer whose ids count up from 1, in hex.
    public init() {
        let counter = LockedCounter()
        spans = InMemoryTracer(
            idGenerator: .init(
                nextTraceID: { Self.hex(counter.next(), digits: 32) },
                nextSpanID: { Self.hex(counter.next(), digits: 16) }
            )
        )
    }

    /// The spans ended so far.
    public var finishedSpans: [FinishedInMemorySpan] { spans.finishedSpans }

    public func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> InMemorySpan {
        spans.startSpan(
            operationName,
            context: context(),
            ofKind: kind,
            at: instant(),
            function: function,
            file: fileID,
            line: line
        )
    }

    public func forceFlush() { spans.forceFlush() }

    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier,
        into context: inout ServiceContext,
        using extractor: Extract
    ) where Extract.Carrier == Carrier {
        spans.extract(carrier, into: &context, using: extractor)
    }

    /// Injects the context's span as `traceparent: 00-<trace id>-<span id>-01`, as a W3C propagator does.
    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext,
        into carrier: inout Carrier,
        using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    /// `value` in `digits` lowercase hex digits.
    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// A counter threads share, under an `NSLock` (a pthread mutex, which ThreadSanitizer sees; it does not see the
/// futex `Synchronization.Mutex` uses on Linux, and reports the counter's accesses as races).
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value: UInt64 = 0

    func next() -> UInt64 {
        lock.withLock {
            value += 1
            return value
        }
    }
}
