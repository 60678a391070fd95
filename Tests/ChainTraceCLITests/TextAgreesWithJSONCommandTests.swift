import ChainTrace
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// The two outputs of `replay` and `which` — text for people, JSON for tools — on generated definitions and
/// commands, through the binary: every path and outcome the JSON gives, the text shows on the command's line, in
/// the same order; and the exit status does not depend on the format.
@Suite("Text output agrees with JSON output")
struct TextAgreesWithJSONCommandTests {
    @Test(arguments: SeededGenerator.seeds(5))
    func replayAndWhichSayTheSameInBothFormats(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (definition, _) = GeneratedDefinition.make(&random)
        let directory = try CLI.temporaryDirectory()
        let definitionPath = try CLI.write(Array(CLI.literal(definition).utf8), named: "g.chain.json", in: directory)
        let commands = (0..<Int.random(in: 1...12, using: &random)).map { index in
            CLI.literal(
                .object([
                    "kind": .string(random.pick(["Tap", "Swipe", "Coin"])), "id": .string("c\(index)"),
                    "size": .string(random.pick(["S", "M"])),
                    "weight": .integer(Int64.random(in: 1...9, using: &random)),
                ])
            )
        }
        let stream = try CLI.write(
            Array((commands.joined(separator: "\n") + "\n").utf8),
            named: "s.jsonl",
            in: directory
        )

        let text = try CLI.run("replay", definitionPath, stream)
        let json = try CLI.run("replay", definitionPath, stream, "--format", "json")
        #expect(text.status == json.status, "seed \(seed)")
        let report = try JSONDocument(bytes: Array(json.standardOutput.utf8), file: "replay.json").root
        guard case .array(let paths)? = report["paths"] else {
            Issue.record("seed \(seed): \(json.standardOutput.prefix(200))")
            return
        }
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        for (index, path) in paths.enumerated() {
            guard case .array(let names)? = path["path"], let id = path["id"]?.stringValue else { continue }
            let shown = names.compactMap(\.stringValue).joined(separator: " → ")
            let line = lines.first { $0.contains(" \(id) ") }
            #expect(
                line?.contains(shown) == true,
                "seed \(seed): command \(index) \(id): \(shown) not in \(line ?? "no line")"
            )
            if let kind = path["outcome"]?["kind"]?.stringValue {
                let words = kind == "accepted" ? "accepted by" : kind == "failed" ? "failed at" : "fell off the end"
                #expect(line?.contains(words) == true, "seed \(seed): \(id) \(kind)")
            }
        }

        for command in commands.prefix(4) {
            let whichText = try CLI.run("which", definitionPath, command)
            let whichJSON = try CLI.run("which", definitionPath, command, "--format", "json")
            #expect(whichText.status == whichJSON.status, "seed \(seed)")
            let answer = try JSONDocument(bytes: Array(whichJSON.standardOutput.utf8), file: "which.json").root
            if case .array(let names)? = answer["path"], !names.isEmpty {
                #expect(
                    whichText.standardOutput.contains(names.compactMap(\.stringValue).joined(separator: " → ")),
                    "seed \(seed)"
                )
            }
            if let handler = answer["handler"]?.stringValue {
                #expect(whichText.standardOutput.contains("\(handler) would take it"), "seed \(seed)")
            }
        }
    }
}
