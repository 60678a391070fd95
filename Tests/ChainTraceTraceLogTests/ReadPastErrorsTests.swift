import ChainTrace
import ChainTraceFiles
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A trace log of several files read by a caller that goes on past each error (as `replay --skip-invalid` does),
/// on generated files: logs (plain or gzipped), logs with bad lines among their traces, logs with a torn last line,
/// gzipped logs cut short, files with no header (command lines, garbage) and empty files. Reading always ends — within one call per line and per file —
/// every trace of every log is read, in order (of a cut gzip file, the ones before the cut), and every file that is
/// not a whole log is reported at least once: as an error, or, an empty file among several, as its torn tail (its
/// writer stopped before its header).
@Suite("Reading several files past their errors")
struct ReadPastErrorsTests {
    enum Kind: CaseIterable {
        case log, logWithBadLines, tornLog, commandLines, garbage, empty, gzippedLog, cutGzippedLog
    }

    /// `bytes` compressed by the system's gzip.
    static func gzip(_ bytes: [UInt8], in directory: URL) throws -> [UInt8] {
        let plain = directory.appendingPathComponent("plain-\(UUID())")
        try Data(bytes).write(to: plain)
        let compressed = URL(fileURLWithPath: try TestFiles.gzip(path: plain.path))
        defer { try? FileManager.default.removeItem(at: compressed) }
        return Array(try Data(contentsOf: compressed))
    }

    /// A file of `kind`: its bytes, the traces a reader must give from it, and its lines.
    static func file(_ kind: Kind, first id: UInt64, _ random: inout SeededGenerator) -> (
        bytes: [UInt8], traces: [Trace], lines: Int
    ) {
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
                let trace = LogFilePropertyTests.trace(
                    id: id + UInt64(index),
                    thread: 0,
                    reasonLength: Int.random(in: 0...8, using: &random)
                )
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
        case .gzippedLog, .cutGzippedLog:
            // Made by the caller, from a plain log.
            return Self.file(.log, first: id, &random)
        }
    }

    @Test(arguments: SeededGenerator.seeds(40))
    func readingOnPastErrorsEndsAndKeepsEveryTrace(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TestFiles.newDirectory("past-errors-\(seed)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        // Each file's traces (ids of a range of their own), and whether reading may stop short of them (cut).
        var expected: [(traces: [Trace], cut: Bool)] = []
        var lines = 0
        var notLogs: [String] = []
        var empty: [String] = []
        for index in 0..<Int.random(in: 1...6, using: &random) {
            let kind = random.pick(Kind.allCases)
            var (bytes, traces, count) = Self.file(kind, first: UInt64(index * 10_000), &random)
            if kind == .gzippedLog || kind == .cutGzippedLog { bytes = try Self.gzip(bytes, in: directory) }
            if kind == .cutGzippedLog { bytes = Array(bytes.prefix(Int.random(in: 1..<bytes.count, using: &random))) }
            let path = directory.appendingPathComponent("part-\(index).jsonl").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            paths.append(path)
            expected.append((traces, kind == .cutGzippedLog))
            lines += count
            if kind == .commandLines || kind == .garbage || kind == .cutGzippedLog { notLogs.append(path) }
            if kind == .empty { empty.append(path) }
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
        #expect(
            calls < bound,
            "seed \(seed): still reading after \(calls) calls for \(lines) lines in \(paths.count) files"
        )
        // In file order; all of each file's traces, or (cut short) the ones before the cut.
        #expect(read.map(\.id) == read.map(\.id).sorted(), "seed \(seed): out of order")
        for (index, file) in expected.enumerated() {
            let fromFile = read.filter { $0.id / 10_000 == UInt64(index) }
            if file.cut {
                #expect(Array(file.traces.prefix(fromFile.count)) == fromFile, "seed \(seed): file \(index), cut")
            } else {
                #expect(
                    fromFile == file.traces,
                    "seed \(seed): file \(index), \(fromFile.count) of \(file.traces.count) traces"
                )
            }
        }
        for path in notLogs {
            #expect(errors.contains { $0.file == path }, "seed \(seed): \(path) is no log, and was not reported")
        }
        for path in empty {
            if paths.count > 1 {
                #expect(
                    reader.tornTails.contains { $0.file == path && $0.byteCount == 0 },
                    "seed \(seed): \(path) is empty, and was not reported"
                )
            } else {
                #expect(
                    errors.contains { $0.file == path },
                    "seed \(seed): \(path) is empty, alone, and was not reported"
                )
            }
        }
    }
}
