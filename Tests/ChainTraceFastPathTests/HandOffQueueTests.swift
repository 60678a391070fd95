import ChainTraceFastPath
import ChainTraceTestSupport
import Foundation
import Testing

/// `HandOffQueue`, the lock-free queue from a recording thread to the trace log writer, against a plain array used
/// as a bounded queue: the same pushes accepted and refused, the same elements out in the same order, on generated
/// sequences of pushes, pops and drains; and, across two real threads, every element pushed comes out once, in
/// order.
@Suite("Hand-off queue against a plain bounded queue", .tags(.concurrent))
struct HandOffQueueTests {
    @Test(arguments: SeededGenerator.seeds(100))
    func itDoesWhatABoundedArrayQueueDoes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let requested = Int.random(in: 0...40, using: &random)
        let queue = HandOffQueue<String>(capacity: requested)
        var capacity = 2
        while capacity < requested { capacity <<= 1 }
        #expect(queue.capacity == capacity, "seed \(seed)")
        var model: [String] = []
        var next = 0
        for _ in 0..<500 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                let element = "e\(next)"
                next += 1
                let accepted = queue.push(element)
                #expect(accepted == (model.count < capacity), "seed \(seed)")
                if accepted { model.append(element) }
            case 6..<9:
                let popped = queue.pop()
                #expect(popped == model.first, "seed \(seed)")
                if !model.isEmpty { model.removeFirst() }
            case 9 where random.next() % 2 == 0:
                var drained: [String] = []
                let count = queue.drainBorrowing { drained.append(copy $0) }
                #expect(drained == model && count == model.count, "seed \(seed)")
                model.removeAll()
            default:
                var drained: [String] = []
                let count = queue.drain { drained.append($0) }
                #expect(drained == model && count == model.count, "seed \(seed)")
                model.removeAll()
            }
            #expect(queue.isEmpty == model.isEmpty, "seed \(seed)")
        }
    }

    /// `push(_:reclaiming:)` hands back what `drainBorrowing` lent, on the producer's side: each element once, in
    /// the order pushed, only after the consumer finished with it, one a push in step — and every one in the end.
    @Test(arguments: SeededGenerator.seeds(60))
    func pushesHandBackWhatTheConsumerFinishedOnceInOrder(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let queue = HandOffQueue<Int>(capacity: Int.random(in: 2...32, using: &random))
        var finished: [Int] = []
        var reclaimed: [Int] = []
        var next = 0
        func push() -> Bool {
            let before = reclaimed.count
            let pushedBefore = next
            let accepted = queue.push(
                next,
                reclaiming: { element in
                    if let element { reclaimed.append(element) }
                    // Left in the slot half the time: the queue releases it then.
                    if element.map({ $0.isMultiple(of: 2) }) ?? false { element = nil }
                }
            )
            if accepted { next += 1 }
            // In step: one a push, more only when the push's slot still holds one not handed back (a whole ring
            // pushed since the last one handed back).
            if pushedBefore - before < queue.capacity { #expect(reclaimed.count - before <= 1, "seed \(seed)") }
            return accepted
        }
        for _ in 0..<600 {
            if random.chance(0.7) {
                _ = push()
            } else {
                _ = queue.drainBorrowing { finished.append(copy $0) }
            }
            #expect(
                reclaimed == Array(finished.prefix(reclaimed.count)),
                "seed \(seed): handed back \(reclaimed.suffix(3)) of \(finished.suffix(3))"
            )
        }
        // The consumer catches up and the producer goes on: everything finished comes back.
        let target = finished.count + queue.capacity
        var rounds = 0
        while reclaimed.count < target, rounds < 10 * target + 100 {
            _ = queue.drainBorrowing { finished.append(copy $0) }
            _ = push()
            rounds += 1
        }
        #expect(reclaimed.count >= target && reclaimed == Array(finished.prefix(reclaimed.count)), "seed \(seed)")
    }

    @Test func twoThreadsHandOverEveryElementOnceInOrder() {
        let queue = HandOffQueue<Int>(capacity: 64)
        let total = 200_000
        let producer = Thread {
            var value = 0
            while value < total {
                if queue.push(value) { value += 1 }
            }
        }
        producer.start()
        var expected = 0
        var inOrder = true
        while expected < total {
            _ = queue.drain { value in
                if value != expected { inOrder = false }
                expected += 1
            }
        }
        #expect(inOrder && expected == total && queue.isEmpty)
    }

    /// What `drainBorrowing` hands over stays in its slot until the producer pushes again: every element is
    /// released exactly once, and all but those still in the ring when it goes are released on the producer's
    /// thread — the point of borrowing (the allocating thread frees).
    @Test func borrowedElementsAreReleasedOnceByTheProducer() {
        final class Tracked: @unchecked Sendable {
            let releasedOnProducer: PublishedCounter
            let releasedElsewhere: PublishedCounter
            let producer: ObjectIdentifier
            init(_ onProducer: PublishedCounter, _ elsewhere: PublishedCounter, producer: ObjectIdentifier) {
                (releasedOnProducer, releasedElsewhere, self.producer) = (onProducer, elsewhere, producer)
            }
            deinit {
                if ObjectIdentifier(Thread.current) == producer {
                    releasedOnProducer.increment()
                } else {
                    releasedElsewhere.increment()
                }
            }
        }
        let onProducer = PublishedCounter()
        let elsewhere = PublishedCounter()
        let total = 100_000
        let drained = PublishedCounter()
        weak var released: HandOffQueue<Tracked>?
        do {
            let queue = HandOffQueue<Tracked>(capacity: 256)
            released = queue
            let done = PublishedCounter()
            let producer = Thread {
                let me = ObjectIdentifier(Thread.current)
                for _ in 0..<total {
                    let element = Tracked(onProducer, elsewhere, producer: me)
                    while !queue.push(element) {}
                }
                done.increment()
            }
            producer.start()
            while done.value == 0 || !queue.isEmpty {
                _ = queue.drainBorrowing { _ in drained.increment() }
            }
        }
        // The producer thread's closure holds the queue until the thread is gone, so what the ring still holds is
        // released a moment after the loop ends, on whichever thread lets go of the queue last — and a weak
        // reference reads `nil` as soon as the queue's deinit starts, before it has released what its slots hold.
        // So wait (at most ten seconds) for the queue to go and for every element's release to be counted.
        let deadline = ContinuousClock.now + .seconds(10)
        while released != nil || onProducer.value + elsewhere.value < Int64(total), ContinuousClock.now < deadline {
            usleep(1_000)
        }
        #expect(released == nil)
        #expect(drained.value == Int64(total))
        #expect(onProducer.value + elsewhere.value == Int64(total))
        // At most a ring's worth and the last interval's are left for the queue's release.
        #expect(elsewhere.value <= 256 + HandOffQueue<Tracked>.releaseInterval)
    }

    /// Elements still in a queue that is released are released with it (no leak, no double release).
    @Test func releasingAQueueReleasesWhatItHolds() {
        final class Tracked: @unchecked Sendable {
            let counter: PublishedCounter
            init(_ counter: PublishedCounter) { self.counter = counter }
            deinit { counter.increment() }
        }
        let released = PublishedCounter()
        do {
            let queue = HandOffQueue<Tracked>(capacity: 8)
            for _ in 0..<5 { _ = queue.push(Tracked(released)) }
            _ = queue.pop()
            #expect(released.value == 1)
        }
        #expect(released.value == 5)
    }
}
