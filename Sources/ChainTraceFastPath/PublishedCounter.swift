import CChainTraceSupport

/// A 64-bit value one thread writes and others read, with release stores and acquire loads (plain moves on
/// x86-64): a trace log sink's "closed" flag, and a recording thread's count of dropped traces.
///
/// Not a read-modify-write atomic: ``increment()`` is only sound when one thread at a time writes. Not a speed trick:
/// the atomics Swift's standard library lacks before `Synchronization`, kept with the other raw primitives.
@usableFromInline package final class PublishedCounter: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Int64>

    /// A counter holding `value`.
    @usableFromInline package init(_ value: Int64 = 0) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit { storage.deallocate() }

    /// The value last published (acquire).
    @inlinable package var value: Int64 { chaintrace_load_acquire(storage) }

    /// Publishes `newValue` (release).
    @inlinable package func store(_ newValue: Int64) { chaintrace_store_release(storage, newValue) }

    /// Adds one; the writing thread only.
    @inlinable package func increment() { chaintrace_store_release(storage, storage.pointee + 1) }
}
