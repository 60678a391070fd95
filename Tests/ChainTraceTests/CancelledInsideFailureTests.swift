import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import Testing

/// A stage that races the rest of the chain against a timeout (or against another way of answering) cancels the
/// hops still running when it gives up, and throws its own error: those hops fail with `CancellationError`, but the
/// command failed at the stage, with its error. Before, the trace named the cancelled hop — "failed at Slow:
/// CancellationError()" for a command that timed out in Guard. A cancellation that comes from outside — the caller
/// cancelled the command, and the stage hands the `CancellationError` up — still names the hop that threw it.
@Suite("Hops cancelled by the hop they run in", .tags(.concurrent))
struct CancelledInsideFailureTests {
    struct Timeout: Error, CustomStringConvertible {
        var stage: String
        var description: String { "\(stage) timed out" }
    }

    /// A stage of an async chain: the guard races `next` against a timeout that fires at once (or never), the
    /// others pass the command on, the last waits until it is cancelled (or answers at once).
    final class Stage: Sendable {
        enum Kind {
            case pass, guardWins, guardLoses, slowLast, quickLast
        }
        let name: String
        let kind: Kind
        let next: Stage?

        init(_ name: String, _ kind: Kind, next: Stage?) {
            (self.name, self.kind, self.next) = (name, kind, next)
        }

        func handle(_ value: Int) async throws -> Int? {
            try await traceHop(name, command: value, chain: "race") {
                switch kind {
                case .pass: return try await next?.handle(value)
                case .quickLast: return value
                case .slowLast:
                    try await Task.sleep(for: .seconds(600))
                    return value
                case .guardWins, .guardLoses:
                    return try await withThrowingTaskGroup(of: Int?.self) { group in
                        group.addTask { try await self.next?.handle(value) }
                        group.addTask {
                            if self.kind == .guardLoses { try await Task.sleep(for: .seconds(600)) }
                            throw Timeout(stage: self.name)
                        }
                        defer { group.cancelAll() }
                        return try await group.next()!
                    }
                }
            }
        }
    }

    /// Outer stages, the guard, inner stages, the last: names and kinds, generated.
    static func chain(_ random: inout SeededGenerator, timesOut: Bool) -> (Stage, [String]) {
        let outer = Int.random(in: 0...2, using: &random)
        let inner = Int.random(in: 0...2, using: &random)
        var kinds: [Stage.Kind] = Array(repeating: .pass, count: outer) + [timesOut ? .guardWins : .guardLoses]
        kinds += Array(repeating: .pass, count: inner) + [timesOut ? .slowLast : .quickLast]
        let names = kinds.indices.map { "S\($0)" }
        var next: Stage?
        for (name, kind) in zip(names, kinds).reversed() { next = Stage(name, kind, next: next) }
        return (next!, names)
    }

    @Test(arguments: SeededGenerator.seeds(20))
    func aTimeoutFailsAtTheStageThatTimedOut(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let timesOut = random.chance(0.7)
        let (head, names) = Self.chain(&random, timesOut: timesOut)
        let guardIndex = try #require(
            names.indices.first { index in
                var stage: Stage? = head
                for _ in 0..<index { stage = stage?.next }
                return stage?.kind == .guardWins || stage?.kind == .guardLoses
            }
        )
        let traces = await captureTraces { _ = try? await head.handle(seed.hashValue & 0xFFFF) }
        try #require(traces.count == 1, "seed \(seed)")
        let trace = traces[0]
        expectPath(trace, names)
        guard timesOut else {
            #expect(trace.outcome == .accepted(by: names.last!), "seed \(seed)")
            return
        }
        let guardName = names[guardIndex]
        #expect(trace.outcome == .failed(at: guardName, error: "\(guardName) timed out (Timeout)"), "seed \(seed)")
        // Outer stages handed the guard's error up; the guard failed; the cancelled hops failed with the cancellation,
        // the innermost where it was thrown, the others handing it up.
        let expected: [Decision] = names.indices.map { index in
            index < guardIndex ? .passed : index == guardIndex ? .failed : index == names.count - 1 ? .failed : .passed
        }
        #expect(trace.hops.map(\.decision) == expected, "seed \(seed): \(trace.hops.map(\.decision))")
        #expect(trace.hops.last?.reason?.contains("CancellationError") == true, "seed \(seed)")
    }

    /// The caller cancels the command: every stage hands the cancellation up, and the hop that threw it is named.
    @Test(arguments: SeededGenerator.seeds(6))
    func aCommandCancelledFromOutsideFailsWhereTheCancellationWasThrown(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let (head, names) = Self.chain(&random, timesOut: false)
        // The last stage waits until it is cancelled; the guard's timeout never fires.
        var stage: Stage? = head
        var kinds: [Stage.Kind] = []
        while let current = stage {
            kinds.append(current.kind == .quickLast ? .slowLast : current.kind)
            stage = current.next
        }
        var rebuilt: Stage?
        for (name, kind) in zip(names, kinds).reversed() { rebuilt = Stage(name, kind, next: rebuilt) }
        let traces = await captureTraces {
            let task = Task { [rebuilt] in try await rebuilt!.handle(1) }
            try? await Task.sleep(for: .milliseconds(20))
            task.cancel()
            _ = try? await task.value
        }
        try #require(traces.count == 1, "seed \(seed)")
        guard case .failed(let at, let error) = traces[0].outcome else {
            Issue.record("seed \(seed): \(traces[0].outcome)")
            return
        }
        #expect(at == names.last! && error.contains("CancellationError"), "seed \(seed): \(traces[0].outcome)")
    }
}
