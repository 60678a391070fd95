/// A class holding one value whose accesses are not checked for exclusivity at run time.
///
/// Swift checks every access to a class's stored property at run time for overlapping writes. On the recording
/// path those checks cost more than the work: with them, an untraced send through a 10-handler `Chain` went from
/// 7.9 to 10.1 ns a hop, a traced one from 29–30 to 37, and a traced `traceHop` chain from 151–157 to 190
/// (`chaintrace-benchmarks`, interleaved runs of the per-thread state checked and unchecked).
///
/// Sound only where no two accesses can overlap: state that one thread owns (per-thread state, a sampling
/// countdown), or state that a lock guards for the whole access (``LockedValue``).
public final class UncheckedCell<Value: ~Copyable> {
    /// The value, in memory the cell allocates: accessed through addressors, so an access is a pointer, with no
    /// exclusivity check and no coroutine call. (A stored property marked `@exclusivity(unchecked)` skips the
    /// check only in its own module, and its `_read`/`_modify` accessors were not inlined into other modules
    /// for a noncopyable-capable `Value`: each access was a coroutine call.)
    @usableFromInline let storage: UnsafeMutablePointer<Value>

    /// The value. Never accessed from two threads at once, nor re-entrantly while being written.
    @inlinable
    public var value: Value {
        unsafeAddress { UnsafePointer(storage) }
        unsafeMutableAddress { storage }
    }

    /// A cell holding `value`.
    @inlinable
    public init(_ value: consuming Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }
}
