import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A trace log whose commands entered the recorded chain at a handler the definition does not have — one a change
/// made while recording added (inserted first, say), which a replay does not make — replays through the
/// definition's chain as it is: those commands go in at its entry, `replay` counts them (a warning on standard
/// error, `commandsWithUnknownEntry` in its JSON) and goes on, where it stopped at the first before. A command
/// stream written by hand that names an entry the chain lacks is still an error.
@Suite("Replaying logs whose commands entered at handlers the definition lacks")
struct ReplayUnknownEntryCommandTests {
    @Test(arguments: SeededGenerator.seeds(6))
    func commandsAtAnUnknownEntryGoInAtTheChainsEntry(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var lines: [[UInt8]] = [TraceLogFormat.header]
        var unknown = 0
        var traces = 0
        var inserted = false
        for index in 0..<Int.random(in: 1...400, using: &random) {
            // The change that added the handler, part way through (as a recording writes it).
            if !inserted, random.chance(0.05) {
                inserted = true
                lines.append(
                    Array(
                        #"{"change":"insert","chain":"editor","handler":"Ghost","detail":"first","timeNs":\#(index),"version":2}"#
                            .utf8
                    )
                )
            }
            let ghost = inserted && random.chance(0.7)
            let entry = ghost ? "Ghost" : random.pick(["Cell", "Toolbar"])
            if ghost { unknown += 1 }
            traces += 1
            let trace = Trace(
                id: UInt64(index),
                commandKind: random.pick(["Edit", "Bold"]),
                commandID: "e\(index)",
                payload: ["row": .integer(Int64(index))],
                entry: entry,
                chain: "editor",
                chainVersion: inserted ? 2 : 1,
                hops: [Hop(handler: entry, position: 0, decision: .accepted, inclusiveDuration: 1, selfDuration: 1)],
                outcome: .accepted(by: entry),
                duration: 1
            )
            lines.append(TraceLogFormat.encode(trace))
        }
        let directory = try CLI.temporaryDirectory()
        let log = try CLI.write(lines.flatMap { $0 + [0x0A] }, named: "ghost.jsonl", in: directory)
        let json = try CLI.run("replay", "Docs/examples/editor.chain.json", log, "--format", "json")
        #expect(json.status == 0, "seed \(seed): \(json.standardError)")
        let report = try JSONDocument(bytes: Array(json.standardOutput.utf8), file: "replay.json").root
        #expect(report["commands"] == .integer(Int64(traces)), "seed \(seed)")
        #expect(report["commandsWithUnknownEntry"] == .integer(Int64(unknown)), "seed \(seed)")
        #expect(
            json.standardError.contains("entered the recorded chain at a handler the definition does not have")
                == (unknown > 0),
            "seed \(seed): \(json.standardError)"
        )
        // Written again by the replay, the log reads back whole, every command now entering where the chain does.
        let out = directory.appendingPathComponent("again.jsonl").path
        let again = try CLI.run("replay", "Docs/examples/editor.chain.json", log, "--trace-out", out)
        #expect(again.status == 0, "seed \(seed): \(again.standardError)")
        let replayed = try TraceLogReader(paths: [out]).readAll().traces
        #expect(replayed.count == traces, "seed \(seed)")
        #expect(!replayed.contains { $0.entry == "Ghost" }, "seed \(seed)")
    }

    @Test func aCommandStreamNamingAnUnknownEntryIsStillAnError() throws {
        let stream = try CLI.write(
            Array(#"{"kind":"Edit","entry":"Ghost","row":1}"#.utf8) + [0x0A],
            named: "ghost-stream.jsonl",
            in: try CLI.temporaryDirectory()
        )
        let result = try CLI.run("replay", "Docs/examples/editor.chain.json", stream)
        #expect(result.status != 0)
        #expect(result.standardError.contains("has no handler named 'Ghost'"), "\(result.standardError)")
    }
}
