import CChainTraceSupport
import ChainTraceFastPath

/// What a chain walk reports as it goes; the walk is generic over it so an untraced send compiles to the bare
/// loop and a traced one adds exactly one clock read per hop.
@usableFromInline
protocol HopObserver {
    /// A handler finished with `decision`.
    mutating func hop(_ handler: Int32, registry: Int32, decision: Decision, reason: String?)
    /// A handler threw `error`.
    mutating func failed(_ handler: Int32, registry: Int32, error: any Error)
    /// The walk stopped at `handler`, past the hop limit, with the error `makeError` makes (and returns it). The
    /// error is made after the stop is timed: naming the loop is ChainTrace's work, not the handlers'.
    mutating func stopped(_ handler: Int32, by makeError: () -> ChainError) -> ChainError
    /// A registry's internal chain starts; returns a mark for ``endRegistry(_:)``.
    mutating func beginRegistry(_ registry: Int32) -> Int
    /// The registry's internal chain is over (its members passed, or one accepted or failed).
    mutating func endRegistry(_ mark: Int)
}

/// Observes nothing: the walk of a chain that is not recording.
@usableFromInline
struct UntracedHops: HopObserver {
    /// Gives the type storage: an `inout` access to a zero-size value can carry a placeholder address, which
    /// ThreadSanitizer's access instrumentation dereferences and crashes on.
    @usableFromInline var storage: UInt8 = 0

    @inlinable init() {}
    @inlinable mutating func hop(_ handler: Int32, registry: Int32, decision: Decision, reason: String?) {}
    @inlinable mutating func failed(_ handler: Int32, registry: Int32, error: any Error) {}
    @inlinable mutating func stopped(_ handler: Int32, by makeError: () -> ChainError) -> ChainError { makeError() }
    @inlinable mutating func beginRegistry(_ registry: Int32) -> Int { 0 }
    @inlinable mutating func endRegistry(_ mark: Int) {}
}

/// Records hops of a chain walk: one clock read per hop, since a hop ends when the next begins. Hops go
/// straight into the trace's own storage; times are clock ticks until the trace is read (see ``MonotonicClock``).
@usableFromInline
struct TracedHops: HopObserver {
    @usableFromInline var storage: TraceStorage
    @usableFromInline let start: UInt64
    @usableFromInline var last: UInt64
    /// Read once per trace rather than once per hop.
    @usableFromInline let usesCycleCounter: Bool

    /// Starts a walk's trace, in a storage this thread's last recycled trace left behind when there is one.
    /// The chain is borrowed: an initialiser's parameters are otherwise owned, which costs the caller a retain and
    /// a release of the chain per walk.
    @inlinable @inline(__always)
    init<Member>(chain: borrowing CompiledChain<Member>, entry: Int32, thread: borrowing ThreadState) {
        if let spare = thread.spareTraceStorage {
            thread.spareTraceStorage = nil
            spare.reset(names: UnretainedObject(chain.names), entry: entry, chainVersion: chain.version)
            storage = spare
        } else {
            storage = .make(capacity: chain.nodes.count) {
                TraceHeader(
                    id: 0,
                    names: chain.names,
                    entry: entry,
                    chainVersion: chain.version,
                    start: 0,
                    inTicks: true
                )
            }
        }
        usesCycleCounter = MonotonicClock.usesCycleCounter
        start = MonotonicClock.now()
        last = start
    }

    /// Always inlined: as a call (the optimiser's choice once the record had its parent), the traced walk spilled
    /// the record and passed the reason to be released, and `Chain, traced into memory` took ~1.3 ns a hop more
    /// (six interleaved rounds).
    @inlinable @inline(__always)
    mutating func append(_ record: HopRecord, reason: String?) {
        var full = false
        storage.withUnsafeMutablePointerToHeader { full = $0.pointee.count == $0.pointee.capacity }
        if full { storage = storage.grown() }
        storage.withUnsafeMutablePointers { header, records in
            (records + header.pointee.count).initialize(to: record)
            if reason != nil { header.pointee.reasons.set(reason, at: header.pointee.count) }
            header.pointee.count += 1
        }
    }

    @inlinable
    mutating func hop(_ handler: Int32, registry: Int32, decision: Decision, reason: String?) {
        hop(handler, registry: registry, decision: decision, reason: reason, endingAt: readClock())
    }

