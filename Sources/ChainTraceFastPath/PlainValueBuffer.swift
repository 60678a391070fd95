/// A growable list of plain values (no references) in memory it owns alone, appended to and written in place
/// without a copy-on-write check.
///
/// What it buys: an `Array` checks that its buffer is unique before every write: an instrumented hop appends a record and a
/// frame, marks its parent and closes itself — six such checks a hop. With the trace's records and open hops in
/// these instead, a traced `traceHop` chain went from 71–73 to 62–64 ns a hop (`chaintrace-benchmarks`,
/// "instrumented chain (traceHop), traced", interleaved runs of the two builds). Indexes are still checked: an
/// index out of range stops the program, as an array's does.
///
/// Noncopyable, so it can never be shared and needs no uniqueness check; its memory is freed with it.
@usableFromInline package struct PlainValueBuffer<Element: BitwiseCopyable>: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var storedCount = 0
    @usableFromInline var capacity: Int

    /// An empty buffer with room for `capacity` values before it grows.
    @inlinable
    package init(capacity: Int = 16) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// How many values it holds.
    @inlinable package var count: Int { storedCount }

    /// Whether it holds none.
    @inlinable package var isEmpty: Bool { storedCount == 0 }

    /// Adds `value` at the end. Always inlined (growing is the call): left to the optimiser it was called out of
    /// line, and an instrumented hop's two appends cost 4 ns a hop more (`traceHop` traced, 75.7–78.3 against
    /// 71.7–74.7 ns, interleaved runs).
    @inlinable @inline(__always)
    package mutating func append(_ value: Element) {
        if storedCount == capacity { grow() }
        (base + storedCount).initialize(to: value)
        storedCount += 1
    }

    @usableFromInline
    mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.initialize(from: base, count: storedCount)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// The value at `index`, which must be below `count`.
    @inlinable
    package subscript(index: Int) -> Element {
        unsafeAddress {
            precondition(index >= 0 && index < storedCount, "PlainValueBuffer index out of range")
            return UnsafePointer(base + index)
        }
        unsafeMutableAddress {
            precondition(index >= 0 && index < storedCount, "PlainValueBuffer index out of range")
            return base + index
        }
    }

    /// Removes and returns the last value, or `nil` when it is empty.
    @inlinable
    package mutating func popLast() -> Element? {
        guard storedCount > 0 else { return nil }
        storedCount -= 1
        return base[storedCount]
    }

    /// Removes every value, keeping the memory.
    @inlinable
    package mutating func removeAll() {
        storedCount = 0
    }

    /// The values, as an array.
    @inlinable
    package var array: [Element] {
        Array(UnsafeBufferPointer(start: base, count: storedCount))
    }

    /// Calls `body` with the values in place.
    @inlinable
    package func withUnsafeBufferPointer<T>(_ body: (UnsafeBufferPointer<Element>) throws -> T) rethrows -> T {
        try body(UnsafeBufferPointer(start: base, count: storedCount))
    }
}
