import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// `render --command X` on logs whose ids repeat and look like numbers: it draws the first command with id X, else
/// command number X, as its help says, and warns exactly when the choice was not the only one — several commands
/// with that id, or an id that is also another command's number.
@Suite("render --command picks and says which command")
struct RenderCommandChoiceTests {
    @Test(arguments: SeededGenerator.seeds(6))
    func theDocumentedCommandIsDrawnAndAmbiguityIsSaid(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...8, using: &random)
        // Ids from a small pool, so they repeat, numbers among them; each command's kind says which it is.
        let ids: [String?] = (0..<count).map { _ in
            random.chance(0.2) ? nil : random.pick(["a", "b", "1", "2", "3", "9"])
        }
        let traces = ids.enumerated().map { index, id in
            Trace(
                id: UInt64(index),
                commandKind: "K\(index)",
                commandID: id,
                entry: "Cell",
                chain: "editor",
                hops: [Hop(handler: "Cell", position: 0, decision: .accepted, inclusiveDuration: 1, selfDuration: 1)],
                outcome: .accepted(by: "Cell"),
                duration: 1
            )
        }
        let directory = try CLI.temporaryDirectory()
        let path = directory.appendingPathComponent("session.jsonl").path
        var options = TraceLogSink.Options()
        options.writesInBackground = false
        let sink = try TraceLogSink(path: path, options: options)
        for trace in traces { sink.record(trace) }
        try sink.close()

        for asked in ["a", "b", "1", "2", "3", "9", "0"] {
            let output = try CLI.run("render", "--trace", path, "--command", asked, "--format", "dot")
            let withID = ids.indices.filter { ids[$0] == asked }
            let number = Int(asked).flatMap { (1...count).contains($0) ? $0 - 1 : nil }
            guard let drawn = withID.first ?? number else {
                #expect(output.status == 2, "seed \(seed), \(asked): \(output.standardError)")
                #expect(
                    output.standardError.contains("no command with id \"\(asked)\""),
                    "seed \(seed): \(output.standardError)"
                )
                continue
            }
            #expect(output.status == 0, "seed \(seed), \(asked): \(output.standardError)")
            #expect(output.standardOutput.contains("Path of K\(drawn) "), "seed \(seed), \(asked): \(ids)")
            let several = withID.count > 1
            let otherNumber = !withID.isEmpty && number != nil && number != withID.first
            #expect(
                output.standardError.contains("\(withID.count) commands have id \"\(asked)\"") == several,
                "seed \(seed), \(asked): \(ids): \(output.standardError)"
            )
            #expect(
                output.standardError.contains("not command number \(asked)") == (!several && otherNumber),
                "seed \(seed), \(asked): \(ids): \(output.standardError)"
            )
            #expect(
                output.standardError.isEmpty == (!several && !otherNumber),
                "seed \(seed), \(asked): \(output.standardError)"
            )
        }
    }
}
