import CChainTraceSupport

/// A bounded queue from one producer thread to one consumer thread, with no lock: the producer writes a slot and
/// publishes its new tail with a release store; the consumer reads up to the tail it loads with an acquire, then
/// publishes its new head the same way.
///
/// What it buys: a trace log sink's `record` hands a trace to the background writer for a retain and two atomic
/// accesses on the caller's own cache lines — no lock shared with other recording threads, no system call, no
/// allocation (the ring is allocated once). Against a `LockedValue<[Element]>` shared by every thread, measured
/// by `chaintrace-benchmarks` ("trace log, background" rows).
///
/// Sound only with exactly one producer thread at a time (``push(_:)``) and one consumer thread at a time
/// (``pop()``, ``drain(_:)``); the owner of the queue guarantees that (a thread's own queue; the writer thread).
@usableFromInline package final class HandOffQueue<Element>: @unchecked Sendable {
    @usableFromInline let slots: UnsafeMutablePointer<Element?>
    @usableFromInline let mask: Int
    /// Positions as counters that only grow: `tail - head` is the count. Each is written by one side only.
    @usableFromInline let positions: UnsafeMutablePointer<Int64>
    /// The producer's copy of the head, refreshed only when the ring looks full or every
    /// ``releaseInterval`` pushes (saves a shared load a push).
    @usableFromInline let cachedHead: UnsafeMutablePointer<Int64>
    /// The position up to which the producer has emptied the slots the consumer finished with (see
    /// ``drainBorrowing(_:)``).
    @usableFromInline let released: UnsafeMutablePointer<Int64>

    /// A queue holding at most `capacity` elements, rounded up to a power of two (at least 2).
    @usableFromInline package init(capacity: Int) {
        var size = 2
        while size < capacity, size < 1 << 30 { size <<= 1 }
        mask = size - 1
        slots = .allocate(capacity: size)
        slots.initialize(repeating: nil, count: size)
        // Head and tail on separate cache lines, so the two threads do not share one.
        positions = .allocate(capacity: 16)
        positions.initialize(repeating: 0, count: 16)
        cachedHead = .allocate(capacity: 1)
        cachedHead.initialize(to: 0)
        released = .allocate(capacity: 1)
        released.initialize(to: 0)
    }

    deinit {
        slots.deinitialize(count: mask + 1)
        slots.deallocate()
        positions.deallocate()
        cachedHead.deallocate()
        released.deallocate()
    }

    /// The most elements the queue holds.
    @usableFromInline package var capacity: Int { mask + 1 }

    @usableFromInline var headPointer: UnsafeMutablePointer<Int64> { positions }
    @usableFromInline var tailPointer: UnsafeMutablePointer<Int64> { positions + 8 }

    /// How often (in pushes) the producer looks at the consumer's head, to learn which slots it has finished with.
    @inlinable package static var releaseInterval: Int64 { 32 }

    /// Adds `element` at the tail; `false` (and nothing added) when the queue is full. Producer only.
    ///
    /// Also releases, on this thread, an element the consumer has finished with (see ``drainBorrowing(_:)``).
    @inlinable
    package func push(_ element: Element) -> Bool {
        push(element, reclaiming: { $0 = nil })
    }

    /// ``push(_:)``, handing an element the consumer has finished with to `reclaim` on this thread, to take out of
    /// its slot (whatever it leaves there is released). One a push — more only when the push's own slot still
    /// holds one — so that a producer that reuses what it gets back (a trace log's traces, whose storage the next
    /// traced walk fills again) gets one back for each it sends, in step.
    ///
    /// What it buys, measured: see `Trace.recycle(_:on:)`, the one reclaimer.
    @inlinable
    package func push(_ element: Element, reclaiming reclaim: (inout Element?) -> Void) -> Bool {
        let tail = tailPointer.pointee  // only this thread writes it
        if tail - cachedHead.pointee > Int64(mask) || tail % Self.releaseInterval == 0 {
            cachedHead.pointee = chaintrace_load_acquire(headPointer)
            if tail - cachedHead.pointee > Int64(mask) { return false }
        }
        // The slots before the cached head hold what the consumer borrowed and is done with. One goes back a push;
        // more only when this push's slot still holds one (the producer outran the releases): the slot at `tail`
        // last held the element at `tail - capacity`.
        var position = released.pointee
        let head = cachedHead.pointee
        if position < head {
            repeat {
                reclaim(&slots[Int(position) & mask])
                slots[Int(position) & mask] = nil
                position += 1
            } while position < head && position <= tail - Int64(mask + 1)
            released.pointee = position
        }
        slots[Int(tail) & mask] = element
        chaintrace_store_release(tailPointer, tail + 1)
        return true
    }

    /// Removes and returns the element at the head, or `nil` when the queue is empty. Consumer only.
    @inlinable
    package func pop() -> Element? {
        let head = headPointer.pointee  // only this thread writes it
        guard chaintrace_load_acquire(tailPointer) > head else { return nil }
        let element = slots[Int(head) & mask].take()
        chaintrace_store_release(headPointer, head + 1)
        return element
    }

    /// Hands every element present now to `body`, oldest first, and returns how many. Consumer only.
    @inlinable
    package func drain(_ body: (Element) -> Void) -> Int {
        let head = headPointer.pointee
        let tail = chaintrace_load_acquire(tailPointer)
        guard tail > head else { return 0 }
        for position in head..<tail {
            if let element = slots[Int(position) & mask].take() { body(element) }
        }
        chaintrace_store_release(headPointer, tail)
        return Int(tail - head)
    }

    /// Hands every element present now to `body`, oldest first, and returns how many — leaving each in its slot,
    /// for the producer to release at a later ``push(_:)`` (one a push). Consumer only.
    ///
    /// What it buys: an element the producer allocated is freed by the producer. Freed by the consumer, a trace
    /// and its payload went back to the producer thread's malloc arena under that arena's lock, and the two
    /// threads contended for it: futex calls were a tenth of a trace log's profile with payloads
    /// (`chaintrace-benchmarks`, "trace log … payloads" rows). The cost:
    /// up to a queue's capacity of finished elements stay alive until the producer pushes again.
    @inlinable
    package func drainBorrowing(_ body: (borrowing Element) -> Void) -> Int {
        let head = headPointer.pointee
        let tail = chaintrace_load_acquire(tailPointer)
        guard tail > head else { return 0 }
        for position in head..<tail {
            if let element = slots[Int(position) & mask] { body(element) }
        }
        chaintrace_store_release(headPointer, tail)
        return Int(tail - head)
    }

    /// Whether the queue holds half its capacity, as the producer last learnt the consumer's head (at most
    /// ``releaseInterval`` pushes ago): true at one push on the way up to full, so a producer that checks after each
    /// push wakes a sleeping consumer once, before the queue fills. Producer only.
    @inlinable package var isHalfFullToProducer: Bool {
        tailPointer.pointee &- cachedHead.pointee == Int64((mask &+ 1) / 2)
    }

    /// Whether the queue looked empty at the moment of the call (either side may ask).
    @usableFromInline package var isEmpty: Bool {
        chaintrace_load_acquire(tailPointer) == chaintrace_load_acquire(headPointer)
    }
}
