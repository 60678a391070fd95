import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Dispatch
import Foundation
import Testing

/// `captureTraces` beside work on other threads: a plain capture takes its own task tree and nothing else,
/// whatever runs beside it; a capture that names a chain also takes that chain's traces from other threads, and
/// two that name one chain at once both fail, naming each other. Chain names carry a per-case suffix so that
/// only the cases meant to share a chain do.
@Suite("Capturing traces beside work on other threads", .tags(.concurrent))
struct CaptureAcrossThreadsTests {
    static func chain(_ name: String) throws -> Chain<Int, Int> {
        try Chain(
            name,
            handlers: [
                Handler("Even") { $0 % 2 == 0 ? .accept($0) : .pass },
                Handler("Odd") { .accept($0) },
            ]
        )
    }

    /// An instrumented handler chain of the kind users already have: one `traceHop` per handler.
    static func instrumented(_ value: Int, chain: String) -> Int? {
        traceHop("First", command: value, chain: chain) {
            value % 3 == 0 ? value : traceHop("Second", command: value, chain: chain) { value }
        }
    }

    /// Sends `count` commands from Dispatch worker threads (no Swift task, no recorder scope) and waits.
    static func sendFromQueues(_ count: Int, width: Int, _ send: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        let queues = (0..<width).map { DispatchQueue(label: "sender-\($0)") }
        for index in 0..<count {
            queues[index % width].async(group: group) { send(index) }
        }
        group.wait()
    }

    @Test(arguments: SeededGenerator.seeds(12))
    func aCaptureNamingAChainTakesItsTracesFromOtherThreads(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let name = "lone-\(seed)-\(UInt64.random(in: 0 ... .max))"
        let chain = try Self.chain(name)
        let inTask = Int.random(in: 0...5, using: &random)
        let fromQueues = Int.random(in: 1...60, using: &random)
        let width = Int.random(in: 1...6, using: &random)
        let instrumented = random.chance(0.5)
        let traces = try captureTraces(of: [name]) {
            for value in 0..<inTask { _ = instrumented ? Self.instrumented(value, chain: name) : try chain.send(value) }
            Self.sendFromQueues(fromQueues, width: width) { value in
                _ = instrumented ? Self.instrumented(value, chain: name) : try? chain.send(value)
            }
        }
        #expect(traces.count == inTask + fromQueues, "seed \(seed): \(traces.count) of \(inTask + fromQueues)")
        #expect(traces.allSatisfy { $0.chain == name }, "seed \(seed)")
        #expect(zip(traces, traces.dropFirst()).allSatisfy { $0.startTime <= $1.startTime }, "seed \(seed)")
    }

    /// Two captures open at once, each naming its own chain and asking for payloads or not: each trace from the
    /// other threads carries its command exactly when the capture that takes it asked.
    @Test(arguments: [true, false])
    func aCaptureNamingAChainKeepsItsPayloadSetting(instrumented: Bool) throws {
        let withPayloads = "payloads-\(UInt64.random(in: 0 ... .max))"
        let without = "no-payloads-\(UInt64.random(in: 0 ... .max))"
        let (chainWith, chainWithout) = (try Self.chain(withPayloads), try Self.chain(without))
        var plain: [Trace] = []
        let captured = captureTraces(of: [withPayloads], payloads: .captured) {
            plain = captureTraces(of: [without]) {
                Self.sendFromQueues(10, width: 3) { value in
                    if instrumented {
                        _ = Self.instrumented(value, chain: withPayloads)
                        _ = Self.instrumented(value, chain: without)
                    } else {
                        _ = try? chainWith.send(value)
                        _ = try? chainWithout.send(value)
                    }
                }
            }
        }
        #expect(captured.count == 10 && plain.count == 10)
        #expect(Set(captured.compactMap(\.payload)) == Set((0..<10).map { JSONValue.integer(Int64($0)) }))
        #expect(plain.allSatisfy { $0.payload == nil })
    }

