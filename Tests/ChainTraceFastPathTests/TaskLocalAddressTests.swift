import ChainTraceFastPath
import ChainTraceTestSupport
import Foundation
import Testing

/// `taskLocalValueAddress(of:)` and `taskLocalBinding(of:)` against `TaskLocal.get()`, and `pushTaskLocalBinding`
/// and `popTaskLocalBinding` against `withValue`, which they stand in for: over generated nestings of bindings — in
/// the task, its child tasks (task groups and `async let`), unstructured and detached tasks, across suspensions,
/// beside another task-local, pushed, and on a thread outside any task — the value at the address is the value
/// `get()` returns, the address is `nil` exactly where `get()` returns the default, reading it retains nothing, and a
/// pushed binding is seen as a `withValue` one is until it is popped.
@Suite("Task-local values read in place", .tags(.concurrent))
struct TaskLocalAddressTests {
    /// An object whose references are counted: a value holding one is what the async hops read in place.
    final class Box: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    /// Shaped as the async hops' own task-local value: a payload case holding an object and a number, and cases
    /// without one.
    enum Binding: Sendable, Equatable {
        case none
        case skipping
        case holding(Box, Int)

        static func == (left: Binding, right: Binding) -> Bool {
            switch (left, right) {
            case (.none, .none), (.skipping, .skipping): true
            case (.holding(let a, let m), .holding(let b, let n)): a === b && m == n
            default: false
            }
        }
    }

    @TaskLocal static var binding = Binding.none
    @TaskLocal static var other = 0

    /// What the address shows, checked against `get()`.
    static func check(_ context: String) {
        let address = taskLocalValueAddress(of: $binding)
        let got = $binding.get()
        if let address {
            #expect(address.pointee == got, "\(context)")
        } else {
            #expect(got == .none, "\(context): no binding, yet get() returned \(got)")
        }
        // The binding, as code outside the module reads it, shows the same.
        let binding = taskLocalBinding(of: $binding)
        #expect((binding == nil) == (address == nil), "\(context)")
        if let binding { #expect(binding.value == got, "\(context)") }
    }

    /// A generated binding.
    static func binding(using random: inout SeededGenerator) -> Binding {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: .none
        case 1: .skipping
        default: .holding(Box(Int.random(in: 0...1000, using: &random)), Int.random(in: 0...1000, using: &random))
        }
    }

    /// Runs `depth` generated levels: each binds a value (or the other task-local, or nothing), checks, and goes
    /// on in the same task, a child, an unstructured or a detached task, or after a suspension.
    static func run(depth: Int, seed: UInt64, path: String) async {
        check("seed \(seed) \(path)")
        guard depth > 0 else { return }
        var random = SeededGenerator(seed: seed &+ UInt64(path.utf8.count) &* 7919)
        let nextSeed = random.next()
        let value = binding(using: &random)
        let next = "\(path)/\(depth)"
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            await $binding.withValue(value) { await run(depth: depth - 1, seed: nextSeed, path: next + "bound") }
        case 1:
            await $other.withValue(depth) { await run(depth: depth - 1, seed: nextSeed, path: next + "other") }
        case 2:
            await $binding.withValue(value) {
                await withTaskGroup(of: Void.self) { group in
                    for child in 0..<Int.random(in: 1...3, using: &random) {
                        group.addTask {
                            await run(depth: depth - 1, seed: nextSeed &+ UInt64(child), path: next + "group")
                        }
                    }
                }
            }
        case 3:
            async let child: Void = run(depth: depth - 1, seed: nextSeed, path: next + "async-let")
            await child
        case 4:
            await Task { await run(depth: depth - 1, seed: nextSeed, path: next + "task") }.value
        case 5:
            await Task.detached { await run(depth: depth - 1, seed: nextSeed, path: next + "detached") }.value
        case 6:
            // Bound as `withValue` binds, without its closure: `get()` sees the value until the pop, and the binding
            // before it after.
            let before = $binding.get()
            pushTaskLocalBinding($binding, value)
            #expect($binding.get() == value, "seed \(seed) \(next): pushed")
            await run(depth: depth - 1, seed: nextSeed, path: next + "pushed")
            #expect($binding.get() == value, "seed \(seed) \(next): pushed, after its level")
            popTaskLocalBinding()
            #expect($binding.get() == before, "seed \(seed) \(next): popped")
        default:
            await Task.yield()
            await run(depth: depth - 1, seed: nextSeed, path: next + "yield")
        }
        check("seed \(seed) \(path), after its level")
    }

    @Test(arguments: SeededGenerator.seeds(24))
    func theAddressHoldsWhatGetReturns(seed: UInt64) async {
        await Self.run(depth: 8, seed: seed, path: "")
    }

    /// Reading the value at its address leaves no reference behind: once the binding ends, the object is held once.
    @Test func readingInPlaceLeavesNoReference() async {
        var box = Box(7)
        #expect(isKnownUniquelyReferenced(&box))
        await Self.$binding.withValue(.holding(box, 1)) {
            guard let address = taskLocalValueAddress(of: Self.$binding), case .holding(let held, _) = address.pointee
            else {
                Issue.record("the binding is not where the address says")
                return
            }
            #expect(held === box)
        }
        #expect(isKnownUniquelyReferenced(&box), "a reference outlived the binding")
    }

    /// A pushed binding holds its value as `withValue`'s does: once, until it is popped — no reference leaked, none
    /// released twice — and child tasks started under it see it.
    @Test func aPushedBindingHoldsItsValueUntilPopped() async {
        var box = Box(9)
        pushTaskLocalBinding(Self.$binding, .holding(box, 2))
        #expect(!isKnownUniquelyReferenced(&box), "the binding does not hold its value")
        await Self.expectChildTasksSee(.holding(box, 2))
        popTaskLocalBinding()
        #expect(Self.$binding.get() == .none)
        #expect(isKnownUniquelyReferenced(&box), "a reference outlived the pushed binding")
    }

    /// Expects child tasks — a task group's and an `async let` — to see `expected` bound.
    static func expectChildTasksSee(_ expected: Binding) async {
        let seen = await withTaskGroup(of: Binding.self) { group in
            for _ in 0..<3 { group.addTask { Self.$binding.get() } }
            return await group.reduce(into: [Binding]()) { $0.append($1) }
        }
        #expect(seen == Array(repeating: expected, count: 3))
        async let child = Self.$binding.get()
        #expect(await child == expected)
    }

    /// Outside any task, a synchronous binding on the thread is found there, as `get()` finds it.
    @Test func aThreadOutsideAnyTaskReadsItsOwnBindings() {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Self.check("a thread, nothing bound")
            Self.$binding.withValue(.holding(Box(3), 4)) {
                Self.check("a thread, bound")
                Self.$binding.withValue(.skipping) { Self.check("a thread, bound twice") }
                Self.check("a thread, back to its first binding")
            }
            Self.check("a thread, unbound again")
            done.signal()
        }
        done.wait()
    }
}
