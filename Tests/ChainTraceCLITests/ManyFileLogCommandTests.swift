import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A rotated log, through the binary: `stats` and `export` read a directory or several files as one log and count
/// every trace once; `diff` and `render` take a directory as a log; a log that says traces were dropped says so.
@Suite("Logs of many files and dropped traces, through the binary")
struct ManyFileLogCommandTests {
    @Test(arguments: SeededGenerator.seeds(3))
    func aRotatedLogReadsAsOneLog(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory()
        let logDirectory = directory.appendingPathComponent("rotated")
        try FileManager.default.createDirectory(at: logDirectory, withIntermediateDirectories: true)
        var options = TraceLogSink.Options()
        options.rotationBytes = Int.random(in: 2_000...6_000, using: &random)
        options.format = random.chance(0.5) ? .compact : .jsonLines
        let sink = try TraceLogSink(path: logDirectory.appendingPathComponent("traces.jsonl").path, options: options)
        let traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: Int.random(in: 50...200, using: &random))
        for trace in traces { sink.record(trace) }
        try sink.close()
        #expect(sink.files.count > 1, "seed \(seed)")

        for arguments in [[logDirectory.path], sink.files] {
            let stats = try CLI.run(["stats"] + arguments + ["--format", "json"])
            #expect(stats.status == 0, "seed \(seed): \(stats.standardError)")
            let report = try JSONDocument(bytes: Array(stats.standardOutput.utf8), file: "stats.json").root
            #expect(report["commands"] == .integer(Int64(traces.count)), "seed \(seed)")
            #expect(report["files"] == .integer(Int64(sink.files.count)), "seed \(seed)")
            #expect(report["droppedTraces"] == .integer(0), "seed \(seed)")
        }
        let text = try CLI.run("stats", logDirectory.path)
        #expect(
            text.standardOutput.hasPrefix("\(traces.count) traces of editor in \(sink.files.count) files"),
            "seed \(seed): \(text.standardOutput.prefix(200))"
        )
        // The files as a shell's `rotated/*.jsonl` gives them: named in full when a few, else the first two, how many
        // more and the last — never a line of hundreds of names.
        let listed = try CLI.run(["stats"] + sink.files)
        let firstLine = listed.standardOutput.prefix { $0 != "\n" }
        let paths = sink.files
        let names = paths.map { $0.split(separator: "/").last.map(String.init)! }
        func abbreviated(_ items: [String]) -> String {
            items.count <= 4
                ? items.joined(separator: ", ")
                : "\(items[0]), \(items[1]), … (\(items.count - 3) more), \(items[items.count - 1])"
        }
        #expect(
            firstLine == "\(traces.count) traces of editor in \(paths.count) files (\(abbreviated(paths)))",
            "seed \(seed): \(firstLine)"
        )
        let generated = try CLI.run(["gen-tests"] + paths)
        #expect(
            generated.standardOutput.contains("@Suite(\"Recorded session: \(abbreviated(names))\")"),
            "seed \(seed)"
        )
        let folded = try CLI.run(["export", "--to", "folded", "--unit", "nanoseconds"] + sink.files)
        let total = folded.standardOutput.split(separator: "\n").compactMap {
            $0.split(separator: " ").last.flatMap { Int($0) }
        }.reduce(0, +)
        #expect(total == traces.reduce(0) { $0 + $1.hops.reduce(0) { $0 + Int($1.selfDuration) } }, "seed \(seed)")
        let diff = try CLI.run("diff", logDirectory.path, sink.files[0])
        #expect(diff.status == 1 || diff.status == 0, "seed \(seed): \(diff.standardError)")
        let same = try CLI.run("diff", logDirectory.path, logDirectory.path)
        #expect(same.status == 0, "seed \(seed): \(same.standardOutput)")
    }

    @Test func aLogWithDroppedTracesSaysHowMany() throws {
        let directory = try CLI.temporaryDirectory()
        var random = SeededGenerator(seed: 3)
        let traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: 5)
        var bytes = CompactTraceLogFormat.header + [0x0A]
        var encoder = CompactTraceLogEncoder()
        for trace in traces.prefix(2) { encoder.encode(trace, into: &bytes) }
        encoder.encodeDropped(count: 1_234, into: &bytes)
        for trace in traces.dropFirst(2) { encoder.encode(trace, into: &bytes) }
        let log = try CLI.write(bytes, named: "dropped.jsonl", in: directory)
        let text = try CLI.run("stats", log)
        #expect(text.status == 0)
        #expect(text.standardOutput.contains("The writer dropped 1234 traces"), "\(text.standardOutput)")
        let json = try CLI.json(try CLI.run("stats", log, "--format", "json"))
        #expect(json["droppedTraces"] as? Int == 1_234)
        #expect(json["commands"] as? Int == 5)
    }

    @Test func aDirectoryWithoutLogsAndAMissingFileAreErrors() throws {
        let directory = try CLI.temporaryDirectory()
        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let output = try CLI.run("stats", empty.path)
        #expect(output.status == 2)
        #expect(
            output.standardError.contains(
                "expected a directory holding trace log files (*.jsonl, or *.jsonl.gz), found none"
            ),
            "\(output.standardError)"
        )
        let missing = try CLI.run("stats", empty.path + "/../nothing.jsonl")
        #expect(missing.status == 2)
    }
}
