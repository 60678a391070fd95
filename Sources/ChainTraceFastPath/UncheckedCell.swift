/// A class holding one value whose accesses are not checked for exclusivity at run time.
///
/// What it buys: Swift checks every access to a class's stored property at run time for overlapping writes. On the recording
/// path those checks cost more than the work: with them, an untraced send through a 10-handler `Chain` went from
/// 7.9 to 10.1 ns a hop, a traced one from 29–30 to 37, and a traced `traceHop` chain from 151–157 to 190
/// (`chaintrace-benchmarks`, interleaved runs of the per-thread state checked and unchecked).
///
/// The value is stored in the cell's own allocation, right after the object's header (a `ManagedBuffer` with the
/// value as its one element): reaching it from a reference to the cell is an addition, not a load. What that
/// buys: a traced `traceHop` hop starts from the trace, its content's cell and the content in a chain of loads,
/// one fewer with the value in the cell — about 3 ns a hop (`chaintrace-benchmarks`, "instrumented chain
/// (traceHop), traced"; "Chain, traced into memory" unchanged).
///
/// Sound only where no two accesses can overlap: state that one thread owns (per-thread state, a sampling
/// countdown), or state that a lock guards for the whole access (``LockedValue``).
@usableFromInline package final class UncheckedCell<Value: ~Copyable>: ManagedBuffer<Void, Value> {
    /// A cell holding `value`.
    @inlinable
    package static func make(_ value: consuming Value) -> UncheckedCell<Value> {
        let cell = unsafeDowncast(create(minimumCapacity: 1) { _ in () }, to: UncheckedCell<Value>.self)
        // `address` computes where `ManagedBuffer` puts its first element; checked once a cell.
        precondition(cell.address == cell.withUnsafeMutablePointerToElements { $0 }, "UncheckedCell: unexpected layout")
        cell.address.initialize(to: value)
        return cell
    }

    /// Where the value is: in the cell's allocation, after the object's header (two words: its class and its
    /// reference counts) and the empty `Void` header, aligned for `Value` — where `ManagedBuffer` puts its first
    /// element (checked by `make`). Computed from the reference rather than through
    /// `withUnsafeMutablePointerToElements`, whose closure kept the cell alive with a retain and a release around
    /// some accesses through a reference loaded from another object: 49 instructions a command more on the
    /// `Chain` traced row (callgrind, 4 332 against 4 283).
    @inlinable
    var address: UnsafeMutablePointer<Value> {
        let headerSize = 2 &* MemoryLayout<Int>.size
        let alignment = MemoryLayout<Value>.alignment
        let offset = (headerSize &+ alignment &- 1) & ~(alignment &- 1)
        return Unmanaged.passUnretained(self).toOpaque().advanced(by: offset).assumingMemoryBound(to: Value.self)
    }

    /// The value. Never accessed from two threads at once, nor re-entrantly while being written. Accessed through
    /// addressors, so an access is a pointer, with no exclusivity check and no coroutine call. (A stored property
    /// marked `@exclusivity(unchecked)` skips the check only in its own module, and its `_read`/`_modify`
    /// accessors were not inlined into other modules for a noncopyable-capable `Value`: each access was a
    /// coroutine call.)
    @inlinable
    package var value: Value {
        unsafeAddress { UnsafePointer(address) }
        unsafeMutableAddress { address }
    }

    deinit {
        address.deinitialize(count: 1)
    }
}
