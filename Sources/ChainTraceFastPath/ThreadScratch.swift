/// One scratch object per thread, lent to each call on that thread instead of made anew: buffers and stacks
/// that keep the room they grew to.
///
/// What it buys: capturing a command's payload as JSON text needs a text buffer and two small stacks; made per
/// command they were five allocations and frees, about a third of the capture's cost on a one-field command
/// (`chaintrace-benchmarks`, "trace log, drop, + payloads as text" row).
///
/// A call made while the thread's object is lent out — a nested use on the same thread — gets a new object, so
/// no two users ever share one. The object must not be kept past the call: `reset` is the user's to call before
/// use, and anything that escaped the call sees later users' state (the JSON text writer numbers its slots across
/// uses, so a write through an escaped encoder is refused, never mixed in).
@usableFromInline package final class ThreadScratch<Value: AnyObject>: @unchecked Sendable {
    @usableFromInline final class Holder {
        /// The thread's object, or `nil` while it is lent out. Only its thread touches it.
        @usableFromInline var value: Value?
        @usableFromInline init(_ value: Value) { self.value = value }
    }

    @usableFromInline let holders: ThreadLocalObject<Holder>
    @usableFromInline let make: @Sendable () -> Value

    /// Scratch objects made by `make`, one per thread on first use.
    @usableFromInline package init(make: @escaping @Sendable () -> Value) {
        self.make = make
        holders = ThreadLocalObject { Holder(make()) }
    }

    /// Lends the calling thread's object to `body` (or a new one, if it is lent out already).
    @inlinable
    package func withScratch<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        let holder = holders.current
        guard let value = holder.value else { return try body(make()) }
        holder.value = nil
        defer { holder.value = value }
        return try body(value)
    }
}
