import ChainTraceJSON

/// One handler's turn with one command: who, where in the path, what it decided and how long it took.
///
/// Durations are nanoseconds from a monotonic clock. `inclusiveDuration` covers everything that happened between
/// the handler receiving the command and giving it back (for nested chains, that includes the handlers it
/// forwarded to); `selfDuration` is the part spent in the handler itself.
public struct Hop: Sendable, Hashable {
    /// The handler's name, unique within its chain.
    public var handler: String
    /// The hop's index in the trace's path, starting at 0.
    public var position: Int
    /// What the handler decided.
    public var decision: Decision
    /// Why, when the handler (or the recorder) said so: a pass reason, an override note, or the error of a failed hop.
    public var reason: String?
    /// The registry whose internal chain this hop ran in, or `nil` for a hop of the chain itself.
    public var registry: String?
    /// The ``position`` of the hop this one ran inside — the handler that called it, the registry whose chain it
    /// ran in, or the hop that fanned out to the child task it ran in — or `nil` for a hop at the top.
    ///
    /// Recorded as the hop starts. Traces read from a log written before parents were recorded (version 1 lines
    /// without `parent`, version 2) have `nil` everywhere; exports then infer the nesting from the hops' times.
    public var parent: Int?
    /// Nanoseconds from the start of the trace to the start of this hop.
    public var startOffset: UInt64
    /// Nanoseconds from the start of this hop to its end, including nested hops.
    public var inclusiveDuration: UInt64
    /// Nanoseconds spent in this handler itself: `inclusiveDuration` less the nested hops' inclusive time.
    public var selfDuration: UInt64

    /// The time spent in this handler itself (``selfDuration``).
    public var selfTime: Duration { .nanoseconds(Int64(saturating: selfDuration)) }
    /// The time from the start of this hop to its end, nested hops included (``inclusiveDuration``).
    public var inclusiveTime: Duration { .nanoseconds(Int64(saturating: inclusiveDuration)) }
    /// The time from the start of the trace to the start of this hop (``startOffset``).
    public var offset: Duration { .nanoseconds(Int64(saturating: startOffset)) }

    /// Creates a hop; used by the recorder, by trace log readers and by tests that build expected traces. A
    /// `parent` that is not an earlier hop's position is ignored when the hop is made part of a ``Trace``.
    public init(
        handler: String,
        position: Int,
        decision: Decision,
        reason: String? = nil,
        registry: String? = nil,
        parent: Int? = nil,
        startOffset: UInt64 = 0,
        inclusiveDuration: UInt64 = 0,
        selfDuration: UInt64 = 0
    ) {
        self.handler = handler
        self.position = position
        self.decision = decision
        self.reason = reason
        self.registry = registry
        self.parent = parent
        self.startOffset = startOffset
        self.inclusiveDuration = inclusiveDuration
        self.selfDuration = selfDuration
    }
}

extension Hop {
    /// What an error status says of this hop, when it failed: its reason, or "failed" when it recorded none (or an
    /// empty one) — as the OTLP export and `SpanTraceSink` write it.
    package var failureMessage: String {
        if let reason, !reason.isEmpty { return reason }
        return "failed"
    }
}
