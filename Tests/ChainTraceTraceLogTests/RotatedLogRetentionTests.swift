import ChainTrace
import ChainTraceFiles
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A rotating log that keeps its newest files (`maximumFiles`), generated: any rotation size, either format, in the
/// background or not, replacing or appending to an earlier run's series (itself kept to a maximum or not), some of
/// its files compressed. The directory never holds more files of the series than the maximum; the sink lists exactly
/// those that are there; they read back, with no torn line, as the newest traces written — a run of them ending with
/// the last; and a file only named like one of the series is left alone. Before, a rotating log only grew.
@Suite("Rotated logs keep their newest files")
struct RotatedLogRetentionTests {
    static func trace(_ number: Int) -> Trace {
        Trace(
            id: UInt64(number),
            commandKind: "K",
            commandID: "c\(number)",
            entry: "A",
            chain: "c",
            hops: [
                Hop(handler: "A\(number % 7)", position: 0, decision: .accepted, inclusiveDuration: 3, selfDuration: 3)
            ],
            outcome: .accepted(by: "A\(number % 7)"),
            duration: 3
        )
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func theNewestFilesAreKept(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("retention")
        let path = directory.appendingPathComponent("traces.jsonl").path
        let lookalike = directory.appendingPathComponent("traces-2024.jsonl").path
        try Data("not this log\n".utf8).write(to: URL(fileURLWithPath: lookalike))
        var written: [Int] = []
        var next = 0
        for run in 0..<Int.random(in: 1...3, using: &random) {
            let rotation = random.pick([1, 150, 600])
            var options = RotatedLogSeriesTests.options(&random, rotation: rotation)
            let maximum = random.pick([1, 2, 3, 5])
            options.maximumFiles = maximum
            let appending = run > 0 && random.chance(0.6)
            if !appending { written = [] }
            let sink = try TraceLogSink(path: path, appending: appending, options: options)
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                sink.record(Self.trace(next))
                written.append(next)
                next += 1
            }
            try sink.close()
            let context = "seed \(seed), run \(run) (appending: \(appending), at most \(maximum))"
            let onDisk = try TraceLogReader.files(at: directory.appendingPathComponent("traces-0*").path)
            #expect(onDisk.count <= maximum, "\(context): \(onDisk)")
            #expect(sink.files.allSatisfy { onDisk.contains($0) }, "\(context): \(sink.files) of \(onDisk)")
            let log = try TraceLogReader(paths: onDisk).readAll()
            let read = log.traces.map { Int($0.id) }
            #expect(log.tornTail == nil, "\(context)")
            #expect(written.isEmpty || read.last == written.last, "\(context): \(read) of \(written)")
            #expect(read == Array(written.suffix(read.count)), "\(context): \(read) of \(written)")
            // Finished files compressed between runs, as the documentation suggests: counted among the kept.
            for file in sink.files.dropLast() where random.chance(0.3) { _ = try TestFiles.gzip(path: file) }
            #expect(FileManager.default.contents(atPath: lookalike) == Data("not this log\n".utf8), "\(context)")
        }
    }
}
