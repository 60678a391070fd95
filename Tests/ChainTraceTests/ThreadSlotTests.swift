import CChainTraceSupport
import ChainTraceFastPath
import ChainTraceTestSupport
import Foundation
import Testing

@testable import ChainTrace

/// The per-thread recording state read through the C thread-local slot (`ThreadLocalObject.withSlotObject`)
/// against the plain path, its pthread key: on generated runs of threads, each thread's slot holds exactly the
/// object its key holds, one per thread, freed with the thread; and code that runs in a later key's destructor, after
/// the state is gone, gets a fresh state rather than the freed one.
@Suite("The thread slot against the pthread key", .tags(.concurrent))
struct ThreadSlotTests {
    /// What one thread saw.
    struct Sighting: Equatable {
        var beforeUse: Bool
        var slotMatchesKey = false
        var sameEveryTime = false
    }

    @Test(arguments: SeededGenerator.seeds(12))
    func theSlotHoldsWhatTheKeyHoldsOnEveryThread(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let threads = Int.random(in: 1...6, using: &random)
        let uses = (0..<threads).map { _ in Int.random(in: 1...50, using: &random) }
        let sightings = LockedValue<[Int: Sighting]>([:])
        let objects = LockedValue<[ObjectIdentifier]>([])
        final class Weak: @unchecked Sendable { weak var state: ThreadState? }
        let gone = (0..<threads).map { _ in Weak() }
        let group = DispatchGroup()
        for index in 0..<threads {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                // A new thread: nothing in the slot or the key yet.
                var sighting = Sighting(beforeUse: chaintrace_thread_object() == nil && threadStates.existing == nil)
                let first = ThreadState.withCurrent { ObjectIdentifier($0) }
                var same = true
                var matches = true
                for use in 0..<uses[index] {
                    // Alternately lent and returned: always the object the key holds.
                    let seen =
                        use % 2 == 0
                        ? ThreadState.withCurrent { ObjectIdentifier($0) } : ObjectIdentifier(ThreadState.current)
                    same = same && seen == first
                    let keyed = threadStates.existing.map(ObjectIdentifier.init)
                    let slotted = chaintrace_thread_object().map {
                        ObjectIdentifier(Unmanaged<ThreadState>.fromOpaque($0).takeUnretainedValue())
                    }
                    matches = matches && keyed == seen && slotted == seen
                }
                sighting.sameEveryTime = same
                sighting.slotMatchesKey = matches
                gone[index].state = threadStates.existing
                sightings.withLock { $0[index] = sighting }
                objects.withLock { $0.append(first) }
                // Every thread holds its state until all have one, so that no two can be at one address.
                while objects.withLock({ $0.count }) < threads { usleep(500) }
            }
            thread.start()
        }
        group.wait()
        let expected = Sighting(beforeUse: true, slotMatchesKey: true, sameEveryTime: true)
        for index in 0..<threads {
            #expect(sightings.withLock { $0[index] } == expected, "seed \(seed), thread \(index)")
        }
        #expect(Set(objects.withLock { $0 }).count == threads, "seed \(seed): threads shared a state")
        // Every thread has exited (or is exiting): its state goes with it.
        var waited = 0
        while gone.contains(where: { $0.state != nil }), waited < 400 {
            usleep(5000)
            waited += 1
        }
        #expect(!gone.contains { $0.state != nil }, "seed \(seed): a thread's state outlived its thread")
    }

    /// What the late destructor below saw: whether it ran, and whether the state it got was a fresh one (not
    /// marked as the thread's first state was).
    static let lateUse = LockedValue<(ran: Bool, fresh: Bool)>((false, false))
    /// The mark left in the thread's first state (a field no test thread otherwise sets).
    static let mark = 12_345
    /// The late key, for its destructor to set again.
    static let lateKey = LockedValue<pthread_key_t?>(nil)

    /// A key whose destructor runs after the state's has released it: there, a use of the state must find neither
    /// the freed object in the slot nor crash (AddressSanitizer, in the sanitized run), but make a new one.
    @Test func aUseAfterTheStateIsGoneMakesANewOne() throws {
        _ = ThreadState.current  // the state's key exists before the test's
        var key = pthread_key_t()
        let destructor: @convention(c) (UnsafeMutableRawPointer?) -> Void = { _ in
            if threadStates.existing != nil {
                // Called before the state's own destructor (keys are destroyed in the order of their slots, and a
                // freed slot may be reused): set again, this one runs in the next round, after it.
                if let key = ThreadSlotTests.lateKey.withLock({ $0 }) {
                    pthread_setspecific(key, UnsafeMutableRawPointer(bitPattern: 1))
                }
                return
            }
            // The freed state, if the slot still held it, would carry the mark (or crash under AddressSanitizer);
            // a new one (even at the same address) starts at 0.
            let depth = ThreadState.withCurrent { $0.untracedDepth }
            ThreadSlotTests.lateUse.withLock { $0 = (true, depth != ThreadSlotTests.mark) }
        }
        #expect(pthread_key_create(&key, destructor) == 0)
        let lateKey = key
        Self.lateKey.withLock { $0 = lateKey }
        defer { pthread_key_delete(lateKey) }
        let thread = Thread {
            ThreadState.withCurrent { $0.untracedDepth = ThreadSlotTests.mark }
            pthread_setspecific(lateKey, UnsafeMutableRawPointer(bitPattern: 1))
        }
        thread.start()
        var waited = 0
        while !Self.lateUse.withLock({ $0.ran }), waited < 400 {
            usleep(5000)
            waited += 1
        }
        let late = Self.lateUse.withLock { $0 }
        #expect(late.ran, "the late destructor never ran")
        #expect(late.fresh, "a use after the thread's state was released found the released state")
    }
}
