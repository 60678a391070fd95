#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A mutex around a value, in the manner of SwiftNIO's `NIOLockedValueBox`. Not a speed trick: the lock every module
/// shares, kept here with the other raw system primitives, as the pthread calls take pointers.
///
/// The value lives in an ``UncheckedCell``: the mutex already makes every access exclusive, so the run-time
/// exclusivity check would only add cost to each lock.
///
/// `@unchecked Sendable` is sound because every access to the value happens inside `withLock`, which holds the
/// pthread mutex for its whole duration.
@usableFromInline package final class LockedValue<Value>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let cell: UncheckedCell<Value>

    /// A lock around `value`.
    @inlinable
    package init(_ value: Value) {
        cell = UncheckedCell.make(value)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package func withLock<T, Failure: Error>(_ body: (inout Value) throws(Failure) -> T) throws(Failure) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&cell.value)
    }
}
