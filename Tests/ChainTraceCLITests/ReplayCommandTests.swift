import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

@Suite("chaintrace replay")
struct ReplayCommandTests {
    let definition = CLI.fixture("responders.chain.json")
    let stream = CLI.fixture("responders.commands.jsonl")

    @Test func printsEachCommandsPathAndOutcome() throws {
        let output = try CLI.run("replay", definition, stream)
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Replayed 10 commands through editor with 1 chain change ") == true)
        #expect(
            lines.contains { $0.contains("e2 Tap") && $0.contains("Cell → List") && $0.hasSuffix("accepted by List") }
        )
        #expect(lines.contains { $0.contains("e4 Bold") && $0.hasSuffix("accepted by Toolbar") })
        #expect(lines.contains { $0.contains("e7 Tap") && $0.hasSuffix("failed at Window: window is gone") })
        #expect(lines.contains { $0.contains("e8 Tap") && $0.hasSuffix("fell off the end") })
        // The registration on line 9 takes effect for the command after it.
        #expect(lines.contains { $0.contains("e9 Tap") && $0.hasSuffix("accepted by DanceFloor") })
        #expect(lines.contains { $0.contains("10 commands: 8 accepted, 1 fell off the end, 1 failed") })
        #expect(!output.standardOutput.contains("\u{1B}["), "NO_COLOR is set: no escape codes")
    }

    /// The stream's registration goes into the log `--trace-out` writes, as an app's edits do; `stats` lists it, and
    /// a replay of that log says it does not make it (the log has no rules for the handler registered).
    @Test func theStreamsChangesAreInItsTraceLogAndAReplayOfTheLogSaysItDoesNotMakeThem() throws {
        let log = try CLI.recordedLog(definition, stream)
        let stats = try CLI.run("stats", log)
        #expect(stats.status == 0, "\(stats.standardError)")
        #expect(
            stats.standardOutput.contains("The chain changed once while it was recorded"),
            "\(stats.standardOutput)"
        )
        #expect(stats.standardOutput.contains("register DanceFloor"), "\(stats.standardOutput)")
        let again = try CLI.run("replay", definition, log, "--format", "json")
        #expect(again.status == 0, "\(again.standardError)")
        #expect(
            again.standardError.contains(
                "records 1 chain change made while it was recorded, which the replay does not make"
            ),
            "\(again.standardError)"
        )
        #expect(try CLI.json(again)["recordedChainChanges"] as? Int == 1)
        let plain = try CLI.run("replay", definition, stream, "--format", "json")
        #expect(try CLI.json(plain)["recordedChainChanges"] as? Int == 0)
        #expect(!plain.standardError.contains("does not make"))
    }

    @Test func tableCountsEveryDecisionPerHandler() throws {
        let output = try CLI.run("replay", definition, stream, "--format", "json")
        #expect(output.status == 0)
        let report = try CLI.json(output)
        let handlers = try #require(report["handlers"] as? [[String: Any]])
        func row(_ name: String) -> [String: Any]? { handlers.first { $0["handler"] as? String == name } }
        let cell = try #require(row("Cell"))
        #expect(cell["seen"] as? Int == 8)
        #expect(cell["accepted"] as? Int == 1)
        #expect(cell["passed"] as? Int == 7)
        #expect(row("Analytics")?["continued"] as? Int == 7)
        #expect(row("Window")?["failed"] as? Int == 1)
        #expect(row("DetailScreen")?["registry"] as? String == "Screens")
        #expect(row("Window")?["budgetNs"] as? Int == 1_000_000)
        let outcomes = try #require(report["outcomes"] as? [String: Int])
        #expect(outcomes == ["accepted": 8, "fellOffTheEnd": 1, "failed": 1])
        let paths = try #require(report["paths"] as? [[String: Any]])
        #expect(paths.count == 10)
        #expect(
            paths.last?["path"] as? [String] == [
                "List", "Analytics", "Screens", "DanceFloor", "DetailScreen", "Search",
            ]
        )
        for handler in handlers where (handler["seen"] as? Int ?? 0) > 0 {
            let p50 = handler["selfP50Ns"] as? Int ?? -1
            let p99 = handler["selfP99Ns"] as? Int ?? -1
            #expect(p50 >= 0 && p50 <= p99, "percentiles of \(handler["handler"] ?? "?") are ordered")
        }
    }

    @Test func workDefinedInTheChainIsMeasuredAndFlaggedSlow() throws {
        let output = try CLI.run(
            "replay",
            "Samples/VendingMachine/vending-machine.chain.json",
            "Samples/VendingMachine/coins.jsonl",
            "--format",
            "json"
        )
        let handlers = try #require(try CLI.json(output)["handlers"] as? [[String: Any]])
        let quarter = try #require(handlers.first { $0["handler"] as? String == "QuarterValidator" })
        #expect((quarter["selfP50Ns"] as? Int ?? 0) >= 190_000, "200us of simulated work is real time")
        #expect(quarter["slow"] as? Bool == true)
        #expect((quarter["slowBecause"] as? [String])?.contains { $0.contains("budget 50µs") } == true)
    }

    @Test func slowRuleFromTheCommandLineIsUsedAndStated() throws {
        let output = try CLI.run(
            "replay",
            "Samples/VendingMachine/vending-machine.chain.json",
            "Samples/VendingMachine/coins.jsonl",
            "--slow",
            "p50>100us",
            "--paths",
            "0"
        )
        #expect(output.standardOutput.contains("slow when p50 self time > 100µs, or over its budget"))
        #expect(output.standardOutput.contains("QuarterValidator: p50"))
    }

    @Test func traceOutWritesALogThatReadsBackAndReplaysWithoutDivergence() throws {
        let directory = try CLI.temporaryDirectory()
        let log = directory.appendingPathComponent("run.jsonl").path
        let first = try CLI.run("replay", definition, stream, "--trace-out", log)
        #expect(first.status == 0)
        let traces = try TraceLogReader.readAll(path: log).traces
        #expect(traces.count == 10)
        #expect(traces[0].payload?["row"] == 3, "payloads are captured so the log can be replayed")
        let again = try CLI.run("replay", definition, stream, "--expect", log)
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("No divergences: all 10 commands took the same path."))
    }

    @Test func recordedLogIsAlsoAStreamWhoseCommandsReplayAlongTheSamePaths() throws {
        let vendingMachine = "Samples/VendingMachine/vending-machine.chain.json"
        let log = try CLI.recordedLog(vendingMachine, "Samples/VendingMachine/coins.jsonl")
        let output = try CLI.run("replay", vendingMachine, log, "--expect", log, "--paths", "3")
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("No divergences: all 10 commands took the same path."))
        #expect(output.standardOutput.contains("c02"))
    }

    @Test func expectReportsEachKindOfDivergenceAndExitsOne() throws {
        let log = try CLI.recordedLog(definition, stream, named: "recorded.jsonl")
        let output = try CLI.run(
            "replay",
            CLI.fixture("responders-changed.chain.json"),
            stream,
            "--expect",
            log,
            "--format",
            "json"
        )
        #expect(output.status == 1)
        let comparison = try #require(try CLI.json(output)["comparison"] as? [String: Any])
        #expect(
            comparison["counts"] as? [String: Int] == ["newlyUnhandled": 1, "differentHandler": 1, "newlyFailing": 1]
        )
        let divergences = try #require(comparison["divergences"] as? [[String: Any]])
        let different = try #require(divergences.first { $0["kind"] as? String == "differentHandler" })
        #expect(different["command"] as? String == "e5")
        // The line of e5's trace in the recorded log, whatever else the log holds (a header, names).
        let logLines = try String(contentsOfFile: log, encoding: .utf8).split(
            separator: "\n",
            omittingEmptySubsequences: false
        )
        let e5Line = try #require(logLines.firstIndex { $0.contains(#""id":"e5""#) }) + 1
        #expect((different["expected"] as? [String: Any])?["line"] as? Int == e5Line)
        #expect(((different["actual"] as? [String: Any])?["outcome"] as? [String: String])?["handler"] == "List")
        let text = try CLI.run(
            "replay",
            CLI.fixture("responders-changed.chain.json"),
            stream,
            "--expect",
            log,
            "--paths",
            "0"
        )
        #expect(text.status == 1)
        #expect(text.standardOutput.contains("3 divergences in 10 commands compared"))
        #expect(text.standardOutput.contains("newlyFailing  e6 (Tap)"))
    }

    @Test func malformedLineStopsTheRunWithItsPositionAndLeavesNoOutputFile() throws {
        let directory = try CLI.temporaryDirectory()
        let log = directory.appendingPathComponent("partial.jsonl").path
        let output = try CLI.run("replay", definition, CLI.fixture("bad-lines.commands.jsonl"), "--trace-out", log)
        #expect(output.status == 2)
        #expect(
            output.standardError
                == "chaintrace: \(CLI.fixture("bad-lines.commands.jsonl")):3:35: expected a JSON value, found '}'\n"
        )
        #expect(!FileManager.default.fileExists(atPath: log))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty,
            "no temporary file left behind"
        )
    }

    @Test func skipInvalidReportsAndCountsEachBadLine() throws {
        let output = try CLI.run(
            "replay",
            definition,
            CLI.fixture("bad-lines.commands.jsonl"),
            "--skip-invalid",
            "--format",
            "json"
        )
        #expect(output.status == 1)
        let report = try CLI.json(output)
        #expect(report["commands"] as? Int == 4)
        #expect(report["invalidLineCount"] as? Int == 2)
        let lines = try #require(report["invalidLines"] as? [String])
        #expect(lines.first?.hasSuffix("bad-lines.commands.jsonl:3:35: expected a JSON value, found '}'") == true)
        #expect(
            lines.last?.hasSuffix("bad-lines.commands.jsonl:5:1: expected a command object, found an array") == true
        )
    }

    @Test func unknownEntryInAStreamIsAnErrorWithItsLineAndColumn() throws {
        let directory = try CLI.temporaryDirectory()
        let stream = directory.appendingPathComponent("entry.jsonl")
        try Data("{\"kind\":\"Tap\"}\n{\"kind\":\"Tap\",\"entry\":\"Celll\"}\n".utf8).write(to: stream)
        let output = try CLI.run("replay", definition, stream.path)
        #expect(output.status == 2)
        #expect(output.standardError.contains("entry.jsonl:2:23: expected a command the chain can take, found"))
        #expect(output.standardError.contains("Celll"))
    }

    @Test func badChainChangeNamesItsLineAndColumn() throws {
        let directory = try CLI.temporaryDirectory()
        let stream = directory.appendingPathComponent("change.jsonl")
        try Data(
            "{\"kind\":\"Tap\"}\n{\"change\":\"deregister\",\"registry\":\"Screens\",\"handler\":\"Ghost\"}\n".utf8
        ).write(to: stream)
        let output = try CLI.run("replay", definition, stream.path)
        #expect(output.status == 2)
        #expect(
            output.standardError.contains(
                "change.jsonl:2:55: expected a change the chain can make, found registry \"Screens\" has no member \"Ghost\""
            )
        )
    }
}
