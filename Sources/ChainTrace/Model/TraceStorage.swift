/// A trace's contents, in one immutable object so that copying a ``Trace`` — into a sink, a ring, a test's
/// array — costs one reference count.
@usableFromInline
final class TraceStorage: Sendable {
    let id: UInt64
    let names: HandlerNameTable
    /// The command kind when it is not the command type's name.
    let kind: String?
    let commandID: String?
    let payload: JSONValue?
    let entry: Int32
    let chainVersion: Int
    /// Clock ticks when `inTicks`, else wall-clock nanoseconds since 1970 (as a bit pattern).
    let start: UInt64
    /// Clock ticks when `inTicks`, else nanoseconds.
    let duration: UInt64
    let records: [HopRecord]
    let reasons: HopReasons
    /// The hop that decided the outcome (accepted or failed), or -1 when the command fell off the end.
    let outcomeHop: Int32
    let inTicks: Bool

    @usableFromInline
    init(
        id: UInt64,
        names: HandlerNameTable,
        kind: String?,
        commandID: String?,
        payload: JSONValue?,
        entry: Int32,
        chainVersion: Int,
        start: UInt64,
        duration: UInt64,
        records: [HopRecord],
        reasons: HopReasons,
        outcomeHop: Int32,
        inTicks: Bool
    ) {
        self.id = id
        self.names = names
        self.kind = kind
        self.commandID = commandID
        self.payload = payload
        self.entry = entry
        self.chainVersion = chainVersion
        self.start = start
        self.duration = duration
        self.records = records
        self.reasons = reasons
        self.outcomeHop = outcomeHop
        self.inTicks = inTicks
    }

    /// Nanoseconds for a time stored in this trace's unit.
    func nanoseconds(_ value: UInt64) -> UInt64 {
        inTicks ? MonotonicClock.nanoseconds(value) : value
    }

    var outcome: Outcome {
        guard outcomeHop >= 0 else { return .fellOffTheEnd }
        let record = records[Int(outcomeHop)]
        let handler = names.names[Int(record.handler)]
        if record.decision == .failed { return .failed(at: handler, error: reasons[Int(outcomeHop)] ?? "") }
        return .accepted(by: handler)
    }

    var hops: [Hop] {
        records.enumerated().map { position, record in
            // Convert positions, not spans, so consecutive hops still add up exactly in nanoseconds.
            let start = nanoseconds(record.startOffset)
            let inclusive = nanoseconds(record.startOffset &+ record.inclusiveDuration) &- start
            let exclusive =
                record.selfDuration == record.inclusiveDuration
                ? inclusive : min(inclusive, nanoseconds(record.selfDuration))
            return Hop(
                handler: names.names[Int(record.handler)],
                position: position,
                decision: record.decision,
                reason: reasons[position],
                registry: record.registry < 0 ? nil : names.names[Int(record.registry)],
                startOffset: start,
                inclusiveDuration: inclusive,
                selfDuration: exclusive
            )
        }
    }
}
