import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A trace log recorded partly or wholly without payloads, replayed as a stream: `replay` says how many commands
/// lack one — a warning on standard error, a count in its JSON — and says nothing when every command has one.
@Suite("Replaying logs recorded without payloads")
struct ReplayWithoutPayloadsCommandTests {
    @Test(arguments: SeededGenerator.seeds(5))
    func commandsWithoutPayloadsAreCounted(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = (0..<Int.random(in: 1...15, using: &random)).map { index in
            Trace(
                id: UInt64(index),
                commandKind: "Edit",
                commandID: "e\(index)",
                payload: random.chance(0.5) ? ["row": .integer(Int64(index))] : nil,
                entry: "Cell",
                chain: "editor",
                hops: [Hop(handler: "Cell", position: 0, decision: .accepted, inclusiveDuration: 1, selfDuration: 1)],
                outcome: .accepted(by: "Cell"),
                duration: 1
            )
        }
        let missing = traces.filter { $0.payload == nil }.count
        let log = try CLI.write(
            TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] },
            named: "partial.jsonl",
            in: try CLI.temporaryDirectory()
        )
        let json = try CLI.run("replay", "Docs/examples/editor.chain.json", log, "--format", "json")
        let report = try JSONDocument(bytes: Array(json.standardOutput.utf8), file: "replay.json").root
        #expect(report["commandsWithoutPayload"] == .integer(Int64(missing)), "seed \(seed)")
        #expect(
            json.standardError.contains("\(missing) of \(traces.count) command\(traces.count == 1 ? "" : "s") in")
                == (missing > 0),
            "seed \(seed): \(json.standardError)"
        )
        let text = try CLI.run("replay", "Docs/examples/editor.chain.json", log)
        #expect(
            text.standardError.contains(missing == 1 ? " has no payload" : " have no payload") == (missing > 0),
            "seed \(seed)"
        )
    }
}
