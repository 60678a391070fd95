import ChainTrace
import ChainTraceAnalysis
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Reading a log on a thread of its own, ahead of the caller, gives what reading it in place gives: every trace with
/// its line and file, in order, then the same error at the same place — on generated logs of both versions with
/// dropped-trace records, chain changes and torn ends, cut into several files, some with a malformed line, read in
/// batches of every size; and a reader released early stops its thread.
@Suite("Reading ahead on another thread against a plain read", .tags(.concurrent))
struct TraceReadAheadTests {
    /// What a plain read gives: each trace with its line and (for several files) its file, then the error, if any.
    static func plainRead(_ paths: [String]) -> (items: [String], error: FormatError?) {
        var items: [String] = []
        do {
            let reader = try TraceLogReader(paths: paths)
            while let trace = try reader.next() {
                items.append("\(trace.id) \(reader.line) \(reader.files.count > 1 ? reader.file : "-") \(trace)")
            }
            return (items, nil)
        } catch {
            return (items, error)
        }
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func readingAheadGivesWhatAPlainReadGives(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = TestFiles.directory.appendingPathComponent("read-ahead-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var paths: [String] = []
        for index in 0..<Int.random(in: 1...3, using: &random) {
            var (bytes, _) = TraceLogProfilerTests.log(&random)
            if random.chance(0.25) {
                // A malformed line somewhere after the header.
                let newlines = bytes.indices.filter { bytes[$0] == 0x0A }
                let at = newlines[Int.random(in: 0..<newlines.count, using: &random)] + 1
                bytes.insert(contentsOf: Array("{\"not\":\"a trace\"}\n".utf8), at: at)
            }
            let path = directory.appendingPathComponent("part-\(index).jsonl").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let plain = Self.plainRead(paths)
        let ahead = TraceReadAhead(
            try TraceLogReader(paths: paths),
            batchSize: Int.random(in: 1...300, using: &random),
            batchesAhead: Int.random(in: 1...6, using: &random)
        )
        var items: [String] = []
        var error: FormatError?
        do {
            while let item = try ahead.next() {
                items.append("\(item.trace.id) \(item.line) \(item.file ?? "-") \(item.trace)")
            }
        } catch let thrown {
            error = thrown
        }
        #expect(items == plain.items, "seed \(seed)")
        #expect(error == plain.error, "seed \(seed)")
        if error == nil {
            #expect(try ahead.next() == nil, "seed \(seed): the end stays the end")
            let size = try paths.reduce(0) {
                $0 + (try FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int ?? 0)
            }
            #expect(ahead.bytesRead == size, "seed \(seed)")
        }
    }

    @Test func aReaderReleasedEarlyStopsItsThread() throws {
        var random = SeededGenerator(seed: 5)
        let path = TestFiles.directory.appendingPathComponent("early-\(UUID()).jsonl").path
        try Data(TraceLogProfilerTests.log(&random).bytes).write(to: URL(fileURLWithPath: path))
        for _ in 0..<20 {
            let ahead = TraceReadAhead(try TraceLogReader(path: path), batchSize: 4, batchesAhead: 1)
            _ = try ahead.next()
            // Released here while its thread waits for room: deinit must stop and join it, not hang.
        }
    }
}
