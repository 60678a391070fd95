import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// `gen-tests` on logs it cannot reproduce exactly: commands recorded without their payload, and commands recorded
/// after chain changes made while recording, which the generated tests do not make. Each such test says so in its
/// doc comment, naming the changes made before its command ran (judged by the trace's chain version, wherever the
/// change's record stands in the log), and the command warns with the counts; the other tests carry no note.
/// Changes at or below the version of a chain's first trace built the chain the recording began with, and are
/// not named — nor counted by `replay`, which warns about the same changes.
@Suite("gen-tests says what its tests cannot reproduce")
struct GenTestsCaveatCommandTests {
    @Test(arguments: SeededGenerator.seeds(8))
    func payloadlessAndChangedCommandsAreNamed(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let chains = ["editor", "audit"]
        // Each chain's edits, at versions 3, 5, 7, … : a trace at version v ran after those at v or below.
        var edits: [ChainEdit] = []
        for chain in chains {
            for step in 0..<Int.random(in: 0...4, using: &random) {
                edits.append(
                    ChainEdit(
                        chain: chain,
                        version: 3 + 2 * step,
                        kind: random.pick(ChainEdit.Kind.allCases),
                        handler: "H\(step)",
                        detail: random.chance(0.5) ? "after Cell" : nil,
                        time: Int64(step)
                    )
                )
            }
        }
        let traces = (0..<Int.random(in: 1...12, using: &random)).map { index in
            Trace(
                id: UInt64(index),
                commandKind: "Edit",
                commandID: "e\(index)",
                payload: random.chance(0.5) ? ["row": .integer(Int64(index))] : nil,
                entry: "Cell",
                chain: random.pick(chains),
                chainVersion: Int.random(in: 1...12, using: &random),
                hops: [Hop(handler: "Cell", position: 0, decision: .accepted, inclusiveDuration: 1, selfDuration: 1)],
                outcome: .accepted(by: "Cell"),
                duration: 1
            )
        }
        let directory = try CLI.temporaryDirectory()
        let path = directory.appendingPathComponent("session.jsonl").path
        var options = TraceLogSink.Options()
        options.format = random.chance(0.5) ? .compact : .jsonLines
        options.writesInBackground = random.chance(0.5)
        let sink = try TraceLogSink(path: path, options: options)
        // Edits and traces interleaved in any order: the version, not the place, says which came first.
        var pending = edits.map { Either.edit($0) } + traces.map { Either.trace($0) }
        pending.shuffle(using: &random)
        for item in pending {
            switch item {
            case .edit(let edit): sink.record(edit)
            case .trace(let trace): sink.record(trace)
            }
        }
        try sink.close()

        let earliest = Dictionary(traces.map { ($0.chain, $0.chainVersion) }, uniquingKeysWith: min)
        let madeWhileRecording = edits.filter { edit in earliest[edit.chain].map { edit.version > $0 } ?? false }
        // The replay through the editor chain's definition replays its traces only, and counts its changes only.
        let replay = try CLI.run("replay", "Docs/examples/editor.chain.json", path, "--format", "json")
        if traces.contains(where: { $0.chain == "editor" }) {
            let editorChanges = madeWhileRecording.filter { $0.chain == "editor" }
            #expect(try CLI.json(replay)["recordedChainChanges"] as? Int == editorChanges.count, "seed \(seed)")
            #expect(
                replay.standardError.contains("chain change") == !editorChanges.isEmpty,
                "seed \(seed): \(replay.standardError)"
            )
            let audit = traces.filter { $0.chain == "audit" }.count
            #expect(
                replay.standardError.contains("set aside \(audit == 1 ? "1 command" : "\(audit) commands")")
                    == (audit > 0),
                "seed \(seed): \(replay.standardError)"
            )
        } else {
            #expect(replay.status == 2, "seed \(seed)")
            #expect(replay.standardError.contains("found only other chains'"), "seed \(seed): \(replay.standardError)")
        }

        let output = try CLI.run("gen-tests", path)
        #expect(output.status == 0, "seed \(seed): \(output.standardError)")
        // One block per test, from its doc comment's first line to the next.
        let blocks = output.standardOutput.components(separatedBy: "    /// Line ").dropFirst()
        #expect(blocks.count == traces.count, "seed \(seed)")
        var withoutPayload = 0
        var afterChanges = 0
        for block in blocks {
            guard let id = block.firstMatch(of: /command "(e\d+)"/).map({ String($0.1) }),
                let trace = traces.first(where: { $0.commandID == id })
            else {
                Issue.record("seed \(seed): a test for no recorded command: \(block)")
                continue
            }
            let before = edits.filter {
                $0.chain == trace.chain && $0.version <= trace.chainVersion && $0.version > earliest[trace.chain]!
            }
            #expect(block.contains("Recorded without its payload") == (trace.payload == nil), "seed \(seed): \(block)")
            // The note says how to record payloads, by the API's name today.
            #expect(
                block.contains("only with `payloads: .captured`") == (trace.payload == nil),
                "seed \(seed): \(block)"
            )
            #expect(block.contains("after a change") == (before.count == 1), "seed \(seed): \(block)")
            #expect(block.contains("after changes") == (before.count > 1), "seed \(seed): \(block)")
            for edit in before.suffix(3) {
                #expect(block.contains(edit.description), "seed \(seed): \(edit) missing from \(block)")
            }
            if trace.payload == nil { withoutPayload += 1 }
            if !before.isEmpty { afterChanges += 1 }
        }
        let commands = traces.count == 1 ? "command" : "commands"
        #expect(
            output.standardError.contains("\(withoutPayload) of \(traces.count) \(commands) in")
                == (withoutPayload > 0),
            "seed \(seed): \(output.standardError)"
        )
        #expect(
            output.standardError.contains("\(afterChanges) of \(traces.count) \(commands) in") == (afterChanges > 0),
            "seed \(seed): \(output.standardError)"
        )
    }

    enum Either {
        case edit(ChainEdit)
        case trace(Trace)
    }
}
