import CChainTraceSupport

/// What a chain walk reports as it goes; the walk is generic over it so an untraced send compiles to the bare
/// loop and a traced one adds exactly one clock read per hop.
@usableFromInline
protocol HopObserver {
    /// A handler finished with `decision`.
    mutating func hop(_ handler: Int32, registry: Int32, decision: Decision, reason: String?)
    /// A handler threw `error`.
    mutating func failed(_ handler: Int32, registry: Int32, error: any Error)
    /// A registry's internal chain starts; returns a mark for ``endRegistry(_:)``.
    mutating func beginRegistry(_ registry: Int32) -> Int
    /// The registry's internal chain is over (its members passed, or one accepted or failed).
    mutating func endRegistry(_ mark: Int)
}

/// Observes nothing: the walk of a chain that is not recording.
@usableFromInline
struct UntracedHops: HopObserver {
    @inlinable init() {}
    @inlinable mutating func hop(_ handler: Int32, registry: Int32, decision: Decision, reason: String?) {}
    @inlinable mutating func failed(_ handler: Int32, registry: Int32, error: any Error) {}
    @inlinable mutating func beginRegistry(_ registry: Int32) -> Int { 0 }
    @inlinable mutating func endRegistry(_ mark: Int) {}
}

/// Records hops of a chain walk: one clock read per hop, since a hop ends when the next begins. Times are
/// clock ticks until the trace is read (see ``MonotonicClock``).
@usableFromInline
struct TracedHops: HopObserver {
    @usableFromInline var records: [HopRecord] = []
    @usableFromInline var reasons = HopReasons()
    @usableFromInline let start: UInt64
    @usableFromInline var last: UInt64
    /// Read once per trace rather than once per hop.
    @usableFromInline let usesCycleCounter: Bool

    @inlinable
    init(expectedHops: Int) {
        records.reserveCapacity(expectedHops)
        usesCycleCounter = MonotonicClock.usesCycleCounter
        start = MonotonicClock.now()
        last = start
    }

    @inlinable
    mutating func hop(_ handler: Int32, registry: Int32, decision: Decision, reason: String?) {
        let now = usesCycleCounter ? chaintrace_read_cycle_counter() : MonotonicClock.monotonicNanoseconds()
        let duration = now &- last
        if reason != nil { reasons.set(reason, at: records.count) }
        records.append(
            HopRecord(
                handler: handler,
                registry: registry,
                decision: decision,
                startOffset: last &- start,
                inclusiveDuration: duration,
                selfDuration: duration
            )
        )
        last = now
    }

    @inlinable
    mutating func failed(_ handler: Int32, registry: Int32, error: any Error) {
        hop(handler, registry: registry, decision: .failed, reason: String(describing: error))
    }

    @inlinable
    mutating func beginRegistry(_ registry: Int32) -> Int {
        records.append(
            HopRecord(
                handler: registry,
                registry: -1,
                decision: .passed,
                startOffset: last &- start,
                inclusiveDuration: 0,
                selfDuration: 0
            )
        )
        return records.count - 1
    }

    @inlinable
    mutating func endRegistry(_ mark: Int) {
        let inclusive = last &- (start &+ records[mark].startOffset)
        var nested: UInt64 = 0
        for index in (mark + 1)..<records.count { nested &+= records[index].inclusiveDuration }
        records[mark].inclusiveDuration = inclusive
        records[mark].selfDuration = inclusive &- nested
    }

    /// The finished trace of a walk over `chain` that started at node `entry`.
    @inlinable
    func trace<Member, Command>(
        of command: Command,
        over chain: CompiledChain<Member>,
        entry: Int32,
        configuration: RecorderConfiguration,
        id: UInt64
    ) -> Trace {
        let description = chain.command.describe(command, capturingPayload: configuration.capturesPayloads)
        // A walk stops at the hop that accepted or failed, so only the last hop can decide the outcome.
        var outcomeHop: Int32 = -1
        if let last = records.last, last.decision == .accepted || last.decision == .failed {
            outcomeHop = Int32(records.count - 1)
        }
        return Trace(
            storage: TraceStorage(
                id: id,
                names: chain.names,
                kind: description.kind,
                commandID: description.id,
                payload: description.payload,
                entry: entry,
                chainVersion: chain.version,
                start: start,
                duration: last &- start,
                records: records,
                reasons: reasons,
                outcomeHop: outcomeHop,
                inTicks: true
            )
        )
    }
}
