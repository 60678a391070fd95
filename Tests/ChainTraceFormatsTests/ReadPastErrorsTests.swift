import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A trace log of several files read by a caller that goes on past each error (as `replay --skip-invalid` does),
/// on generated files: logs, logs with bad lines among their traces, logs with a torn last line, files with no
/// header (command lines, garbage) and empty files. Reading always ends — within one call per line and per file —
/// every trace of every log is read, in order, and every file that is not a log is reported at least once.
@Suite("Reading several files past their errors")
struct ReadPastErrorsTests {
    enum Kind: CaseIterable {
        case log, logWithBadLines, tornLog, commandLines, garbage, empty
    }

    /// A file of `kind`: its bytes, the traces a reader must give from it, and its lines.
    static func file(_ kind: Kind, first id: UInt64, _ random: inout SeededGenerator) -> (bytes: [UInt8], traces: [Trace], lines: Int) {
        let newline: [UInt8] = [0x0A]
        switch kind {
        case .log, .logWithBadLines, .tornLog:
            var bytes = TraceLogFormat.header + newline
            var traces: [Trace] = []
            var lines = 1
            for index in 0..<Int.random(in: 0...20, using: &random) {
                if kind == .logWithBadLines, random.chance(0.3) {
                    bytes += Array(random.pick(["{\"id\":", "not json", "[1,2]", "{}"]).utf8) + newline
                    lines += 1
                }
                let trace = LogFilePropertyTests.trace(id: id + UInt64(index), thread: 0, reasonLength: Int.random(in: 0...8, using: &random))
                traces.append(trace)
                bytes += TraceLogFormat.encode(trace) + newline
                lines += 1
            }
            if kind == .tornLog {
                let trace = LogFilePropertyTests.trace(id: id + 1_000, thread: 0, reasonLength: 3)
                let line = TraceLogFormat.encode(trace)
                bytes += line.prefix(Int.random(in: 1..<line.count, using: &random))
                lines += 1
            }
            return (bytes, traces, lines)
        case .commandLines:
            let count = Int.random(in: 1...10, using: &random)
            let text = (0..<count).map { "{\"kind\":\"Coin\",\"id\":\"c\($0)\"}" }.joined(separator: "\n") + "\n"
            return (Array(text.utf8), [], count)
        case .garbage:
            let count = Int.random(in: 1...5, using: &random)
            return (Array(String(repeating: "}{ not a log\n", count: count).utf8), [], count)
        case .empty:
            return ([], [], 0)
        }
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func readingOnPastErrorsEndsAndKeepsEveryTrace(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = TestFiles.directory.appendingPathComponent("past-errors-\(seed)-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        var expected: [Trace] = []
        var lines = 0
        var notLogs: [String] = []
        for index in 0..<Int.random(in: 1...6, using: &random) {
            let kind = random.pick(Kind.allCases)
            let (bytes, traces, count) = Self.file(kind, first: UInt64(expected.count), &random)
            let path = directory.appendingPathComponent("part-\(index).jsonl").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            paths.append(path)
            expected += traces
            lines += count
            if kind == .commandLines || kind == .garbage || kind == .empty { notLogs.append(path) }
        }
        let reader = try TraceLogReader(paths: paths)
        var read: [Trace] = []
        var errors: [FormatError] = []
        var calls = 0
        let bound = lines + paths.count + 2
        reading: while calls < bound {
            calls += 1
            do {
                guard let trace = try reader.next() else { break reading }
                read.append(trace)
            } catch {
                errors.append(error)
            }
        }
        #expect(calls < bound, "seed \(seed): still reading after \(calls) calls for \(lines) lines in \(paths.count) files")
        #expect(read == expected, "seed \(seed): \(read.count) of \(expected.count) traces")
        for path in notLogs {
            #expect(errors.contains { $0.file == path }, "seed \(seed): \(path) is no log, and was not reported")
        }
    }
}
