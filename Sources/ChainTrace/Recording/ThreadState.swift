import CChainTraceSupport
import ChainTraceFastPath

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Per-thread recording state, reached through one pthread key.
///
/// Everything the recording path needs that would otherwise be shared between threads lives here — trace id
/// blocks, sampling counters, in-memory sink shards, the trace being built by instrumented handlers — so two
/// threads recording at once never touch the same lock or atomic per hop.
///
/// Only the owning thread ever touches an instance, so it needs no synchronisation, and its accesses skip the
/// run-time exclusivity check (``UncheckedCell``; the check alone cost 2–8 ns a hop, see ChainTraceFastPath).
@usableFromInline
typealias ThreadState = UncheckedCell<ThreadStateFields>

/// What ``ThreadState`` holds.
@usableFromInline
struct ThreadStateFields {
    /// The next trace id this thread hands out, and the end of its reserved block.
    @usableFromInline var nextTraceID: UInt64 = 0
    @usableFromInline var traceIDLimit: UInt64 = 0
    /// The trace that instrumented synchronous handlers on this thread are adding hops to, unretained: the
    /// outermost hop that set it holds it until it clears it, and every hop that reads it runs inside that one.
    /// Read retained, it cost a retain and a release a hop (see `ThreadLocalObject.withCurrent`).
    @usableFromInline var activeTrace: UnretainedObject<ActiveTrace>?
    /// The type of the command ``activeTrace`` is of: a hop for a command of this type joins it after one
    /// comparison here; one for another type may be a side call into another chain (`ActiveTrace.tracesCommands`).
    @usableFromInline var activeCommandType: ObjectIdentifier?
    /// How many instrumented synchronous hops are open on this thread for commands the recorder chose not to
    /// trace: their nested hops must not start a trace of their own for the same command.
    @usableFromInline var untracedDepth = 0
    /// How many of those hops began where no task's async trace was open (outside any task, or in a task whose
    /// hops trace nothing): while any is open, every instrumented synchronous hop on this thread that is not in a
    /// trace of its own runs untraced — its command is the untraced one, or a side call it made, and nothing here
    /// can open a trace for either — so it is told by this count alone, not by the call that decides whether a new
    /// command is traced. What it buys: the benchmark chain sampled 1 in 100, 21.9–22.4 → 15.0–15.2 ns a hop (the
    /// hand-written chain 7.5–7.7; four interleaved rounds of "instrumented chain (traceHop), sampled 1/100").
    @usableFromInline var untracedOutsideTaskTraces = 0
    /// A trace storage nobody holds any more, handed back by ``Trace/recycle(_:)`` for this thread's next traced
    /// walk to fill instead of allocating one.
    @usableFromInline var spareTraceStorage: TraceStorage?
    /// The last synchronous instrumented trace this thread finished, retired, for its next one to reuse.
    var spareActiveTrace: ActiveTrace?
    /// The last async instrumented trace a task finished on this thread that nothing else held any more,
    /// retired, for the next async trace started on this thread to reuse.
    var spareSharedTrace: ActiveTrace?
    /// This thread's copies of chain snapshots: a direct-mapped cache by chain token (see
    /// ``ChainBase/currentSnapshot(thread:)``), so a send reads its chain without taking the chain's lock.
    @usableFromInline var snapshotTokens = [UInt64](repeating: 0, count: 64)
    @usableFromInline var snapshots = [AnyObject?](repeating: nil, count: 64)
    /// The chain each cached snapshot belongs to, held weakly: a snapshot whose chain is gone is dropped (with the
    /// handlers it holds) at this thread's next send, see ``UncheckedCell/forgetReleasedOwners()``.
    @usableFromInline var snapshotOwners = [WeakOwner](repeating: WeakOwner(nil), count: 64)
    /// The count of released owners (`chaintrace_released_owners`) when this thread last dropped what it cached
    /// for released owners.
    @usableFromInline var seenOwnerReleases: Int64 = 0
    /// Whether the snapshot cache or the slots are being changed: a release that happens meanwhile (a handler
    /// dropping the last reference to a chain) must not change them too.
    @usableFromInline var cacheBusy = false

    /// The recorder of the innermost synchronous `ChainTracing.withRecorder(_:operation:)` scope opened on this
    /// thread outside any task, if any (see `ChainTracing.scopedRecorder(thread:)`).
    var scopedRecorderOutsideTasks: Recorder?
    /// This thread's copy of the bootstrapped recorder and hop limit, and the generation they were read at.
    var cachedRecorder = Recorder.off
    var cachedRecorderGeneration: Int64 = -1
    var cachedMaximumHops = 1000
    /// What the recorder knows about each command type met on this thread.
    var commandTypes: [ObjectIdentifier: CommandTypeInfo] = [:]
    /// The command type met last, and what is known about it.
    var lastCommandType: ObjectIdentifier?
    var lastCommandTypeInfo: CommandTypeInfo?
    /// Per-thread objects of recorders and sinks, found by their owner's token. Kept in parallel arrays so the
    /// lookup scans plain integers.
    @usableFromInline var slotTokens: [UInt64] = []
    @usableFromInline var slotValues: [AnyObject] = []
    @usableFromInline var slotOwners: [WeakOwner] = []
    /// How many sinks are taking a trace (or a chain change) on this thread: while any is, no command sent here
    /// is traced. A sink that forwards traces through a traced chain — an analytics pipeline, a chain of log
    /// handlers — would otherwise trace its own forwarding, and hand each of those traces to itself again, one
    /// inside the other until the stack ran out.
    @usableFromInline var sinkDepth = 0
    /// Lives as long as the thread: tells per-thread data kept elsewhere (an in-memory sink's shard) that the
    /// thread has exited. Last, so that no field the recording path reads moved.
    let lifetime = ThreadLifetime()

