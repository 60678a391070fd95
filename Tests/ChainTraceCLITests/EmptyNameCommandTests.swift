import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A handler with the empty name (`traceHop` accepts one) and a chain with none, in a log read by the built binary:
/// every table, path, outcome and diagram names them — "(empty name)", "(unnamed chain)" — rather than leaving a
/// gap ("accepted by ", "A → B → ", "Profile of "), and the diagrams draw.
@Suite("Empty names in the CLI's output")
struct EmptyNameCommandTests {
    static func log(in directory: URL, slow: UInt64) throws -> String {
        let path = directory.appendingPathComponent("empty-\(slow).jsonl").path
        let sink = try TraceLogSink(path: path)
        for id in 0..<8 {
            let hops = [
                Hop(
                    handler: "A",
                    position: 0,
                    decision: .passed,
                    startOffset: 0,
                    inclusiveDuration: 100,
                    selfDuration: 100
                ),
                Hop(
                    handler: "",
                    position: 1,
                    decision: id == 0 ? .accepted : .passed,
                    startOffset: 100,
                    inclusiveDuration: slow,
                    selfDuration: slow
                ),
            ]
            sink.record(
                Trace(
                    id: UInt64(id),
                    commandKind: "K",
                    commandID: "c\(id)",
                    entry: "A",
                    chain: "",
                    hops: hops,
                    outcome: id == 0 ? .accepted(by: "") : .fellOffTheEnd,
                    duration: 100 + slow
                )
            )
        }
        try sink.close()
        return path
    }

    @Test func tablesPathsOutcomesAndDiagramsNameThem() throws {
        let directory = try CLI.temporaryDirectory()
        let (before, after) = (try Self.log(in: directory, slow: 5_000_000), try Self.log(in: directory, slow: 50))
        let stats = try CLI.run("stats", before)
        #expect(stats.status == 0, "\(stats.standardError)")
        #expect(stats.standardOutput.contains("8 traces of (unnamed chain)"), "\(stats.standardOutput)")
        #expect(stats.standardOutput.contains("  (empty name) "), "\(stats.standardOutput)")
        #expect(stats.standardOutput.contains("    (empty name): p95"), "\(stats.standardOutput)")
        let replay = try CLI.run("diff", before, after)
        #expect(replay.standardOutput.contains("(empty name)"), "\(replay.standardOutput)")
        for arguments in [
            ["render", "--trace", before], ["render", "--trace", before, "--command", "c0"],
            ["render", "--trace", before, "--diff", after],
        ] {
            let output = directory.appendingPathComponent("d\(arguments.count).svg").path
            let drawn = try CLI.run(arguments + ["-o", output])
            #expect(drawn.status == 0, "\(arguments): \(drawn.standardError)")
            #expect(try String(contentsOfFile: output, encoding: .utf8).contains("(empty name)"), "\(arguments)")
        }
        let report = try CLI.run("report", before, "-o", directory.appendingPathComponent("r.html").path)
        #expect(report.status == 0, "\(report.standardError)")
        #expect(Outcome.accepted(by: "").description == "accepted by (empty name)")
    }
}
