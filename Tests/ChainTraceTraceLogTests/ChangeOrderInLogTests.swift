import ChainTrace
import ChainTraceFiles
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A chain edited while it is recorded into a trace log written in the background: every change is in the file
/// before every trace its thread recorded after making it, and after every trace its thread recorded before —
/// whatever the writer was doing when the change came.
/// Before, the writer took the changes once at the start of a pass and then drained the traces, so a change made
/// during a pass was written after traces that ran on the chain it made (a fresh-clone CI run caught it in a
/// torn-line test whose last line was a change). Generated: edits and commands interleaved on several threads,
/// each thread with a chain of its own, a flush now and then, both formats.
@Suite("Chain changes in the log before the traces that ran on them", .tags(.concurrent))
struct ChangeOrderInLogTests {
    @Test(arguments: SeededGenerator.seeds(12))
    func everyChangeComesBeforeTheTracesRecordedAfterIt(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let path = TestFiles.directory.appendingPathComponent("changes-\(seed)-\(UUID()).jsonl").path
        var options = TraceLogSink.Options()
        options.format = random.chance(0.5) ? .compact : .jsonLines
        options.whenBehind = .block
        options.flushInterval = .milliseconds(Int.random(in: 1...5, using: &random))
        let sink = try TraceLogSink(path: path, options: options)
        let threads = Int.random(in: 1...3, using: &random)
        let plans: [[Bool]] = (0..<threads).map { _ in
            (0..<Int.random(in: 50...300, using: &random)).map { _ in random.chance(0.1) }
        }
        // Each chain's version before its first change.
        let startVersions = Versions(count: threads)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let chain = try! Chain<Int, Int>(
                "c\(thread)",
                handlers: [Handler("A") { $0 % 2 == 0 ? .accept($0) : .pass }],
                recorder: Recorder(sink: sink)
            )
            startVersions.set(chain.version, at: thread)
            var added = 0
            for (step, edits) in plans[thread].enumerated() {
                if edits {
                    added += 1
                    try! chain.insert(Handler("N\(added)") { _ in .pass }, at: .after("A"))
                }
                _ = try? chain.send(step)
                if step % 97 == 0 { try? sink.flush() }
            }
        }
        try sink.close()
        let reader = try TraceLogReader(paths: [path])
        var traces = 0
        while let trace = try reader.next() {
            traces += 1
            // Every change of its chain up to the version it ran on has been read already.
            let thread = try #require(Int(trace.chain.dropFirst()))
            let start = startVersions.get(thread)
            let read = Set(reader.chainEdits.filter { $0.chain == trace.chain }.map(\.version))
            let missing = (start..<max(start, trace.chainVersion)).map { $0 + 1 }.filter { !read.contains($0) }
            #expect(
                missing.isEmpty,
                "seed \(seed): a trace of \(trace.chain) on version \(trace.chainVersion) came before the changes to \(missing)"
            )
            // And no change made after it ran: a trace still queued when its thread changed the chain is written
            // before the change.
            let early = reader.chainEdits.filter { $0.chain == trace.chain && $0.version > trace.chainVersion }.map(
                \.version
            )
            #expect(
                early.isEmpty,
                "seed \(seed): the changes to \(early) came before a trace of \(trace.chain) that ran on version \(trace.chainVersion)"
            )
        }
        #expect(traces == plans.map(\.count).reduce(0, +), "seed \(seed)")
        #expect(reader.chainEdits.count == plans.joined().filter { $0 }.count, "seed \(seed)")
    }

    /// Each thread's chain's version before its first change.
    final class Versions: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int]

        init(count: Int) { values = Array(repeating: 0, count: count) }
        func set(_ value: Int, at index: Int) { lock.withLock { values[index] = value } }
        func get(_ index: Int) -> Int { lock.withLock { values[index] } }
    }
}
