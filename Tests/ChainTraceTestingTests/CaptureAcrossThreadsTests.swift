import ChainTrace
import ChainTraceTestSupport
import Dispatch
import ChainTraceTesting
import Testing

/// `captureTraces` and commands sent from threads the test did not start: every trace of the chains a capture
/// involves is in its result, or the capture says how many it could not attribute — never a silent partial
/// capture. Chain names carry a per-case suffix so parallel tests never involve each other's chains.
@Suite("Capturing traces recorded on other threads")
struct CaptureAcrossThreadsTests {
    static func chain(_ name: String) throws -> Chain<Int, Int> {
        try Chain(name, handlers: [
            Handler("Even") { $0 % 2 == 0 ? .accept($0) : .pass },
            Handler("Odd") { .accept($0) },
        ])
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
    func aLoneCaptureTakesEveryTraceFromOtherThreads(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let name = "lone-\(seed)"
        let chain = try Self.chain(name)
        let inTask = Int.random(in: 0...5, using: &random)
        let fromQueues = Int.random(in: 1...60, using: &random)
        let width = Int.random(in: 1...6, using: &random)
        let instrumented = random.chance(0.5)
        // With no command in its own task the capture must be told the chain; with one it involves it anyway.
        let declared = inTask == 0 ? [name] : []
        let traces = try captureTraces(of: declared) {
            for value in 0..<inTask { _ = instrumented ? Self.instrumented(value, chain: name) : try chain.send(value) }
            Self.sendFromQueues(fromQueues, width: width) { value in
                _ = instrumented ? Self.instrumented(value, chain: name) : try? chain.send(value)
            }
        }
        #expect(traces.count == inTask + fromQueues, "seed \(seed): \(traces.count) of \(inTask + fromQueues)")
        #expect(traces.allSatisfy { $0.chain == name }, "seed \(seed)")
        #expect(zip(traces, traces.dropFirst()).allSatisfy { $0.startTime <= $1.startTime }, "seed \(seed)")
    }

    /// Several captures open at once, on threads of their own, some sharing a chain; each sends from Dispatch
    /// threads. Whatever the interleaving, a capture that did not get all its traces says how many of that
    /// chain it could not attribute, and no trace is in two results.
    @Test(arguments: SeededGenerator.seeds(10))
    func overlappingCapturesAreCompleteOrSaySo(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let captures = Int.random(in: 2...4, using: &random)
        let names = (0..<Int.random(in: 1...captures, using: &random)).map { "shared-\(seed)-\($0)" }
        let plans = (0..<captures).map { _ in (chain: random.pick(names), count: Int.random(in: 1...30, using: &random)) }
        let chains = try Dictionary(uniqueKeysWithValues: names.map { ($0, try Self.chain($0)) })
        let results = LockedResults(count: captures)
        DispatchQueue.concurrentPerform(iterations: captures) { index in
            let plan = plans[index]
            let chain = chains[plan.chain]!
            let (_, result) = TraceCaptureScope.run(chains: [plan.chain]) {
                Self.sendFromQueues(plan.count, width: 2) { value in _ = try? chain.send(index * 1000 + value) }
            }
            results.set(index, result)
        }
        var seen = Set<UInt64>()
        for (index, plan) in plans.enumerated() {
            let result = results.get(index)!
            let own = result.traces.filter { $0.chain == plan.chain }.count
            #expect(result.traces.count == own, "seed \(seed): a capture took a chain it does not involve")
            if own < plan.count {
                #expect((result.ambiguous[plan.chain] ?? 0) > 0, "seed \(seed): capture \(index) silently got \(own) of \(plan.count)")
            }
            for trace in result.traces { #expect(seen.insert(trace.id).inserted, "seed \(seed): trace \(trace.id) in two captures") }
            // Alone on its chain, a capture takes exactly its own traces.
            if plans.filter({ $0.chain == plan.chain }).count == 1 {
                #expect(own == plan.count && result.ambiguous.isEmpty, "seed \(seed): capture \(index) alone got \(own) of \(plan.count)")
            }
        }
    }

    @Test func sharedChainTracesThatCannotBeAttributedFailTheTest() throws {
        let name = "ambiguous-\(UInt64.random(in: 0 ... .max))"
        let chain = try Self.chain(name)
        let opened = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let otherDone = DispatchGroup()
        // Another capture of the same chain stays open while this one's other threads send.
        DispatchQueue(label: "other capture").async(group: otherDone) {
            _ = TraceCaptureScope.run(chains: [name]) {
                opened.signal()
                gate.wait()
            }
        }
        opened.wait()
        withKnownIssue {
            let traces = captureTraces(of: [name]) {
                Self.sendFromQueues(5, width: 2) { _ = try? chain.send($0) }
            }
            #expect(traces.isEmpty)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("could not attribute") && $0.rawValue.contains("5 of \"\(name)\"") }
        }
        gate.signal()
        otherDone.wait()
    }

    @Test func aCaptureThatTookNothingReportsTracesFromOtherThreads() {
        let name = "unclaimed-\(UInt64.random(in: 0 ... .max))"
        let (_, result) = TraceCaptureScope.run(chains: []) {
            Self.sendFromQueues(3, width: 1) { _ = Self.instrumented($0 + 1, chain: name) }
        }
        #expect(result.traces.isEmpty)
        // Another test's capture may take nothing at the same moment; this one's count is at least its own.
        #expect((result.unclaimed[name] ?? 0) == 3)
        let message = unattributedMessage(result) ?? ""
        #expect(message.contains("captureTraces(of: [\"…\"])") && message.contains("3 of \"\(name)\""))
    }

    @Test func asyncCaptureTakesTracesFromOtherThreadsToo() async throws {
        let name = "async-\(UInt64.random(in: 0 ... .max))"
        let chain = try Self.chain(name)
        let traces = try await captureTraces(of: [name]) {
            _ = try await Task.detached { try chain.send(2) }.value
            Self.sendFromQueues(4, width: 2) { _ = try? chain.send($0) }
        }
        #expect(traces.count == 5)
    }
}

/// Results written by concurrent captures, one slot each.
final class LockedResults: @unchecked Sendable {
    // Every access holds `lock`.
    private var slots: [TraceCaptureScope.Result?]
    private let lock = DispatchSemaphore(value: 1)

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: TraceCaptureScope.Result) {
        lock.wait()
        slots[index] = result
        lock.signal()
    }

    func get(_ index: Int) -> TraceCaptureScope.Result? {
        lock.wait()
        defer { lock.signal() }
        return slots[index]
    }
}
