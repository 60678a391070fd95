import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// `which --entry` on generated responder trees, as a user runs it: from every entry the answer is the library's
/// dry run from that entry — the same path, answers and outcome, the failing handler's error included — and an
/// entry the chain does not have is exit status 2 naming it.
@Suite("which --entry on trees, through the binary")
struct WhichEntryCommandTests {
    @Test(arguments: SeededGenerator.seeds(5))
    func fromEveryEntryTheAnswerIsTheLibrarysDryRun(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 2...7, using: &random)
        let handlers = (0..<count).map { index -> String in
            let up = index == 0 ? "" : #","next":"H\#(Int.random(in: 0..<index, using: &random))""#
            let fails =
                random.chance(0.3)
                ? #","fails":{"when":{"field":"size","equals":"L"},"error":"H\#(index) is full"}"# : ""
            return #"{"name":"H\#(index)","accepts":{"kind":["K\#(index)"]}\#(fails)\#(up)}"#
        }
        let text =
            #"{"chain":"tree","handlers":[\#(handlers.joined(separator: ","))],"entries":[\#((0..<count).map { "\"H\($0)\"" }.joined(separator: ","))]}"#
        let path = try CLI.write(Array(text.utf8), named: "tree.chain.json", in: try CLI.temporaryDirectory())
        let chain = try ChainDefinition.load(bytes: Array(text.utf8), file: path).makeChain()
        for _ in 0..<6 {
            let entry = "H\(Int.random(in: 0..<count, using: &random))"
            let command = JSONCommand(
                kind: "K\(Int.random(in: 0..<count, using: &random))",
                fields: ["size": .string(random.pick(["S", "L"]))]
            )
            let output = try CLI.run(
                "which",
                path,
                CLI.literal(.object(["kind": .string(command.kind), "size": command.fields["size"]!])),
                "--entry",
                entry,
                "--format",
                "json"
            )
            let answer = try JSONDocument(bytes: Array(output.standardOutput.utf8), file: "which.json").root
            let dryRun = try chain.whoWouldHandle(command, from: entry)
            #expect(answer["entry"] == .string(entry), "seed \(seed)")
            #expect(answer["path"] == .array(dryRun.path.map { .string($0) }), "seed \(seed): from \(entry)")
            guard case .array(let steps)? = answer["steps"] else { continue }
            #expect(steps.map { $0["answer"]?.stringValue } == dryRun.steps.map(\.answer.rawValue), "seed \(seed)")
            #expect(steps.map { $0["error"]?.stringValue } == dryRun.steps.map(\.error), "seed \(seed)")
            #expect(output.status == (dryRun.handler == nil ? 1 : 0), "seed \(seed)")
        }
        let ghost = try CLI.run("which", path, #"{"kind":"K0"}"#, "--entry", "Ghost")
        #expect(ghost.status == 2 && ghost.standardError.contains("\"Ghost\""), "seed \(seed): \(ghost.standardError)")
        // The error names what was wrong: the option, or the command's own entry.
        #expect(
            ghost.standardError.contains("--entry: expected an entry naming a handler"),
            "seed \(seed): \(ghost.standardError)"
        )
        let ownGhost = try CLI.run("which", path, #"{"kind":"K0","entry":"Ghost"}"#)
        #expect(
            ownGhost.status == 2
                && ownGhost.standardError.contains("<command>:1:22: expected an entry naming a handler"),
            "seed \(seed): \(ownGhost.standardError)"
        )
    }
}
