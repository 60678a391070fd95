import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

/// A chain's handlers live as long as the chain, not as long as the threads that sent through it: a thread's
/// snapshot cache drops a released chain's snapshot at once on the releasing thread and at every other thread's
/// next send, and a released sink's shards with it. Plain Swift ownership is the reference: with no cache, every
/// handler would be freed once its chain is.
@Suite("A released chain's handlers are freed", .tags(.concurrent))
struct DroppedChainTests {
    /// An object a handler holds, watched through a weak reference.
    final class Resource: Sendable {}

    /// A thread that runs the blocks it is given, one at a time, and stays alive between them — as a worker
    /// thread of an app does.
    final class Worker: @unchecked Sendable {
        private let condition = NSCondition()
        private var jobs: [@Sendable () -> Void] = []
        private var finished = false
        private let done = DispatchSemaphore(value: 0)

        init() {
            let thread = Thread { [self] in
                while true {
                    condition.lock()
                    while jobs.isEmpty && !finished { condition.wait() }
                    if jobs.isEmpty {
                        condition.unlock()
                        break
                    }
                    var job = Optional(jobs.removeFirst())
                    condition.unlock()
                    job?()
                    // Released before the caller goes on: it may hold the last reference to a chain.
                    job = nil
                    done.signal()
                }
            }
            thread.start()
        }

        /// Runs `job` on the worker thread and waits for it.
        func run(_ job: @escaping @Sendable () -> Void) {
            condition.lock()
            jobs.append(job)
            condition.signal()
            condition.unlock()
            done.wait()
        }

        func stop() {
            condition.lock()
            finished = true
            condition.signal()
            condition.unlock()
        }
    }

    /// Weak references to everything the generated chains held.
    final class Watched: @unchecked Sendable {
        private let lock = NSLock()
        private var references: [() -> AnyObject?] = []

        func watch(_ object: AnyObject) {
            lock.withLock { references.append({ [weak object] in object }) }
        }

        var alive: Int { lock.withLock { references.filter { $0() != nil }.count } }
        var count: Int { lock.withLock { references.count } }
    }

    static func makeChain(_ index: Int, handlers: Int, watched: Watched, sink: InMemoryTraceSink?) throws -> Chain<
        Int, Int
    > {
        var list: [Handler<Int, Int>] = []
        for position in 0..<handlers {
            let resource = Resource()
            watched.watch(resource)
            let last = position == handlers - 1
            list.append(
                Handler("C\(index)H\(position)") { command in
                    withExtendedLifetime(resource) {}
                    return last && command % 2 == 0 ? .accept(command) : .pass
                }
            )
        }
        return try Chain("chain-\(index)", handlers: list, recorder: sink.map { Recorder(sink: $0) } ?? .off)
    }

    /// Chains sent through from several long-lived threads, some recording into sinks, then released: after each
    /// thread's next send through another chain, no handler, sink or trace of theirs is left.
    @Test(arguments: SeededGenerator.seeds(12))
    func handlersAreFreedOnEveryThreadAfterTheChainIsReleased(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let watched = Watched()
        let workers = (0..<Int.random(in: 1...3, using: &random)).map { _ in Worker() }
        defer { workers.forEach { $0.stop() } }
        // Up to 80 chains: more than the 64 cache entries, so some share an entry.
        let chainCount = Int.random(in: 1...80, using: &random)
        do {
            var chains: [Chain<Int, Int>] = []
            for index in 0..<chainCount {
                let sink = random.chance(0.3) ? InMemoryTraceSink() : nil
                if let sink { watched.watch(sink) }
                chains.append(
                    try Self.makeChain(
                        index,
                        handlers: Int.random(in: 1...5, using: &random),
                        watched: watched,
                        sink: sink
                    )
                )
            }
            for _ in 0..<Int.random(in: 1...60, using: &random) {
                let chain = random.pick(chains)
                let command = Int.random(in: 0...100, using: &random)
                let worker = random.chance(0.2) ? nil : random.pick(workers)
                if let worker {
                    worker.run { _ = try? chain.send(command) }
                } else {
                    _ = try chain.send(command)
                }
            }
            #expect(watched.alive == watched.count, "seed \(seed): everything is alive while the chains are")
        }
        // The chains are released. Each thread sends once through a chain of its own.
        let survivor = try Chain<Int, Int>("survivor", handlers: [Handler("Taker") { .accept($0) }])
        for worker in workers { worker.run { _ = try? survivor.send(1) } }
        _ = try survivor.send(1)
        #expect(watched.alive == 0, "seed \(seed): \(watched.alive) of \(watched.count) objects outlived their chains")
    }

    /// A chain released by the thread that sent through it: its handlers go at once, with no further send.
    @Test(arguments: SeededGenerator.seeds(12))
    func theReleasingThreadDropsItsCopyAtOnce(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let watched = Watched()
        let handlers = Int.random(in: 1...6, using: &random)
        do {
            let sink = random.chance(0.5) ? InMemoryTraceSink() : nil
            let chain = try Self.makeChain(0, handlers: handlers, watched: watched, sink: sink)
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                _ = try chain.send(Int.random(in: 0...9, using: &random))
            }
            #expect(watched.alive == handlers, "seed \(seed)")
        }
        #expect(watched.alive == 0, "seed \(seed): \(watched.alive) of \(handlers) handlers outlived their chain")
    }
}
