import CChainTraceSupport

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One object per thread, made on the thread's first use and released when the thread exits, reached through a
/// single pthread key.
///
/// `current` returns the object without retaining it first: the key holds it for the thread's life. Swift's
/// `@TaskLocal` is per task, not per thread, and Foundation's `Thread.threadDictionary` costs a dictionary lookup
/// and a cast; the per-thread recording state is read on every send and instrumented hop, so this is one
/// `pthread_getspecific` — or, for the one object that uses the C thread slot, one load.
///
/// `@unchecked Sendable`: the key is written once, in `init`, and only read afterwards.
@usableFromInline package final class ThreadLocalObject<Value: AnyObject>: @unchecked Sendable {
    @usableFromInline let key: pthread_key_t
    @usableFromInline let make: @Sendable () -> Value
    /// Whether each thread's object is also kept in the C thread-local slot (`chaintrace_thread_object`), which
    /// ``withSlotObject(of:_:)`` reads: one load instead of `pthread_getspecific` and the accessor of the global that
    /// holds this object.
    /// What it buys: the recording state is looked up once an instrumented hop, and with the slot a traced `traceHop`
    /// hop took 67.8–70.8 ns against 69.8–78.5 (the best four of ten interleaved runs, `chaintrace-benchmarks`,
    /// medians 74.4 and 81.4); the `Chain` rows, which look it up once a command, did not move. Tested against the
    /// key in `ThreadSlotTests`.
    @usableFromInline let usesThreadSlot: Bool

    /// A key whose first use on each thread makes that thread's object with `make`.
    ///
    /// - Parameter usesThreadSlot: Keep each thread's object in the process's one C thread-local slot as well
    ///   (one `ThreadLocalObject` in the process may).
    @usableFromInline package init(usesThreadSlot: Bool = false, make: @escaping @Sendable () -> Value) {
        if usesThreadSlot {
            let taken = slotTakenStorage.withLock { taken in
                defer { taken = true }
                return taken
            }
            precondition(!taken, "only one ThreadLocalObject may use the thread slot")
        }
        self.usesThreadSlot = usesThreadSlot
        var key = pthread_key_t()
        // As the thread exits: the slot is emptied before the object goes, so no later use finds it there (a later
        // use makes a new object, which pthread's next round of destructors releases).
        #if canImport(Darwin)
            let destructor: @convention(c) (UnsafeMutableRawPointer) -> Void = { pointer in
                if chaintrace_thread_object() == pointer { chaintrace_set_thread_object(nil) }
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            }
        #else
            let destructor: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
                guard let pointer else { return }
                if chaintrace_thread_object() == pointer { chaintrace_set_thread_object(nil) }
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            }
        #endif
        let status = pthread_key_create(&key, destructor)
        precondition(status == 0, "ChainTrace could not create a thread-local key (pthread_key_create: \(status))")
        self.key = key
        self.make = make
    }

    /// The calling thread's object.
    @inlinable
    package var current: Value {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
        }
        return makeCurrent()
    }

    /// Calls `body` with the calling thread's object, not retained: the key holds it for the thread's life, which
    /// outlasts the call. Returned by `current`, the object was retained and released around every use — an atomic
    /// read-modify-write each, about 10 ns a hop of a traced `traceHop` chain (`chaintrace-benchmarks`, interleaved).
    @inlinable
    package func withCurrent<T>(_ body: (Value) throws -> T) rethrows -> T {
        if let pointer = pthread_getspecific(key) {
            return try Unmanaged<Value>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
        }
        return try body(makeCurrent())
    }

    /// Calls `body` with the calling thread's object of `object` — which must be the one `ThreadLocalObject` in the
    /// process that uses the thread slot — found with one load of the slot, without reading `object` at all: the
    /// global that holds it costs a `swift_once` call each time it is read. `object` is read only on the thread's
    /// first use.
    @inlinable
    package static func withSlotObject<T>(
        of object: @autoclosure () -> ThreadLocalObject,
        _ body: (Value) throws -> T
    ) rethrows -> T {
        if let pointer = chaintrace_thread_object() {
            return try Unmanaged<Value>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
        }
        let owner = object()
        precondition(owner.usesThreadSlot, "withSlotObject(of:) is for the object that uses the thread slot")
        return try owner.withCurrent(body)
    }

    /// The calling thread's object if it has made one and is not exiting, without making one.
    @usableFromInline package var existing: Value? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
    }

    @usableFromInline
    func makeCurrent() -> Value {
        let value = make()
        let pointer = Unmanaged.passRetained(value as AnyObject).toOpaque()
        pthread_setspecific(key, pointer)
        if usesThreadSlot { chaintrace_set_thread_object(pointer) }
        return value
    }
}

/// Whether a `ThreadLocalObject` has taken the one thread slot.
private let slotTakenStorage = LockedValue(false)
