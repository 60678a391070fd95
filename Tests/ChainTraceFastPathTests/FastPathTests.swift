import ChainTraceFastPath
import ChainTraceTestSupport
import Foundation
import Testing

/// Each trick of ChainTraceFastPath against the plain Swift it stands in for: the same results on generated
/// operations, and the lifetimes the plain form would give.
@Suite("Fast path against the plain path", .tags(.concurrent))
struct FastPathTests {
    /// A generated run of edits gives the same value in an `UncheckedCell` as in a plain variable.
    @Test(arguments: SeededGenerator.seeds(40))
    func uncheckedCellHoldsWhatAPlainVariableHolds(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let cell = UncheckedCell.make([Int]())
        var plain: [Int] = []
        for _ in 0..<Int.random(in: 1...200, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let value = Int.random(in: -1000...1000, using: &random)
                cell.value.append(value)
                plain.append(value)
            case 1 where !plain.isEmpty:
                let index = Int.random(in: 0..<plain.count, using: &random)
                cell.value[index] &+= 7
                plain[index] &+= 7
            case 2 where !plain.isEmpty:
                cell.value.removeLast()
                plain.removeLast()
            default:
                cell.value.sort()
                plain.sort()
            }
        }
        #expect(cell.value == plain, "seed \(seed)")
    }

    /// A cell keeps its value in its own allocation at an offset it computes (see `UncheckedCell.address`): for
    /// values of every alignment — a byte, an array, vectors of 16 and 32 bytes aligned to 16 (the most Swift
    /// aligns a type here), a string — generated writes read back as a plain variable's, `make` finds the offset
    /// where `ManagedBuffer` puts its element (it stops the program otherwise), and the value goes with the cell.
    @Test(arguments: SeededGenerator.seeds(20))
    func uncheckedCellHoldsValuesOfEveryAlignment(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        func check<Value: Equatable>(_ make: (inout SeededGenerator) -> Value) {
            var plain = make(&random)
            let cell = UncheckedCell.make(plain)
            for _ in 0..<Int.random(in: 1...20, using: &random) {
                let value = make(&random)
                cell.value = value
                plain = value
                #expect(cell.value == plain, "seed \(seed): \(Value.self)")
            }
        }
        check { UInt8.random(in: 0...255, using: &$0) }
        check { [Int16.random(in: .min ... .max, using: &$0)] }
        check { SIMD2<Int64>(Int64.random(in: .min ... .max, using: &$0), 7) }
        check { SIMD4<Double>(Double.random(in: -1...1, using: &$0), 2, 3, 4) }
        check { SIMD8<Float>(repeating: Float.random(in: -1...1, using: &$0)) }
        check { $0.hostileName(maximumLength: 40) }
        // Released with its cell, once: a value of the cell's alone goes when the cell does.
        final class Tracked {}
        weak var released: Tracked?
        do {
            let cell = UncheckedCell.make([Tracked()])
            released = cell.value[0]
            cell.value.append(Tracked())
            #expect(released != nil)
        }
        #expect(released == nil, "seed \(seed)")
    }

    /// `StringIdentity` against `==`: an identity matches a string only if the strings are equal (never for
    /// `none`), and always matches the string it was taken from and its copies (on 64-bit platforms), for
    /// generated names small and large, ASCII and not, equal ones stored apart, and the empty name.
    @Test(arguments: SeededGenerator.seeds(40))
    func stringIdentityMatchesOnlyEqualStrings(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var names: [String] = []
        for _ in 0..<Int.random(in: 2...40, using: &random) {
            let name =
                random.chance(0.3)
                ? random.hostileName(maximumLength: 60) : "Handler\(Int.random(in: 0...3, using: &random))"
            names.append(name)
            // The same characters stored apart, and a long one built by appending.
            if random.chance(0.3) { names.append(String(decoding: Array(name.utf8), as: UTF8.self)) }
            if random.chance(0.2) {
                names.append(name + String(repeating: "x", count: Int.random(in: 0...30, using: &random)))
            }
        }
        for name in names {
            let identity = StringIdentity(of: name)
            let copy = name
            #expect(
                identity.matches(copy) == (MemoryLayout<String>.size == 16),
                "seed \(seed): \(name.debugDescription)"
            )
            #expect(!StringIdentity.none.matches(name), "seed \(seed): \(name.debugDescription)")
            for other in names where identity.matches(other) {
                #expect(other == name, "seed \(seed): \(name.debugDescription) matched \(other.debugDescription)")
            }
        }
    }

    /// `StringIndexCache` against a dictionary keyed by the strings: for a generated run of lookups of names small
    /// and large (equal ones stored apart, strings made and dropped between lookups, so that a freed string's
    /// memory may be reused), a value it finds is always the dictionary's for that name, and the string just
    /// remembered is found at once (on 64-bit platforms).
    @Test(arguments: SeededGenerator.seeds(40))
    func stringIndexCacheFindsWhatADictionaryFinds(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var cache = StringIndexCache(slotBits: Int.random(in: 1...6, using: &random))
        var numbers: [String: Int64] = [:]
        var kept: [String] = []
        var hits = 0
        for step in 0..<Int.random(in: 50...400, using: &random) {
            let name: String
            if !kept.isEmpty, random.chance(0.6) {
                let known = kept[Int.random(in: 0..<kept.count, using: &random)]
                // The same characters stored apart, half the time.
                name = random.chance(0.5) ? String(decoding: Array(known.utf8), as: UTF8.self) : known
            } else {
                name =
                    random.chance(0.4)
                    ? random.hostileName(maximumLength: 60)
                    : "Handler" + String(repeating: "x", count: Int.random(in: 0...30, using: &random))
                if random.chance(0.5) { kept.append(name) }
            }
            let expected = numbers[name] ?? Int64(numbers.count)
            numbers[name] = expected
            if let found = cache.index(of: name) {
                hits += 1
                #expect(found == expected, "seed \(seed), step \(step): \(name.debugDescription)")
            }
            cache.remember(name, as: expected)
            let copy = name
            #expect(
                (cache.index(of: copy) == expected) == (MemoryLayout<String>.size == 16),
                "seed \(seed), step \(step): \(name.debugDescription) not found just after it was remembered"
            )
            if random.chance(0.3) { kept.removeAll() }
        }
        #expect(hits > 0 || MemoryLayout<String>.size != 16, "seed \(seed): the cache never found a name again")
    }

    /// A generated run of appends, writes in place, pops and clears leaves a `PlainValueBuffer` holding what an
    /// array holds, through every growth from a small starting room.
    @Test(arguments: SeededGenerator.seeds(40))
    func plainValueBufferHoldsWhatAnArrayHolds(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var buffer = PlainValueBuffer<(Int32, UInt64, Bool)>(capacity: Int.random(in: 1...4, using: &random))
        var plain: [(Int32, UInt64, Bool)] = []
        for step in 0..<Int.random(in: 1...400, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let value = (
                    Int32.random(in: .min ... .max, using: &random), UInt64.random(in: 0 ... .max, using: &random),
                    Bool.random(using: &random)
                )
                buffer.append(value)
                plain.append(value)
            case 5..<7 where !plain.isEmpty:
                let index = Int.random(in: 0..<plain.count, using: &random)
                buffer[index].1 &+= 7
                buffer[index].2.toggle()
                plain[index].1 &+= 7
                plain[index].2.toggle()
            case 7..<9:
                let popped = buffer.popLast()
                let expected = plain.popLast()
                #expect(
                    popped?.0 == expected?.0 && popped?.1 == expected?.1 && popped?.2 == expected?.2,
                    "seed \(seed), step \(step)"
                )
            default:
                if Int.random(in: 0..<8, using: &random) == 0 {
                    buffer.removeAll()
                    plain.removeAll()
                }
            }
            #expect(buffer.count == plain.count && buffer.isEmpty == plain.isEmpty, "seed \(seed), step \(step)")
        }
        let held = buffer.array
        #expect(held.count == plain.count, "seed \(seed)")
        #expect(zip(held, plain).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 }, "seed \(seed)")
        let summed = buffer.withUnsafeBufferPointer { $0.reduce(UInt64(0)) { $0 &+ $1.1 } }
        #expect(summed == plain.reduce(UInt64(0)) { $0 &+ $1.1 }, "seed \(seed)")
    }

    /// Threads adding under a `LockedValue` lose no update, as with any mutex.
    @Test(arguments: SeededGenerator.seeds(4))
    func lockedValueLosesNoUpdate(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let threads = Int.random(in: 2...6, using: &random)
        let additions = Int.random(in: 1_000...20_000, using: &random)
        let total = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<additions { total.withLock { $0 += 1 } }
        }
        #expect(total.withLock { $0 } == threads * additions, "seed \(seed)")
    }

    /// Threads counting with a `SharedCounter` at once are each handed numbers no other thread gets, all of 0 to
    /// the total, none twice — as numbers handed out under a mutex (`LockedValue`) are.
    @Test(arguments: SeededGenerator.seeds(6))
    func sharedCounterHandsOutEachNumberOnceAsAMutexDoes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let threads = Int.random(in: 2...8, using: &random)
        let additions = Int.random(in: 1_000...30_000, using: &random)
        let counter = SharedCounter()
        let reference = LockedValue(UInt64(0))
        let got = LockedValue([[UInt64]]())
        let fromMutex = LockedValue([[UInt64]]())
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            var mine: [UInt64] = []
            var mineFromMutex: [UInt64] = []
            for _ in 0..<additions {
                mine.append(counter.next())
                mineFromMutex.append(
                    reference.withLock { value in
                        defer { value += 1 }
                        return value
                    }
                )
            }
            got.withLock { $0.append(mine) }
            fromMutex.withLock { $0.append(mineFromMutex) }
        }
        let total = UInt64(threads * additions)
        let numbers = got.withLock { $0 }
        #expect(numbers.flatMap { $0 }.sorted() == Array(0..<total), "seed \(seed)")
        #expect(fromMutex.withLock { $0 }.flatMap { $0 }.sorted() == Array(0..<total), "seed \(seed)")
        // Each thread's numbers rise, as its additions were made one after the other.
        #expect(numbers.allSatisfy { zip($0, $0.dropFirst()).allSatisfy { $0 < $1 } }, "seed \(seed)")
        #expect(counter.next() == total, "seed \(seed)")
    }

    /// Threads taking a `WordLock` — more threads than cores, so that a holder is preempted now and then and
    /// waiters reach the yielding part of the wait — are never inside it two at once, and lose no update made
    /// under it: the same totals as the same work under `LockedValue`'s mutex. Several words of plain memory are
    /// changed in each section, so a torn or reordered section would show as a pair that disagrees.
    @Test(arguments: SeededGenerator.seeds(6))
    func wordLockExcludesAndLosesNoUpdateAsAMutexDoes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let threads = Int.random(in: 2...8, using: &random)
        let additions = Int.random(in: 2_000...40_000, using: &random)
        let step = Int.random(in: 1...7, using: &random)
        final class Counters: @unchecked Sendable {
            var inside = 0
            var overlaps = 0
            var first = 0
            var second = 0
            var disagreements = 0
        }
        let lock = WordLock()
        let counters = Counters()
        let reference = LockedValue((first: 0, second: 0))
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<additions {
                lock.withLock {
                    counters.inside += 1
                    if counters.inside != 1 { counters.overlaps += 1 }
                    counters.first += step
                    if counters.second + step != counters.first { counters.disagreements += 1 }
                    counters.second += step
                    counters.inside -= 1
                }
                reference.withLock {
                    $0.first += step
                    $0.second += step
                }
            }
        }
        let expected = reference.withLock { $0 }
        #expect(counters.overlaps == 0, "seed \(seed)")
        #expect(counters.disagreements == 0, "seed \(seed)")
        #expect(counters.first == expected.first && counters.second == expected.second, "seed \(seed)")
        #expect(counters.first == threads * additions * step, "seed \(seed)")
        #expect(counters.inside == 0, "seed \(seed)")
    }

    /// `currentTaskIdentity()` (the runtime's current task, as an address) tells tasks apart exactly as
    /// `UnsafeCurrentTask` does (its hash, which is of the same task object): the same within one task, before and after it suspends; different between
    /// tasks running at once, children and their parent alike; 0 outside any task.
    @Test(arguments: SeededGenerator.seeds(4))
    func taskIdentityIsUnsafeCurrentTaskIdentity(seed: UInt64) async {
        var random = SeededGenerator(seed: seed)
        let children = Int.random(in: 2...16, using: &random)
        let outside = await Task.detached { () -> Int in
            // A thread of our own runs outside any task.
            final class Box: @unchecked Sendable { var value = -1 }
            let box = Box()
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                box.value = currentTaskIdentity()
                done.signal()
            }
            done.wait()
            return box.value
        }.value
        #expect(outside == 0, "seed \(seed)")
        let parent = currentTaskIdentity()
        // `UnsafeCurrentTask` is not `Sendable`; its hash (of the same task object) crosses to the children.
        let parentTask = withUnsafeCurrentTask { $0?.hashValue }
        #expect(parent != 0, "seed \(seed)")
        await Task.yield()
        #expect(currentTaskIdentity() == parent, "seed \(seed): changed across a suspension")
        let seen = await withTaskGroup(of: (Int, Int, Bool).self) { group in
            for _ in 0..<children {
                group.addTask {
                    let before = currentTaskIdentity()
                    await Task.yield()
                    let after = currentTaskIdentity()
                    let sameAsParent = withUnsafeCurrentTask { $0?.hashValue == parentTask }
                    return (before, after, sameAsParent)
                }
            }
            var seen: [(Int, Int, Bool)] = []
            for await entry in group { seen.append(entry) }
            return seen
        }
        #expect(seen.allSatisfy { $0.0 == $0.1 && $0.0 != 0 }, "seed \(seed)")
        #expect(seen.allSatisfy { ($0.0 == parent) == $0.2 }, "seed \(seed)")
        #expect(!seen.contains { $0.0 == parent }, "seed \(seed)")
        #expect(Set(seen.map(\.0)).count == children, "seed \(seed): children running at once share an identity")
    }

    final class Marker: Sendable {}

    /// Like a thread-local variable: each thread has its own object, the same one every time it asks, and the
    /// object is released when its thread exits.
    @Test func threadLocalObjectIsOnePerThreadAndFreedWithTheThread() throws {
        let local = ThreadLocalObject { Marker() }
        let here = local.current
        #expect(local.current === here)
        // Lent rather than returned, it is the same object.
        #expect(local.withCurrent { $0 === here })
        final class Seen: @unchecked Sendable {
            let lock = NSLock()
            var objects: [ObjectIdentifier] = []
            var repeated = true
            weak var last: Marker?
        }
        let seen = Seen()
        for _ in 0..<4 {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                // The thread's first use lends it (made then), the second returns it: one object.
                let first = local.withCurrent { $0 }
                let again = local.current
                seen.lock.withLock {
                    seen.objects.append(ObjectIdentifier(first))
                    seen.repeated = seen.repeated && again === first
                    seen.last = first
                }
                done.signal()
            }
            thread.start()
            done.wait()
        }
        #expect(seen.repeated, "a thread got two objects")
        #expect(!seen.objects.contains(ObjectIdentifier(here)))
        // The last thread has exited: its object went with it.
        var waited = 0
        while seen.lock.withLock({ seen.last }) != nil, waited < 200 {
            usleep(5000)
            waited += 1
        }
        #expect(seen.lock.withLock { seen.last } == nil, "a thread's object outlived its thread")
    }

    final class Counter {
        var count = 0
        func add(_ value: Int) -> Int {
            count += value
            return count
        }
    }

    /// Calling an object through an `UnretainedObject` gives what calling it directly gives, leaves its
    /// reference count alone, and its address reads back as the same object.
    @Test(arguments: SeededGenerator.seeds(20))
    func unretainedObjectCallsTheObjectItself(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var object = Counter()
        let plain = Counter()
        let unretained = UnretainedObject(object)
        for _ in 0..<Int.random(in: 1...100, using: &random) {
            let value = Int.random(in: -50...50, using: &random)
            #expect(unretained.withObject { $0.add(value) } == plain.add(value))
        }
        #expect(isKnownUniquelyReferenced(&object), "the unretained reference holds the object")
        #expect(UnretainedObject<Counter>(pointer: unretained.pointer).object === object)
    }
}
