import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

/// Commands sent from several threads while another thread edits the chain — registering and deregistering late
/// responders with tied weights, inserting and removing handlers: every trace took exactly the path of the
/// version of the chain it records, never a mix of two versions.
@Suite("Sending while the chain is edited", .tags(.concurrent))
struct ConcurrentEditsTests {
    /// What every command (none is taken) visits at each version, kept by the editing thread.
    final class Versions: @unchecked Sendable {
        // Every access holds `lock`.
        private var paths: [Int: [String]] = [:]
        private let lock = NSLock()

        func record(_ version: Int, _ path: [String]) { lock.withLock { paths[version] = path } }
        func path(at version: Int) -> [String]? { lock.withLock { paths[version] } }
    }

    static func passer(_ name: String) -> Handler<Int, Int> { Handler(name) { _ in .pass } }

    /// Makes the edits one by one, recording after each what a command visits at the version it made.
    static func edit(
        _ chain: Chain<Int, Int>,
        _ registry: Registry<Handler<Int, Int>>,
        edits: [Int],
        weights: [Int],
        versions: Versions,
        seed: UInt64
    ) {
        var top = ["Head", "R", "Tail"]
        var members: [(name: String, weight: Int, age: Int)] = []
        func full() -> [String] {
            top.flatMap {
                $0 == "R" ? ["R"] + members.sorted { ($0.weight, $0.age) > ($1.weight, $1.age) }.map(\.name) : [$0]
            }
        }
        versions.record(chain.version, full())
        for (step, edit) in edits.enumerated() {
            do {
                switch edit {
                case 0, 1:
                    try registry.register(passer("M\(step)"), weight: weights[step])
                    members.append(("M\(step)", weights[step], step))
                case 2 where !members.isEmpty:
                    let gone = members.removeFirst().name
                    _ = try registry.deregister(gone)
                default:
                    if let index = top.firstIndex(where: { $0.hasPrefix("X") }) {
                        try chain.remove(top[index])
                        top.remove(at: index)
                    } else {
                        try chain.insert(passer("X\(step)"), at: .before("Tail"))
                        top.insert("X\(step)", at: top.count - 1)
                    }
                }
            } catch {
                Issue.record("seed \(seed): edit \(step) failed: \(error)")
            }
            versions.record(chain.version, full())
        }
    }

    @Test(arguments: SeededGenerator.seeds(8))
    func everyTraceTookThePathOfItsVersion(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let sink = InMemoryTraceSink()
        let chain = try Chain<Int, Int>(
            "edited-\(seed)",
            handlers: [Self.passer("Head"), Self.passer("Tail")],
            recorder: Recorder(sink: sink)
        )
        let registry = try chain.addRegistry("R", at: .after("Head"))
        let versions = Versions()
        let edits = (0..<200).map { _ in Int.random(in: 0..<4, using: &random) }
        let weights = (0..<200).map { _ in Int.random(in: 0...2, using: &random) }
        let done = DispatchSemaphore(value: 0)
        let editor = Thread {
            Self.edit(chain, registry, edits: edits, weights: weights, versions: versions, seed: seed)
            done.signal()
        }
        editor.start()
        DispatchQueue.concurrentPerform(iterations: 3) { sender in
            for index in 0..<300 { _ = try? chain.send(sender * 1_000 + index) }
        }
        done.wait()
        let traces = sink.traces
        #expect(traces.count == 900, "seed \(seed)")
        var seenVersions = Set<Int>()
        for trace in traces {
            seenVersions.insert(trace.chainVersion)
            guard let expected = versions.path(at: trace.chainVersion) else {
                Issue.record("seed \(seed): a trace of version \(trace.chainVersion), which no edit made")
                continue
            }
            #expect(trace.path == expected, "seed \(seed), version \(trace.chainVersion): \(trace.path) vs \(expected)")
            #expect(trace.outcome == .fellOffTheEnd, "seed \(seed)")
        }
    }
}
