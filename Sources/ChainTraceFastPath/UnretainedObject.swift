/// A reference to an object that something else keeps alive, used without touching its reference count.
///
/// Retaining and releasing a shared object is an atomic read-modify-write of its reference count; threads that
/// send through one chain would contend on every hop's handler, and a replay would pay it on every rule test.
/// Holding the object unretained, with `withObject` calling it as a guaranteed reference, removes that. What it buys:
/// an untraced hop about half the time of a retained one, and two threads sharing a chain without contending on
/// its handlers (`chaintrace-benchmarks`, "Chain, no recorder (untraced)" and "2 threads, one shared chain").
///
/// Sound only while the owner named at each use site holds the object: a compiled chain holds its handlers, a
/// compiled rule its parts, a profile its counters.
@usableFromInline package struct UnretainedObject<Object: AnyObject>: @unchecked Sendable {
    @usableFromInline let reference: Unmanaged<Object>

    /// `object`, unretained: the caller keeps it alive for as long as this is used.
    @inlinable
    package init(_ object: Object) {
        reference = Unmanaged.passUnretained(object)
    }

    /// An object of type `Object` at `pointer`, which the caller keeps alive and knows to be of that type.
    @inlinable
    package init(pointer: UnsafeRawPointer) {
        reference = Unmanaged<Object>.fromOpaque(pointer)
    }

    /// The object's address, for storage that does not know its type.
    @inlinable
    package var pointer: UnsafeRawPointer {
        UnsafeRawPointer(reference.toOpaque())
    }

    /// Calls `body` with the object, without retaining it.
    @inlinable
    package func withObject<T>(_ body: (Object) throws -> T) rethrows -> T {
        try reference._withUnsafeGuaranteedRef(body)
    }

    /// The object, retained (for a caller that keeps it).
    @inlinable
    package var object: Object {
        reference.takeUnretainedValue()
    }
}
