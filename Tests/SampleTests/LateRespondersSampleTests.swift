import ChainTrace
import ChainTraceTestSupport
import ChainTraceTesting
import ChainTraceTraceLog
import Foundation
import Testing

@Suite("The LateResponders sample, run as a user runs it")
struct LateRespondersSampleTests {
    let sample = BuiltProduct(name: "LateResponders")
    static let stream = "Samples/LateResponders/late-responders.commands.jsonl"

    func run(in directory: URL) throws -> (lines: [String], traces: [String: Trace], log: String) {
        let log = directory.appendingPathComponent("traces.jsonl").path
        let output = try sample.run([
            Self.stream, "--trace-out", log, "--diagram", directory.appendingPathComponent("profile.svg").path,
        ])
        #expect(output.status == 0, "stderr: \(output.standardError)")
        let traces = try TraceLogReader.readAll(path: log).traces
        return (
            output.standardOutput.split(separator: "\n").map(String.init),
            Dictionary(uniqueKeysWithValues: traces.map { ($0.commandID ?? "?", $0) }), log
        )
    }

    func temporaryDirectory() throws -> URL {
        let directory = TestFiles.directory.appendingPathComponent("late-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func theFrontmostScreenIsAskedFirstAndLeavesWhenItDisappears() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (lines, traces, _) = try run(in: directory)
        // With the share sheet on top (weight 100), it takes "share" before the detail screen can.
        let sheet = try #require(traces["a05"])
        expectHandled(sheet, by: "ShareSheet")
        expectPath(sheet, ["Toolbar", "Screens", "ShareSheet"])
        #expect(sheet.hop("ShareSheet")?.registry == "Screens")
        // Once it has disappeared, the detail screen takes "share" again and the sheet is never asked.
        let afterSheet = try #require(traces["a07"])
        expectHandled(afterSheet, by: "DetailScreen")
        expectNotVisited(afterSheet, "ShareSheet")
        // With the detail screen gone too, nobody shares.
        let alone = try #require(traces["a09"])
        expectUnhandled(alone)
        expectNotVisited(alone, "DetailScreen")
        #expect(
            lines.contains(
                "ShareSheet appears (weight 100): Screens asks ShareSheet (100) → DetailScreen (10) → HomeScreen (0)"
            )
        )
        #expect(alone.chainVersion > afterSheet.chainVersion)
    }

    @Test func theProxyForwardsOnlyThePlayersActions() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (lines, traces, _) = try run(in: directory)
        expectHandled(try #require(traces["a04"]), by: "PlayerProxy")
        expectHandled(try #require(traces["a10"]), by: "PlayerProxy")
        let rate = try #require(traces["a08"])
        expectDecision(rate, "PlayerProxy", .passed)
        #expect(rate.hop("PlayerProxy")?.reason == "not a player action")
        expectUnhandled(rate)
        #expect(lines.contains("player performed: play, pause"))
    }

    @Test func theRulesDefinitionReplaysTheSameStreamWithoutDivergence() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, _, log) = try run(in: directory)
        let replay = try BuiltProduct(name: "chaintrace").run([
            "replay", "Samples/LateResponders/late-responders.chain.json", Self.stream, "--expect", log,
        ])
        #expect(replay.status == 0, "\(replay.standardOutput)\(replay.standardError)")
        #expect(replay.standardOutput.contains("No divergences: all 11 commands took the same path."))
    }
}
