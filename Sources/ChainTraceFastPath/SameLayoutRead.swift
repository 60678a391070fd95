/// A value of a generic type, in code generic over the type's argument, read through the type's instance for one
/// concrete argument — for a type whose stored properties hold nothing of its argument's own layout (closures and
/// existentials over it only), so that every instance of it lays out the same.
///
/// Code that is generic over a type's argument reaches a value of `Box<Argument>` through that type's metadata,
/// which it instantiates — a look-up in the runtime's cache — for every operation on the value: switching over an
/// enum inside it, copying it, destroying it. Reading the value through `Box<Never>`, whose metadata is static,
/// needs none. What it buys: gRPC interceptor hops read whether the response they returned is a refusal without
/// instantiating three generic types' metadata a hop; a traced interceptor hop went from +144–167 ns to +78–82 ns
/// over untraced (`chaintrace-grpc-benchmarks`, "GRPCTracing.server, traced into memory").
///
/// Sound only when the stored value and `View` are one generic type for two arguments that lay out the same:
/// ``haveSameLayout(_:_:)`` checks size, stride and alignment at run time, and each user's differential test reads
/// values of many argument types both ways.
///
/// - Parameters:
///   - stored: The value (`&value`), which the caller holds for the call.
///   - view: The same generic type for a concrete argument.
///   - read: Reads what it needs of the value; it must not call closures that take the type's argument.
@inlinable @inline(__always)
package func readThroughSameLayout<Stored, View, Result>(
    _ stored: UnsafeMutablePointer<Stored>,
    as view: View.Type,
    _ read: (borrowing View) -> Result
) -> Result {
    read(UnsafeRawPointer(stored).assumingMemoryBound(to: View.self).pointee)
}

/// Whether values of `first` and `second` have the same size, stride and alignment: the run-time half of
/// ``readThroughSameLayout(_:as:_:)``'s soundness.
@inlinable
package func haveSameLayout<First, Second>(_ first: First.Type, _ second: Second.Type) -> Bool {
    MemoryLayout<First>.size == MemoryLayout<Second>.size && MemoryLayout<First>.stride == MemoryLayout<Second>.stride
        && MemoryLayout<First>.alignment == MemoryLayout<Second>.alignment
}
