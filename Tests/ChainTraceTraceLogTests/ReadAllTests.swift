import ChainTrace
import ChainTraceFiles
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// The two ways to read a whole log — `TraceLogReader.readAll(path:)` and a reader's `readAll()` after some
/// `next()` calls — give the same traces (the rest of them) and the same torn tail, on generated logs.
@Suite("Reading a whole log")
struct ReadAllTests {
    @Test(arguments: SeededGenerator.seeds(20))
    func bothWaysGiveTheSameTracesAndTornTail(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = TornTailPropertyTests.traces(&random)
        var bytes = TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] }
        if random.chance(0.5) { bytes += Array(#"{"chain":"#.utf8) }
        let path = TestFiles.directory.appendingPathComponent("all-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let whole = try TraceLogReader.readAll(path: path)
        let reader = try TraceLogReader(path: path)
        let skipped = Int.random(in: 0...traces.count, using: &random)
        for _ in 0..<skipped { _ = try reader.next() }
        let rest = try reader.readAll()
        #expect(whole.traces == traces && rest.traces == Array(traces.dropFirst(skipped)), "seed \(seed)")
        #expect(whole.tornTail == rest.tornTail, "seed \(seed)")
    }
}