    @usableFromInline
    struct WeakOwner {
        @usableFromInline weak var owner: AnyObject?

        @usableFromInline
        init(_ owner: AnyObject?) {
            self.owner = owner
        }
    }

    @usableFromInline init() {}
}

/// The calling thread's state, made on first use and released when the thread exits.
@usableFromInline
let threadStates = ThreadLocalObject(usesThreadSlot: true) { ThreadState.make(ThreadStateFields()) }

extension UncheckedCell where Value == ThreadStateFields {
    /// The calling thread's state, created on first use and released when the thread exits.
    @inlinable
    static var current: ThreadState { ThreadLocalObject.withSlotObject(of: threadStates) { $0 } }

    /// Calls `body` with the calling thread's state, not retained (see `ThreadLocalObject.withSlotObject`).
    @inlinable
    static func withCurrent<T>(_ body: (ThreadState) throws -> T) rethrows -> T {
        try ThreadLocalObject.withSlotObject(of: threadStates, body)
    }

    @inlinable var activeTrace: UnretainedObject<ActiveTrace>? {
        _read { yield value.activeTrace }
        _modify { yield &value.activeTrace }
    }
    @inlinable var activeCommandType: ObjectIdentifier? {
        _read { yield value.activeCommandType }
        _modify { yield &value.activeCommandType }
    }
    @inlinable var untracedDepth: Int {
        _read { yield value.untracedDepth }
        _modify { yield &value.untracedDepth }
    }
    @inlinable var untracedOutsideTaskTraces: Int {
        _read { yield value.untracedOutsideTaskTraces }
        _modify { yield &value.untracedOutsideTaskTraces }
    }
    @inlinable var sinkDepth: Int {
        _read { yield value.sinkDepth }
        _modify { yield &value.sinkDepth }
    }

    /// Runs `body` — a sink taking a trace or a chain change — with nothing traced on this thread meanwhile
    /// (see ``ThreadStateFields/sinkDepth``).
    @inlinable
    func whileSinkRecords(_ body: () -> Void) {
        value.sinkDepth += 1
        body()
        value.sinkDepth -= 1
    }

    @inlinable var spareTraceStorage: TraceStorage? {
        _read { yield value.spareTraceStorage }
        _modify { yield &value.spareTraceStorage }
    }
    var spareActiveTrace: ActiveTrace? {
        _read { yield value.spareActiveTrace }
        _modify { yield &value.spareActiveTrace }
    }
    var spareSharedTrace: ActiveTrace? {
        _read { yield value.spareSharedTrace }
        _modify { yield &value.spareSharedTrace }
    }
    var lifetime: ThreadLifetime { value.lifetime }
    var scopedRecorderOutsideTasks: Recorder? {
        _read { yield value.scopedRecorderOutsideTasks }
        _modify { yield &value.scopedRecorderOutsideTasks }
    }
    var cachedRecorder: Recorder {
        _read { yield value.cachedRecorder }
        _modify { yield &value.cachedRecorder }
    }
    var cachedRecorderGeneration: Int64 {
        _read { yield value.cachedRecorderGeneration }
        _modify { yield &value.cachedRecorderGeneration }
    }
    var cachedMaximumHops: Int {
        _read { yield value.cachedMaximumHops }
        _modify { yield &value.cachedMaximumHops }
    }

    /// Drops this thread's cached snapshots and per-thread objects of chains, recorders and sinks that have been
    /// released since it last looked: one acquire load when none has.
    ///
    /// Without this, a thread would keep a dropped chain's handlers (and a dropped sink's traces) alive until it
    /// cached something else in the same entry or exited.
    @inlinable
    func forgetReleasedOwners() {
        let released = chaintrace_released_owners()
        if value.seenOwnerReleases != released { forgetReleasedOwners(count: released) }
    }

