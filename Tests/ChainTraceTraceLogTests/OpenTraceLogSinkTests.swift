import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A program that records traces into a trace log and ends without closing it — returning from `main`, or calling
/// `exit` — as an app whose sink lives in a global does: every trace it recorded is in the log. Run as a separate
/// process (`chaintrace-log-exit-probe`) with generated counts, both formats, written in the background or on the
/// caller's thread. Before, such a log held none of them: Swift runs no `deinit` of a global at exit, and the
/// traces waiting in queues and buffers went with the process.
@Suite("Open trace logs at exit")
struct OpenTraceLogSinkTests {
    @Test(arguments: SeededGenerator.seeds(8))
    func aProgramEndingWithoutClosingItsLogKeepsEveryTrace(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("exit")
        let path = directory.appendingPathComponent("traces.jsonl").path
        let count = Int.random(in: 1...3_000, using: &random)
        let arguments = [
            path, String(count), random.pick(["compact", "jsonLines"]), random.pick(["background", "direct"]),
            random.pick(["return", "exit"]),
        ]
        let output = try BuiltProduct(name: "chaintrace-log-exit-probe").run(arguments, timeLimit: 60)
        #expect(output.status == 0 && !output.timedOut, "seed \(seed): \(arguments) \(output.standardError)")
        let log = try TraceLogReader(path: path).readAll()
        #expect(log.traces.count == count, "seed \(seed): \(arguments): \(log.traces.count) of \(count) traces")
        #expect(log.tornTail == nil, "seed \(seed)")
        // In the order they were recorded: the nth command's value is n.
        #expect(log.traces.map(\.payload) == (0..<count).map { JSONValue.integer(Int64($0)) }, "seed \(seed)")
    }
}
