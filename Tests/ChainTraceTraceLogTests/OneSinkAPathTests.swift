import ChainTraceFiles
import ChainTraceJSON
import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// Two sinks opened on one log path, as a factory function called for two chains does, or a reconfiguration that
/// opens the new sink before closing the old: the second is refused with an error that says why, and the first
/// log is untouched and reads back whole. Before, both wrote at once — the second truncated the file, or replaced
/// the first's rotated series under it — and the log read back as `expected a JSON value, found ','` halfway down.
/// Generated: either format, rotating or not, replacing or appending, in the background or not, for each sink.
@Suite("One sink a log path")
struct OneSinkAPathTests {
    static func trace(_ number: Int) -> Trace { RotatedLogSeriesTests.trace(number) }

    static func options(_ random: inout SeededGenerator, rotation: Int?) -> TraceLogSink.Options {
        RotatedLogSeriesTests.options(&random, rotation: rotation)
    }

    @Test("a second sink on a path another has open is refused", arguments: SeededGenerator.seeds(24))
    func theSecondSinkIsRefused(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("one-sink")
        let path = directory.appendingPathComponent("traces.jsonl").path
        // Both sinks of one log rotate, or neither: the path names a series, or a file.
        let rotation = random.pick([nil, 1, 300, 5_000])
        let first = try TraceLogSink(path: path, options: Self.options(&random, rotation: rotation))
        var written: [Int] = []
        for number in 0..<Int.random(in: 1...40, using: &random) {
            first.record(Self.trace(number))
            written.append(number)
        }
        try first.flush()
        let before = try Self.contents(of: directory)

        let appending = random.chance(0.5)
        #expect(throws: FormatError.self, "seed \(seed)") {
            _ = try TraceLogSink(path: path, appending: appending, options: Self.options(&random, rotation: rotation))
        }
        do {
            _ = try TraceLogSink(path: path, appending: appending, options: Self.options(&random, rotation: rotation))
        } catch {
            #expect(error.description.contains("another TraceLogSink"), "seed \(seed): \(error)")
        }
        #expect(try Self.contents(of: directory) == before, "seed \(seed): the refused sink changed the log")

        // The first goes on, and reads back whole; once it is closed, the path is free again.
        for number in written.count..<written.count + 5 {
            first.record(Self.trace(number))
            written.append(number)
        }
        try first.close()
        let log = try TraceLogReader(paths: first.files).readAll()
        #expect(log.traces.map { Int($0.id) } == written, "seed \(seed)")
        #expect(log.tornTail == nil, "seed \(seed)")
        let second = try TraceLogSink(
            path: path,
            appending: appending,
            options: Self.options(&random, rotation: rotation)
        )
        second.record(Self.trace(1_000))
        try second.close()
        let after = try TraceLogReader(
            paths: appending ? first.files + second.files.filter { !first.files.contains($0) } : second.files
        )
        .readAll()
        #expect(after.traces.map { Int($0.id) } == (appending ? written : []) + [1_000], "seed \(seed)")
    }

    /// Every file in `directory` and its bytes.
    static func contents(of directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files[name] = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
        }
        return files
    }
}
