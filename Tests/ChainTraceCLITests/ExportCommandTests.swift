import ChainTrace
import ChainTraceJSON
import ChainTraceTraceLog
import ChainTraceTestSupport
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

    @Test func badLogOrTargetIsAnErrorAndLeavesNoFile() throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("out.json").path
        let bad = try CLI.run("export", CLI.fixture("responders.commands.jsonl"), "--to", "chrome", "-o", file)
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("expected a trace log header"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let target = try CLI.run("export", CLI.fixture("responders.commands.jsonl"), "--to", "jaeger")
        #expect(target.status == 2)
        #expect(target.standardError.contains("'chrome', 'folded' or 'otlp'"), "\(target.standardError)")
    }
}
