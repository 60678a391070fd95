import ChainTraceFastPath
import ChainTraceTestSupport
import Foundation
import Testing

/// `ThreadScratch` against making an object per call: the same object for a thread's successive calls, a new one
/// for a call nested in another, never one object on two threads.
@Suite("Per-thread scratch objects", .tags(.concurrent))
struct ThreadScratchTests {
    final class Scratch: @unchecked Sendable {
        var uses = 0
    }

    @Test func successiveCallsOnAThreadShareOneObjectAndNestedCallsGetTheirOwn() {
        let scratch = ThreadScratch { Scratch() }
        let first = scratch.withScratch { $0 }
        let second = scratch.withScratch { $0 }
        #expect(first === second)
        scratch.withScratch { outer in
            scratch.withScratch { inner in
                #expect(inner !== outer)
                #expect(outer === first)
            }
        }
        // The thread's object is lent again once the nested call is over.
        #expect(scratch.withScratch { $0 } === first)
    }

    @Test func threadsNeverShareAnObject() {
        let scratch = ThreadScratch { Scratch() }
        let objects = LockedObjects()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 {
                scratch.withScratch { object in
                    object.uses += 1
                    objects.insert(ObjectIdentifier(object), thread: ObjectIdentifier(Thread.current))
                }
            }
        }
        // Each object was only ever lent on one thread.
        #expect(objects.eachOnOneThread)
    }

    final class LockedObjects: @unchecked Sendable {
        private let lock = NSLock()
        private var threads: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
        func insert(_ object: ObjectIdentifier, thread: ObjectIdentifier) {
            lock.withLock { _ = threads[object, default: []].insert(thread) }
        }
        var eachOnOneThread: Bool { lock.withLock { threads.values.allSatisfy { $0.count == 1 } } }
    }
}