    @usableFromInline
    func forgetReleasedOwners(count released: Int64) {
        if value.cacheBusy { return }
        value.cacheBusy = true
        value.seenOwnerReleases = released
        // Released only once this thread's state is consistent again: a dropped handler may hold the last
        // reference to another chain, or run code that sends.
        var dropped: [AnyObject] = []
        for slot in value.snapshots.indices
        where value.snapshots[slot] != nil && value.snapshotOwners[slot].owner == nil {
            dropped.append(value.snapshots[slot]!)
            value.snapshots[slot] = nil
            value.snapshotTokens[slot] = 0
        }
        for index in value.slotOwners.indices.reversed() where value.slotOwners[index].owner == nil {
            dropped.append(value.slotValues[index])
            value.slotTokens.remove(at: index)
            value.slotValues.remove(at: index)
            value.slotOwners.remove(at: index)
        }
        value.cacheBusy = false
        withExtendedLifetime(dropped) {}
    }

    /// Called as an owner of per-thread state is released: the releasing thread drops what it cached for it at
    /// once (other threads do at their next send), unless it is in the middle of changing its cache.
    static func ownerReleased() {
        chaintrace_note_owner_released()
        guard let thread = threadStates.existing else { return }
        thread.forgetReleasedOwners(count: chaintrace_released_owners())
    }

    /// A fresh trace id: unique in the process, increasing on this thread.
    @inlinable
    func makeTraceID() -> UInt64 {
        if value.nextTraceID == value.traceIDLimit {
            value.nextTraceID = TraceIDBlocks.reserveBlock()
            value.traceIDLimit = value.nextTraceID + TraceIDBlocks.blockSize
        }
        defer { value.nextTraceID += 1 }
        return value.nextTraceID
    }

    /// The recorder's facts about `Command`, worked out once per thread and type, lent to `body` unretained: the
    /// thread keeps every one it made (a retain and a release fewer a traced command). `body` may send commands of
    /// its own (a traced command's kind, id or payload are the app's code).
    func withCommandTypeInfo<Command, T>(_ type: Command.Type, _ body: (CommandTypeInfo) -> T) -> T {
        let key = ObjectIdentifier(type)
        // Nearly every command of a thread is of the type before it: compared, not hashed.
        if value.lastCommandType == key, let info = value.lastCommandTypeInfo.map({ UnretainedObject($0) }) {
            return info.withObject(body)
        }
        let info = value.commandTypes[key] ?? CommandTypeInfo(type)
        value.commandTypes[key] = info
        (value.lastCommandType, value.lastCommandTypeInfo) = (key, info)
        return UnretainedObject(info).withObject(body)
    }

    /// This thread's object for `owner` (identified by `token`), made by `make` the first time.
    @inlinable
    func slot<Object: AnyObject>(token: UInt64, owner: AnyObject, make: () -> Object) -> Object {
        withSlot(token: token, owner: owner, make: make) { $0 }
    }

    /// ``slot(token:owner:make:)``'s object lent to `body`, unretained: the thread's slots hold it, and `body`
    /// must not add or drop this thread's slots. What it buys: a sink that keeps per-thread state (the in-memory
    /// sink's shard) reaches it without a retain and a release a trace.
    @inlinable
    func withSlot<Object: AnyObject, T>(token: UInt64, owner: AnyObject, make: () -> Object, _ body: (Object) -> T) -> T
    {
        if let index = value.slotTokens.firstIndex(of: token) {
            // Tokens are never reused and the slot is only ever stored with an `Object`.
            return UnretainedObject(unsafeDowncast(value.slotValues[index], to: Object.self)).withObject(body)
        }
        return body(addSlot(token: token, owner: owner, object: make()))
    }

    @usableFromInline
    func addSlot<Object: AnyObject>(token: UInt64, owner: AnyObject, object: Object) -> Object {
        // Slots of released owners go here and at every send (`ChainBase.currentSnapshot`), not on every lookup.
        forgetReleasedOwners()
        value.cacheBusy = true
        value.slotTokens.append(token)
        value.slotValues.append(object)
        value.slotOwners.append(ThreadStateFields.WeakOwner(owner))
        value.cacheBusy = false
        return object
    }
}

/// Hands out blocks of trace ids and owner tokens to threads, so the recording path takes this lock once per
/// `blockSize` traces rather than once per trace.
@usableFromInline
enum TraceIDBlocks {
    @usableFromInline static let blockSize: UInt64 = 4096
    private static let next = LockedValue<UInt64>(1)

    @usableFromInline
    static func reserveBlock() -> UInt64 {
        next.withLock { next in
            defer { next += blockSize }
            return next
        }
    }
}

/// Unique, never reused identities for recorders and sinks that keep per-thread state.
@usableFromInline
enum OwnerTokens {
    private static let next = LockedValue<UInt64>(1)

    @usableFromInline
    static func make() -> UInt64 {
        next.withLock { next in
            defer { next += 1 }
            return next
        }
    }
}

/// Lives as long as its thread's ``ThreadState`` — until the thread exits — and then publishes that the thread is
/// gone through ``exited``, which others hold. Not a weak reference to this object: a weak reference's side table,
/// reached only through tagged bits, reads as a leak to LeakSanitizer at exit while the main thread's state lives.
final class ThreadLifetime: Sendable {
    /// 1 once the thread has exited (release store, acquire load).
    let exited = PublishedCounter()

    deinit { exited.store(1) }
}
