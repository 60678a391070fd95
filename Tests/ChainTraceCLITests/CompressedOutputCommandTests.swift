import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

/// An output file named `….gz` is written gzip-compressed — what `gzip` would make of the same command's plain
/// output — by every command that writes files, and a replay's `--trace-out traces.jsonl.gz` reads back as the
/// same log. Before, the name was taken as it came: `--trace-out t.jsonl.gz` wrote plain JSON Lines under a name
/// that said gzip, which `zcat` refused.
@Suite("Outputs named .gz")
struct CompressedOutputCommandTests {
    /// Each file-writing command whose output depends only on its inputs; `OUT` stands for the output's path.
    /// (`gen-tests` names its suite here: by default the name follows the output file's.)
    static func commands(_ inputs: OutputOverInputCommandTests.Inputs, _ random: inout SeededGenerator) -> [[String]] {
        [
            [
                "export", inputs.log, inputs.otherLog, "--to", random.pick(["chrome", "folded", "otlp", "jsonl"]), "-o",
                "OUT",
            ],
            ["gen-tests", inputs.log, "--definition", inputs.definition, "--suite", "SessionTests", "-o", "OUT"],
            ["render", inputs.definition, "--trace", inputs.log, "--format", "dot", "-o", "OUT"],
            ["render", "--trace", inputs.log, "--diff", inputs.otherLog, "-o", "OUT"],
            ["report", inputs.log, "--compare", inputs.otherLog, "--definition", inputs.definition, "-o", "OUT"],
        ]
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func aCompressedOutputHoldsThePlainOne(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let inputs = try OutputOverInputCommandTests.inputs(&random)
        for (index, command) in Self.commands(inputs, &random).enumerated() {
            // `render … -o x.svg.gz` draws an SVG: the format is told by the name without `.gz`.
            let name = "out-\(index)" + (command.first == "render" && !command.contains("--format") ? ".svg" : ".out")
            let plain = inputs.directory.appendingPathComponent(name).path
            let compressed = plain + ".gz"
            let wrote = try CLI.run(command.map { $0 == "OUT" ? plain : $0 })
            let wroteCompressed = try CLI.run(command.map { $0 == "OUT" ? compressed : $0 })
            let context = "seed \(seed), \(command.joined(separator: " "))"
            #expect(wrote.status == 0 && wroteCompressed.status == 0, "\(context): \(wroteCompressed.standardError)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: compressed))
            #expect(bytes.prefix(2) == Data([0x1F, 0x8B]), "\(context): not gzip")
            #expect(
                try TestFiles.gunzip(path: compressed) == Data(contentsOf: URL(fileURLWithPath: plain)),
                "\(context)"
            )
            // What the command said, without what a sanitized build adds to standard error (LeakSanitizer's summary).
            func said(_ text: String) -> [Substring] {
                text.split(separator: "\n").filter { $0.hasPrefix("Wrote ") || $0.hasPrefix("chaintrace: ") }
            }
            #expect(
                said(wroteCompressed.standardError)
                    == said(wrote.standardError.replacingOccurrences(of: plain, with: compressed)),
                "\(context)"
            )
            #expect(CLI.partialFiles(in: inputs.directory).isEmpty, "\(context)")
        }
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func aCompressedTraceLogReadsBackAsThePlainOne(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let inputs = try OutputOverInputCommandTests.inputs(&random)
        let stream = random.chance(0.5) ? inputs.stream : inputs.log
        let plain = inputs.directory.appendingPathComponent("replayed.jsonl").path
        let compressed = inputs.directory.appendingPathComponent("replayed.jsonl.gz").path
        for output in [plain, compressed] {
            let replayed = try CLI.run(["replay", inputs.definition, stream, "--trace-out", output, "--paths", "0"])
            #expect(replayed.status == 0, "seed \(seed): \(replayed.standardError)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: compressed)).prefix(2) == Data([0x1F, 0x8B]), "seed \(seed)")
        // The same commands took the same paths: the logs differ only in their times.
        let compared = try CLI.run(["diff", plain, compressed, "--format", "json"])
        #expect(compared.status == 0, "seed \(seed): \(compared.standardError)")
        let plainStats = try CLI.run(["stats", plain, "--format", "json"])
        let compressedStats = try CLI.run(["stats", compressed, "--format", "json"])
        /// The counts that do not depend on time, as sorted JSON text.
        func counts(_ text: String) throws -> String {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let kept = object.filter { ["chains", "commands", "outcomes"].contains($0.key) }
            return String(
                decoding: try JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys]),
                as: UTF8.self
            )
        }
        #expect(try counts(plainStats.standardOutput) == counts(compressedStats.standardOutput), "seed \(seed)")
        #expect(CLI.partialFiles(in: inputs.directory).isEmpty, "seed \(seed)")
    }
}
