import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A rotating sink's numbered files, run after run, as an app writes them across restarts: whatever the runs did —
/// replaced the log or appended to it, rotated at any size, in either format — and whatever was compressed between
/// them, the series reads back as exactly the traces written since the log was last replaced, in the order they
/// were written, and a file only named like one of the series is left alone. Before, a run that replaced a longer
/// log left that log's later files behind (read after the new run's), and a run appending after compressed files
/// started again at `-0001`.
@Suite("Rotated log series across runs")
struct RotatedLogSeriesTests {
    static func trace(_ number: Int) -> Trace {
        Trace(
            id: UInt64(number),
            commandKind: "K",
            commandID: "c\(number)",
            entry: "A",
            chain: "c",
            hops: [Hop(handler: "A", position: 0, decision: .accepted, inclusiveDuration: 3, selfDuration: 3)],
            outcome: .accepted(by: "A"),
            duration: 3
        )
    }

    /// A sink's options as a test picks them: either format, in the background or not, rotating at `rotation`.
    static func options(_ random: inout SeededGenerator, rotation: Int?) -> TraceLogSink.Options {
        var options = TraceLogSink.Options()
        options.format = random.pick([.compact, .jsonLines])
        options.writesInBackground = random.chance(0.5)
        options.rotationBytes = rotation
        return options
    }

    @Test(arguments: SeededGenerator.seeds(16))
    func theDirectoryHoldsTheTracesSinceTheLastReplacement(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("series")
        let stem = random.pick(["traces", "app.v2", "t"])
        let path = directory.appendingPathComponent(stem + ".jsonl").path
        // A file named like one of the series but not in it (a year's archive, say): never removed, continued or
        // changed; the series is read by a pattern that leaves it out.
        let lookalike = directory.appendingPathComponent("\(stem)-2024.jsonl").path
        let archive = Array("an archive of 2024, not this log\n".utf8)
        try Data(archive).write(to: URL(fileURLWithPath: lookalike))
        var expected: [Int] = []
        var written = 0
        for run in 0..<Int.random(in: 2...6, using: &random) {
            let appending = run > 0 && random.chance(0.6)
            if !appending { expected = [] }
            let rotation = random.pick([1, 200, 1_000, 100_000])
            let options = Self.options(&random, rotation: rotation)
            let sink = try TraceLogSink(path: path, appending: appending, options: options)
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                sink.record(Self.trace(written))
                expected.append(written)
                written += 1
            }
            try sink.close()
            // Finished files compressed, as the sink's documentation suggests: some of them, the last one too.
            for file in sink.files where random.chance(0.4) { _ = try TestFiles.gzip(path: file) }
            let log = try TraceLogReader(path: directory.appendingPathComponent("\(stem)-0*").path).readAll()
            #expect(log.traces.map { Int($0.id) } == expected, "seed \(seed), run \(run) (appending: \(appending))")
            #expect(log.tornTail == nil, "seed \(seed), run \(run)")
            #expect(
                FileManager.default.contents(atPath: lookalike).map(Array.init) == archive,
                "seed \(seed), run \(run)"
            )
        }
    }

    /// A log that cannot be started — its first file cannot be made (here a directory holds its name) — leaves the
    /// log it was to replace whole: the old files are removed only once the new one's first file is open.
    @Test(arguments: SeededGenerator.seeds(4))
    func aReplacementThatCannotStartLeavesTheOldLogWhole(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("cannot-start")
        let path = directory.appendingPathComponent("traces.jsonl").path
        var options = TraceLogSink.Options()
        options.rotationBytes = 1
        options.format = random.pick([.compact, .jsonLines])
        let old = try TraceLogSink(path: path, options: options)
        let count = Int.random(in: 2...6, using: &random)
        for number in 0..<count { old.record(Self.trace(number)) }
        try old.close()
        let first = try #require(old.files.first)
        try FileManager.default.removeItem(atPath: first)
        try FileManager.default.createDirectory(atPath: first, withIntermediateDirectories: false)
        let before = try old.files.dropFirst().map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(throws: FormatError.self, "seed \(seed)") { _ = try TraceLogSink(path: path, options: options) }
        let after = try old.files.dropFirst().map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(after == before, "seed \(seed): the old log's files are as they were")
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func aLogPastFileNineThousandNineHundredNinetyNineReadsInOrder(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("past-9999")
        let path = directory.appendingPathComponent("traces.jsonl").path
        // A long-running log's files so far, its oldest removed (the disk kept from filling), the last numbered
        // just below 10 000.
        let start = Int.random(in: 9_990...9_998, using: &random)
        var written = 0
        for number in (start - 2)...start {
            let file = directory.appendingPathComponent("traces-\(number).jsonl").path
            let sink = try TraceLogSink(path: file)
            sink.record(Self.trace(written))
            written += 1
            try sink.close()
        }
        // Appended to, a trace a file: on past 9 999, to five-digit numbers.
        var options = TraceLogSink.Options()
        options.rotationBytes = 1
        let sink = try TraceLogSink(path: path, appending: true, options: options)
        for _ in 0..<(10_000 - start + Int.random(in: 2...6, using: &random)) {
            sink.record(Self.trace(written))
            written += 1
        }
        try sink.close()
        #expect(sink.files.first == directory.appendingPathComponent("traces-\(start).jsonl").path, "seed \(seed)")
        #expect(sink.files.contains { $0.hasSuffix("traces-10000.jsonl") }, "seed \(seed)")
        let log = try TraceLogReader(path: directory.path).readAll()
        #expect(log.traces.map { Int($0.id) } == Array(0..<written), "seed \(seed)")
        let pattern = try TraceLogReader(path: directory.path + "/traces-*.jsonl").readAll()
        #expect(pattern.traces.map { Int($0.id) } == Array(0..<written), "seed \(seed): a quoted pattern")
    }
}
