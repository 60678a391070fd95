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
/// Only the owning thread ever touches an instance, so it needs no synchronisation.
@usableFromInline
final class ThreadState {
    /// The next trace id this thread hands out, and the end of its reserved block.
    @usableFromInline @exclusivity(unchecked) var nextTraceID: UInt64 = 0
    @usableFromInline @exclusivity(unchecked) var traceIDLimit: UInt64 = 0
    /// The trace that instrumented synchronous handlers on this thread are adding hops to.
    @usableFromInline @exclusivity(unchecked) var activeTrace: ActiveTrace?
    /// How many instrumented synchronous hops are open on this thread for commands the recorder chose not to
    /// trace: their nested hops must not start a trace of their own for the same command.
    @usableFromInline @exclusivity(unchecked) var untracedDepth = 0
    /// A trace storage nobody holds any more, handed back by ``Trace/recycle(_:)`` for this thread's next traced
    /// walk to fill instead of allocating one.
    @usableFromInline @exclusivity(unchecked) var spareTraceStorage: TraceStorage?
    /// This thread's copies of chain snapshots: a direct-mapped cache by chain token (see
    /// ``ChainBase/currentSnapshot(thread:)``), so a send reads its chain without taking the chain's lock.
    @usableFromInline @exclusivity(unchecked) var snapshotTokens = [UInt64](repeating: 0, count: 64)
    @usableFromInline @exclusivity(unchecked) var snapshots = [AnyObject?](repeating: nil, count: 64)

    /// This thread's copy of the bootstrapped recorder and hop limit, and the generation they were read at.
    @exclusivity(unchecked) var cachedRecorder = Recorder.off
    @exclusivity(unchecked) var cachedRecorderGeneration: Int64 = -1
    @exclusivity(unchecked) var cachedMaximumHops = 1000
    /// What the recorder knows about each command type met on this thread.
    @exclusivity(unchecked) var commandTypes: [ObjectIdentifier: CommandTypeInfo] = [:]
    /// Per-thread objects of recorders and sinks, found by their owner's token. Kept in parallel arrays so the
    /// lookup scans plain integers.
    @usableFromInline @exclusivity(unchecked) var slotTokens: [UInt64] = []
    @usableFromInline @exclusivity(unchecked) var slotValues: [AnyObject] = []
    @usableFromInline @exclusivity(unchecked) var slotOwners: [WeakOwner] = []

    @usableFromInline
    struct WeakOwner {
        @usableFromInline weak var owner: AnyObject?

        @usableFromInline
        init(_ owner: AnyObject) {
            self.owner = owner
        }
    }

    @usableFromInline init() {}

    /// The calling thread's state, created on first use and released when the thread exits.
    @inlinable
    static var current: ThreadState {
        if let pointer = pthread_getspecific(threadStateKey) {
            return Unmanaged<ThreadState>.fromOpaque(pointer).takeUnretainedValue()
        }
        return makeCurrent()
    }

    @usableFromInline
    static func makeCurrent() -> ThreadState {
        let state = ThreadState()
        pthread_setspecific(threadStateKey, Unmanaged.passRetained(state).toOpaque())
        return state
    }

    /// A fresh trace id: unique in the process, increasing on this thread.
    @inlinable
    func makeTraceID() -> UInt64 {
        if nextTraceID == traceIDLimit {
            nextTraceID = TraceIDBlocks.reserveBlock()
            traceIDLimit = nextTraceID + TraceIDBlocks.blockSize
        }
        defer { nextTraceID += 1 }
        return nextTraceID
    }

    /// The recorder's facts about `Command`, worked out once per thread and type.
    func commandTypeInfo<Command>(_ type: Command.Type) -> CommandTypeInfo {
        let key = ObjectIdentifier(type)
        if let info = commandTypes[key] { return info }
        let info = CommandTypeInfo(type)
        commandTypes[key] = info
        return info
    }

    /// This thread's object for `owner` (identified by `token`), made by `make` the first time.
    @inlinable
    func slot<Value: AnyObject>(token: UInt64, owner: AnyObject, make: () -> Value) -> Value {
        if let index = slotTokens.firstIndex(of: token) {
            // Tokens are never reused and the slot is only ever stored with a `Value`.
            return unsafeDowncast(slotValues[index], to: Value.self)
        }
        return addSlot(token: token, owner: owner, value: make())
    }

    @usableFromInline
    func addSlot<Value: AnyObject>(token: UInt64, owner: AnyObject, value: Value) -> Value {
        // Forget the slots of owners that are gone before adding one.
        for index in slotOwners.indices.reversed() where slotOwners[index].owner == nil {
            slotTokens.remove(at: index)
            slotValues.remove(at: index)
            slotOwners.remove(at: index)
        }
        slotTokens.append(token)
        slotValues.append(value)
        slotOwners.append(WeakOwner(owner))
        return value
    }
}

@usableFromInline
let threadStateKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
    let destructor: @convention(c) (UnsafeMutableRawPointer) -> Void = { pointer in
        Unmanaged<ThreadState>.fromOpaque(pointer).release()
    }
    #else
    let destructor: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
        guard let pointer else { return }
        Unmanaged<ThreadState>.fromOpaque(pointer).release()
    }
    #endif
    let status = pthread_key_create(&key, destructor)
    precondition(status == 0, "ChainTrace could not create its thread-local key (pthread_key_create: \(status))")
    return key
}()

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
