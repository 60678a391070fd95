import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

@Suite("chaintrace export")
struct ExportCommandTests {
    @Test func chromeExportIsJSONPerfettoReads() throws {
        let log = try CLI.recordedLog(CLI.fixture("responders.chain.json"), CLI.fixture("responders.commands.jsonl"))
        let output = try CLI.run("export", log, "--to", "chrome")
        #expect(output.status == 0)
        let document = try JSONParser.parse(output.standardOutput)
        guard case .array(let events)? = document["traceEvents"] else {
            Issue.record("no traceEvents")
            return
        }
        #expect(events.filter { $0["ph"] == "X" && $0["cat"] == "command" }.count == 10)
        #expect(events.contains { $0["ph"] == "i" && $0["name"] == "failed at Window: window is gone" })
    }

    @Test func foldedExportWritesAFileWholeAndSumsStacks() throws {
        let log = try CLI.recordedLog(CLI.fixture("responders.chain.json"), CLI.fixture("responders.commands.jsonl"))
        let file = try CLI.temporaryDirectory().appendingPathComponent("stacks.folded").path
        let output = try CLI.run("export", log, "--to", "folded", "--unit", "nanoseconds", "-o", file)
        #expect(output.status == 0)
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("editor;Screens;DetailScreen ") })
        let total = lines.reduce(UInt64(0)) { $0 + UInt64($1.split(separator: " ").last!)! }
        let traces = try TraceLogReader.readAll(path: log).traces
        #expect(total == traces.reduce(0) { sum, trace in sum + trace.hops.reduce(0) { $0 + $1.selfDuration } })
    }

    /// `--to jsonl`: a row per hop, a command without hops one row of nulls, every member in every row, numbered
    /// per file — what query engines read (Docs/AtScale.md).
    @Test(arguments: SeededGenerator.seeds(5))
    func hopRowsHoldEveryHopAndEveryMember(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory()
        var traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: Int.random(in: 1...50, using: &random))
        traces.append(
            Trace(
                id: 999,
                commandKind: "Empty",
                entry: "Cell",
                chain: "editor",
                hops: [],
                outcome: .fellOffTheEnd,
                duration: 1
            )
        )
        let first = try CLI.write(LogCommandsAgreeWithLibraryTests.bytes(traces), named: "a.jsonl", in: directory)
        let second = try CLI.write(
            LogCommandsAgreeWithLibraryTests.bytes(Array(traces.prefix(3))),
            named: "b.jsonl",
            in: directory
        )
        let run = try CLI.run("export", "--to", "jsonl", first, second)
        #expect(run.status == 0, "seed \(seed): \(run.standardError)")
        let rows = try run.standardOutput.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed) as? [String: Any] ?? [:]
        }
        let expected = (traces + traces.prefix(3)).reduce(0) { $0 + max(1, $1.hops.count) }
        #expect(rows.count == expected, "seed \(seed)")
        let members = Set(rows.first?.keys.map { $0 } ?? [])
        #expect(members.count == 19 && rows.allSatisfy { Set($0.keys) == members }, "seed \(seed): \(members.sorted())")
        let fromFirst = rows.filter { $0["file"] as? String == first }
        for (number, trace) in traces.enumerated() {
            let mine = fromFirst.filter { $0["trace"] as? Int == number + 1 }
            if trace.hops.isEmpty {
                #expect(mine.count == 1 && mine[0]["handler"] is NSNull && mine[0]["selfNs"] is NSNull, "seed \(seed)")
            } else {
                #expect(mine.map { $0["handler"] as? String ?? "" } == trace.path, "seed \(seed)")
                #expect(
                    mine.map { UInt64($0["selfNs"] as? Int ?? -1) } == trace.hops.map(\.selfDuration),
                    "seed \(seed)"
                )
                // Each hop's parent as the other exports nest it: recorded, else inferred from the times.
                #expect(mine.map { $0["parent"] as? Int } == HopNesting.enclosing(trace.hops), "seed \(seed)")
            }
        }
        #expect(
            rows.filter { $0["file"] as? String == second }.compactMap { $0["trace"] as? Int }.max() == 3,
            "seed \(seed): numbered per file"
        )
    }

    @Test func badLogOrTargetIsAnErrorAndLeavesNoFile() throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("out.json").path
        let bad = try CLI.run("export", CLI.fixture("responders.commands.jsonl"), "--to", "chrome", "-o", file)
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("expected a trace log header"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let target = try CLI.run("export", CLI.fixture("responders.commands.jsonl"), "--to", "jaeger")
        #expect(target.status == 2)
        #expect(target.standardError.contains("'chrome', 'folded', 'otlp' or 'jsonl'"), "\(target.standardError)")
    }
}