    @inlinable @inline(__always)
    func readClock() -> UInt64 {
        usesCycleCounter ? chaintrace_read_cycle_counter() : MonotonicClock.monotonicNanoseconds()
    }

    /// Records a hop that ended at `now`.
    @inlinable @inline(__always)
    mutating func hop(_ handler: Int32, registry: Int32, decision: Decision, reason: String?, endingAt now: UInt64) {
        let duration = now &- last
        append(
            HopRecord(
                handler: handler,
                registry: registry,
                decision: decision,
                // A registry's members get it as their parent when it ends (`endRegistry`).
                parent: -1,
                startOffset: last &- start,
                inclusiveDuration: duration,
                selfDuration: duration
            ),
            reason: reason
        )
        last = now
    }

    /// The hop ends when its handler threw, before the error's text is made: that text is ChainTrace's work, not
    /// the handler's (made first, a replay's modelled handler that fails was charged ~400 ns a failure for it, and
    /// its first failure the runtime's first conformance lookups, ~80 µs — enough to flag it slow).
    @inlinable
    mutating func failed(_ handler: Int32, registry: Int32, error: any Error) {
        let now = readClock()
        hop(handler, registry: registry, decision: .failed, reason: FailureText.of(error), endingAt: now)
    }

    /// The stop ends when the walk reached the limit, before the loop is looked for and named: made first, the
    /// stopped hop was charged that work — 55–165 µs for a replay's first loop, flagging a do-nothing observer slow.
    @inlinable
    mutating func stopped(_ handler: Int32, by makeError: () -> ChainError) -> ChainError {
        let now = readClock()
        let error = makeError()
        hop(handler, registry: -1, decision: .failed, reason: FailureText.of(error), endingAt: now)
        return error
    }

    @inlinable
    mutating func beginRegistry(_ registry: Int32) -> Int {
        var mark = 0
        storage.withUnsafeMutablePointerToHeader { mark = $0.pointee.count }
        append(
            HopRecord(
                handler: registry,
                registry: -1,
                decision: .passed,
                parent: -1,
                startOffset: last &- start,
                inclusiveDuration: 0,
                selfDuration: 0
            ),
            reason: nil
        )
        return mark
    }

    @inlinable
    mutating func endRegistry(_ mark: Int) {
        let end = last &- start
        storage.withUnsafeMutablePointers { header, records in
            let inclusive = end &- records[mark].startOffset
            var nested: UInt64 = 0
            // Its members ran inside it (registries do not nest: their members are handlers). Set here rather than
            // as each hop is recorded, which cost every traced hop of every chain ~14 instructions (callgrind,
            // `Chain, traced into memory`).
            for index in (mark + 1)..<header.pointee.count {
                nested &+= records[index].inclusiveDuration
                records[index].parent = Int32(truncatingIfNeeded: mark)
            }
            records[mark].inclusiveDuration = inclusive
            records[mark].selfDuration = inclusive &- nested
        }
    }

    /// The finished trace of the walk. Consumes the hops, so the trace takes over their storage with no
    /// reference counted.
    @inlinable
    consuming func trace<Member, Command>(
        of command: Command,
        over chain: CompiledChain<Member>,
        capturing payloads: PayloadCapture,
        id: UInt64
    ) -> Trace {
        trace(describedAs: chain.command.describe(command, capturing: payloads), id: id)
    }

    /// The finished trace of the walk, of a command described by the caller (consuming the hops, as above).
    @inlinable
    consuming func trace(describedAs description: CommandDescription, id: UInt64) -> Trace {
        let start = start
        let duration = last &- start
        storage.withUnsafeMutablePointers { header, records in
            header.pointee.id = id
            header.pointee.kind = description.kind
            header.pointee.commandID = description.id
            header.pointee.payload = description.payload
            header.pointee.encodedPayload = description.encodedPayload
            header.pointee.start = start
            header.pointee.duration = duration
            // A walk stops at the hop that accepted or failed, so only the last hop can decide the outcome.
            let count = header.pointee.count
            if count > 0, records[count - 1].decision == .accepted || records[count - 1].decision == .failed {
                header.pointee.outcomeHop = Int32(count - 1)
            }
        }
        return Trace(storage: storage)
    }
}