    @Test func aPlainCaptureTakesNothingFromOtherThreadsEvenOfItsOwnChain() throws {
        let name = "plain-\(UInt64.random(in: 0 ... .max))"
        let chain = try Self.chain(name)
        let traces = try captureTraces {
            _ = try chain.send(1)
            Self.sendFromQueues(7, width: 2) { _ = try? chain.send($0) }
        }
        #expect(traces.count == 1)
    }

    /// The suite users wrote: one test sends to a chain from other threads for as long as the others run
    /// (capturing it by name, or not capturing at all), and the other tests, run at the same time, capture the
    /// same chain on their own tasks. The others' captures hold exactly their own traces, every time, and report
    /// nothing; the one that named the chain holds every trace the threads recorded.
    @Test(arguments: SeededGenerator.seeds(8))
    func testsCapturingOnTheirOwnTasksNeverSeeAThreadsTraces(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let name = "shared-\(seed)-\(UInt64.random(in: 0 ... .max))"
        let chain = try Self.chain(name)
        let innocents = (0..<Int.random(in: 2...6, using: &random)).map { _ in Int.random(in: 5...25, using: &random) }
        let threadCaptures = random.chance(0.5)
        let stop = LockedCount()
        let started = DispatchSemaphore(value: 0)
        let threadDone = DispatchSemaphore(value: 0)
        let threadSent = LockedCount()
        let threadTook = LockedCount()
        // Sends until the other tests are done (at most 20 000 commands), a few at a time.
        let sendUntilStopped = { @Sendable in
            started.signal()
            while stop.value == 0 && threadSent.value < 20_000 {
                if threadCaptures {
                    Self.sendFromQueues(8, width: 2) { _ = try? chain.send($0) }
                } else {
                    for value in 0..<8 { _ = try? chain.send(value) }
                }
                threadSent.add(8)
            }
        }
        Thread {
            if threadCaptures {
                let (_, result) = TraceCaptureScope.run(claims: [name], description: "the thread's", sendUntilStopped)
                threadTook.add(result.traces.count)
                #expect(result.overlaps.isEmpty, "seed \(seed)")
            } else {
                sendUntilStopped()
            }
            threadDone.signal()
        }.start()
        started.wait()
        let counts = try await withThrowingTaskGroup(of: (expected: Int, got: Int, message: String?).self) { group in
            for count in innocents {
                group.addTask {
                    let (_, result) = try TraceCaptureScope.run(claims: [], description: "innocent") {
                        for value in 0..<count {
                            _ = try chain.send(value)
                            Thread.sleep(forTimeInterval: 0.0005)
                        }
                    }
                    return (count, result.traces.count, unattributedMessage(result))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        stop.add(1)
        threadDone.wait()
        for (expected, got, message) in counts {
            #expect(got == expected, "seed \(seed): an innocent capture got \(got) traces for its \(expected)")
            #expect(message == nil, "seed \(seed): \(message ?? "")")
        }
        if threadCaptures { #expect(threadTook.value == threadSent.value, "seed \(seed)") }
    }

    /// Several captures open at once, on threads of their own, some naming the same chain; each sends from
    /// Dispatch threads. A capture alone on its chain takes exactly its traces; captures that share one each
    /// name the other; no trace is in two results.
    @Test(arguments: SeededGenerator.seeds(10))
    func overlappingCapturesOfOneChainNameEachOther(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let captures = Int.random(in: 2...4, using: &random)
        let names = (0..<Int.random(in: 1...captures, using: &random)).map {
            "shared-\(seed)-\($0)-\(UInt64.random(in: 0 ... .max))"
        }
        let plans = (0..<captures).map { _ in (chain: random.pick(names), count: Int.random(in: 1...30, using: &random))
        }
        let chains = try Dictionary(uniqueKeysWithValues: names.map { ($0, try Self.chain($0)) })
        let results = LockedResults(count: captures)
        let allOpen = DispatchGroup()
        let allDone = DispatchGroup()
        for _ in 0..<captures { allOpen.enter() }
        // A thread each (not `concurrentPerform`, which runs only as many at once as there are cores): every
        // capture is open before any sends, so which overlap is certain.
        for index in 0..<captures {
            allDone.enter()
            let plan = plans[index]
            let chain = chains[plan.chain]!
            Thread {
                let (_, result) = TraceCaptureScope.run(claims: [plan.chain], description: "capture \(index)") {
                    allOpen.leave()
                    allOpen.wait()
                    Self.sendFromQueues(plan.count, width: 2) { value in _ = try? chain.send(index * 1000 + value) }
                }
                results.set(index, result)
                allDone.leave()
            }.start()
        }
        allDone.wait()
        var seen = Set<UInt64>()
        for (index, plan) in plans.enumerated() {
            let result = results.get(index)!
            #expect(result.traces.allSatisfy { $0.chain == plan.chain }, "seed \(seed): a capture took another chain")
            for trace in result.traces {
                #expect(seen.insert(trace.id).inserted, "seed \(seed): a trace in two captures")
            }
            let sharing = plans.indices.filter { $0 != index && plans[$0].chain == plan.chain }
            #expect(
                Set(result.overlaps) == Set(sharing.map { "capture \($0)" }),
                "seed \(seed): capture \(index) names \(result.overlaps)"
            )
            let taken = result.traces.count
            if sharing.isEmpty {
                #expect(taken == plan.count, "seed \(seed): capture \(index) alone got \(taken) of \(plan.count)")
            } else {
                // Each of its commands was taken while it was the chain's only open claimant (after the others
                // closed), or counted as unattributed; it never takes another's.
                let unattributed = result.unattributed[plan.chain] ?? 0
                #expect(taken <= plan.count, "seed \(seed): capture \(index) took \(taken) for its \(plan.count)")
                #expect(taken + unattributed >= plan.count, "seed \(seed): capture \(index) silently lost traces")
            }
        }
    }

    @Test func twoCapturesNamingOneChainFailBothNamingEachOther() throws {
        let name = "ambiguous-\(UInt64.random(in: 0 ... .max))"
        let chain = try Self.chain(name)
        let opened = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let otherDone = DispatchGroup()
        let other = LockedResults(count: 1)
        DispatchQueue(label: "other capture").async(group: otherDone) {
            let (_, result) = TraceCaptureScope.run(claims: [name], description: "the other capture") {
                opened.signal()
                gate.wait()
            }
            other.set(0, result)
        }
        opened.wait()
        let line = #line + 2
        withKnownIssue {
            let traces = captureTraces(of: [name]) {
                Self.sendFromQueues(5, width: 2) { _ = try? chain.send($0) }
            }
            #expect(traces.isEmpty)
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("ran at the same time as the other capture")
                    && $0.rawValue.contains("5 of \"\(name)\" went to neither")
            }
        }
        gate.signal()
        otherDone.wait()
        let result = other.get(0)!
        #expect(
            result.overlaps == [
                "captureTraces(of: [\"\(name)\"]) at ChainTraceTestingTests/CaptureAcrossThreadsTests.swift:\(line)"
            ]
        )
        #expect(result.unattributed == [name: 5])
    }

    @Test func asyncCaptureNamingAChainTakesDetachedTasksAndQueues() async throws {
        let name = "async-\(UInt64.random(in: 0 ... .max))"
        let chain = try Self.chain(name)
        let traces = try await captureTraces(of: [name]) {
            _ = try await Task.detached { try chain.send(2) }.value
            Self.sendFromQueues(4, width: 2) { _ = try? chain.send($0) }
        }
        #expect(traces.count == 5)
    }
}

/// A count several threads add to.
final class LockedCount: @unchecked Sendable {
    // Every access holds `lock`.
    private var count = 0
    private let lock = NSLock()

    func add(_ value: Int) { lock.withLock { count += value } }

    var value: Int { lock.withLock { count } }
}

/// Results written by concurrent captures, one slot each.
final class LockedResults: @unchecked Sendable {
    // Every access holds `lock`.
    private var slots: [TraceCaptureScope.Result?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: TraceCaptureScope.Result) {
        lock.withLock { slots[index] = result }
    }

    func get(_ index: Int) -> TraceCaptureScope.Result? {
        lock.withLock { slots[index] }
    }
}
