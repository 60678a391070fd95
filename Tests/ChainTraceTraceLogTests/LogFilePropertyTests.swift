import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Trace logs on disk: files larger than the reader's 256 KiB chunk, with lines of every length and lines longer
/// than a chunk, read from the file exactly as from memory; and a sink written from many threads at once keeps
/// every trace whole, once, whether the log is new or appended to.
@Suite("Trace log files under generated loads", .tags(.concurrent))
struct LogFilePropertyTests {
    static func trace(id: UInt64, thread: Int, reasonLength: Int) -> Trace {
        let reason = String(repeating: "r", count: reasonLength)
        return Trace(
            id: id,
            commandKind: "K",
            commandID: "t\(thread)-\(id)",
            entry: "A",
            chain: "c",
            hops: [
                Hop(
                    handler: "A",
                    position: 0,
                    decision: .passed,
                    reason: reason,
                    inclusiveDuration: 3,
                    selfDuration: 1
                ),
                Hop(
                    handler: "B",
                    position: 1,
                    decision: .accepted,
                    startOffset: 1,
                    inclusiveDuration: 2,
                    selfDuration: 2
                ),
            ],
            outcome: .accepted(by: "B"),
            duration: 3
        )
    }

    static func path(_ name: String) -> String {
        TestFiles.directory.appendingPathComponent("chaintrace-\(UUID())-\(name)").path
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func aSinkRefusesANameThatSaysGzip(seed: UInt64) throws {
        // The sink writes plain JSON Lines: under a `.gz` name `zcat` and log shippers would take them for gzip.
        // Refused before anything is made, whatever the options, new or appending.
        var random = SeededGenerator(seed: seed)
        let path = Self.path(random.pick(["traces.jsonl.gz", "t.gz", "log.json.gz"]))
        var options = TraceLogSink.Options()
        options.format = random.pick([.compact, .jsonLines])
        options.writesInBackground = random.chance(0.5)
        if random.chance(0.5) { options.rotationBytes = 4096 }
        let error = #expect(throws: FormatError.self) {
            try TraceLogSink(path: path, appending: random.chance(0.5), options: options)
        }
        #expect(error?.file == path && error?.found == "a name ending in .gz", "seed \(seed)")
        #expect(!FileManager.default.fileExists(atPath: path), "seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func aFileReadsLikeTheSameBytesInMemoryAcrossChunks(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var bytes = TraceLogFormat.header + [0x0A]
        var traces: [Trace] = []
        // About 600 KB: across at least two chunk boundaries, with a few lines longer than a whole chunk.
        while bytes.count < 600_000 {
            let length =
                random.chance(0.01)
                ? Int.random(in: 262_144...300_000, using: &random) : Int.random(in: 0...3_000, using: &random)
            let trace = Self.trace(id: UInt64(traces.count), thread: 0, reasonLength: length)
            traces.append(trace)
            bytes += TraceLogFormat.encode(trace) + (random.chance(0.1) ? [0x0D, 0x0A] : [0x0A])
        }
        let path = Self.path("chunks.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fromFile = try TraceLogReader(path: path).readAll()
        let fromMemory = try TraceLogReader(bytes: bytes).readAll()
        #expect(fromFile.traces == traces, "seed \(seed): \(fromFile.traces.count) of \(traces.count) from the file")
        #expect(fromMemory.traces == traces, "seed \(seed)")
        #expect(fromFile.tornTail == nil && fromMemory.tornTail == nil, "seed \(seed)")
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func manyThreadsWritingKeepEveryTraceWholeAndOnce(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let threads = Int.random(in: 2...6, using: &random)
        let perThread = Int.random(in: 1...400, using: &random)
        let bufferSize = random.pick([64, 4_096, 64 * 1024])
        let appending = random.chance(0.5)
        let path = Self.path("threads.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var earlier: [Trace] = []
        if appending {
            let first = try TraceLogSink(path: path)
            earlier = (0..<3).map { Self.trace(id: UInt64(1_000_000 + $0), thread: 99, reasonLength: 5) }
            for trace in earlier { first.record(trace) }
            try first.close()
        }
        let sink = try TraceLogSink(path: path, appending: appending, bufferSize: bufferSize)
        let lengths = (0..<perThread).map { _ in Int.random(in: 0...500, using: &random) }
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                sink.record(
                    Self.trace(id: UInt64(thread * perThread + index), thread: thread, reasonLength: lengths[index])
                )
            }
        }
        try sink.close()
        let log = try TraceLogReader(path: path).readAll()
        #expect(log.tornTail == nil, "seed \(seed)")
        #expect(log.traces.count == earlier.count + threads * perThread, "seed \(seed): \(log.traces.count) traces")
        #expect(
            Array(log.traces.prefix(earlier.count)) == earlier,
            "seed \(seed): the earlier traces come first, unchanged"
        )
        let ids = log.traces.dropFirst(earlier.count).compactMap(\.commandID)
        #expect(Set(ids).count == threads * perThread, "seed \(seed): a trace lost or written twice")
        // Each thread's own traces stay in the order it recorded them.
        for thread in 0..<threads {
            let mine = ids.filter { $0.hasPrefix("t\(thread)-") }.map { UInt64($0.split(separator: "-")[1])! }
            #expect(mine == mine.sorted(), "seed \(seed): thread \(thread) out of order")
        }
    }
}
