import CChainTraceSupport

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value under a mutex, with a condition to wait on until the value says to go on: how the trace log's
/// writer thread sleeps between passes and how `flush()` waits for it. Not a speed trick — the pthread calls a
/// thread that waits needs — kept here with the other raw system primitives (``LockedValue``,
/// ``ThreadLocalObject``), as the pthread calls take pointers.
///
/// `@unchecked Sendable`: the value is only reached with the mutex held.
@usableFromInline package final class ConditionLock<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var value: Value

    /// A lock around `value`.
    @usableFromInline package init(_ value: Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if !canImport(Darwin)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the value, then wakes every waiter (they look at the value again).
    @usableFromInline package func withLock<T>(_ body: (inout Value) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return body(&value)
    }

    /// Waits until `ready` says the value allows going on, then runs `body` with the value (the lock held from the
    /// check on) and whether it had to wait, and wakes every waiter.
    @usableFromInline package func withLock<T>(
        whenever ready: (Value) -> Bool,
        _ body: (inout Value, _ waited: Bool) -> T
    ) -> T {
        pthread_mutex_lock(mutex)
        var waited = false
        while !ready(value) {
            waited = true
            pthread_cond_wait(condition, mutex)
        }
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return body(&value, waited)
    }

    /// Waits until `ready` says the value allows going on.
    @usableFromInline package func wait(until ready: (Value) -> Bool) {
        pthread_mutex_lock(mutex)
        while !ready(value) { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Waits at most `nanoseconds` (less than a second) unless `ready` already says to go on, or a change wakes it.
    @usableFromInline package func wait(atMost nanoseconds: Int, unless ready: (Value) -> Bool) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !ready(value) else { return }
        var deadline = timespec()
        #if canImport(Darwin)
            clock_gettime(CLOCK_REALTIME, &deadline)
        #else
            clock_gettime(CLOCK_MONOTONIC, &deadline)
        #endif
        deadline.tv_nsec += nanoseconds
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        _ = pthread_cond_timedwait(condition, mutex, &deadline)
    }
}

/// A thread of its own that runs one closure, and can be waited for.
@usableFromInline package final class JoinableThread: @unchecked Sendable {
    private var handle: pthread_t?

    /// Starts a thread running `body`.
    @usableFromInline package init(_ body: @escaping @Sendable () -> Void) {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
            let entry: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? = { context in
                Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
                return nil
            }
        #else
            var thread = pthread_t()
            let entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
                Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }
        #endif
        let status = pthread_create(&thread, nil, entry, context)
        precondition(status == 0, "ChainTrace could not start a thread (pthread_create: \(status))")
        handle = thread
    }

    /// Starts a thread running `body`, which the caller hands over with everything it holds (a reader only that
    /// thread will use): `sending`, so the compiler checks the caller keeps nothing of it.
    @usableFromInline package convenience init(running body: sending @escaping () -> Void) {
        // The closure is the new thread's alone from here on; the wrapper only carries it there.
        nonisolated(unsafe) let handedOver = body
        self.init { handedOver() }
    }

    /// Waits for the thread to finish (once; later calls return at once).
    @usableFromInline package func join() {
        guard let handle else { return }
        pthread_join(handle, nil)
        self.handle = nil
    }
}
