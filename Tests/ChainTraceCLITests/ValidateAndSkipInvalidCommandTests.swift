import ChainTrace
import ChainTraceDefinitions
import ChainTraceJSON
import ChainTraceTestSupport
import Foundation
import Testing

/// `validate` and `replay --skip-invalid`, run as a user runs them on generated files: `validate` reports exactly
/// the library's lint findings, positions included, with the exit status the flags promise; a stream with
/// generated bad lines among good ones replays every good one, reports each bad one at its line, and exits 1.
@Suite("validate and --skip-invalid, through the binary")
struct ValidateAndSkipInvalidCommandTests {
    @Test(arguments: SeededGenerator.seeds(6))
    func validateReportsTheLibrarysFindings(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var (value, _) = GeneratedDefinition.make(&random)
        if random.chance(0.5), case .array(let handlers)? = value["handlers"] {
            // A mistake: a next naming nobody.
            value = value.changing(
                at: ["handlers", "\(Int.random(in: 0..<handlers.count, using: &random))", "next"],
                to: .string("Ghost")
            )
        }
        let text = CLI.literal(value)
        let path = try CLI.write(Array(text.utf8), named: "g.chain.json", in: try CLI.temporaryDirectory())
        let findings = ChainDefinitionLinter.lint(bytes: Array(text.utf8), file: path)
        let errors = findings.filter { $0.severity == .error }.count
        for strict in [false, true] {
            let output = try CLI.binary.run(["validate", path, "--format", "json"] + (strict ? ["--strict"] : []))
            let failing = errors > 0 || (strict && !findings.isEmpty)
            #expect(output.status == (failing ? 1 : 0), "seed \(seed), strict \(strict): exit \(output.status)")
            let report = try JSONDocument(bytes: Array(output.standardOutput.utf8), file: "validate.json").root
            guard case .array(let reported)? = report["findings"] else {
                Issue.record("seed \(seed): validate printed \(output.standardOutput.prefix(200))")
                continue
            }
            let printed = reported.map {
                [$0["check"]?.stringValue ?? "", "\($0["line"] ?? .null)", "\($0["column"] ?? .null)"]
            }
            let expected = findings.map {
                [
                    $0.check.rawValue, "\(JSONValue.integer(Int64($0.error.line)))",
                    "\(JSONValue.integer(Int64($0.error.column)))",
                ]
            }
            #expect(printed == expected, "seed \(seed): \(printed) vs \(expected)")
            #expect(report["errors"] == .integer(Int64(errors)), "seed \(seed)")
        }
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func skipInvalidReplaysTheGoodLinesAndReportsEachBadOne(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let bad = [
            #"{"kind":"#, #"{"kind":7}"#, "[1,2]", #"{"kind":"Coin","kind":"Coin"}"#, #"{"kind":"Coin","id":true}"#,
            "nonsense", #"{"kind":"Coin","entry":"Ghost"}"#,
        ]
        var lines: [String] = []
        var badLines: [Int] = []
        for _ in 0..<Int.random(in: 5...30, using: &random) {
            if random.chance(0.3) {
                lines.append(random.pick(bad))
                badLines.append(lines.count)
            } else {
                lines.append(
                    #"{"kind":"Coin","diameter":\#(random.pick(["19.05", "24.26", "30"])),"weight":\#(random.pick(["2.5", "5.67", "9"]))}"#
                )
            }
        }
        let path = try CLI.write(
            Array((lines.joined(separator: "\n") + "\n").utf8),
            named: "mixed.jsonl",
            in: try CLI.temporaryDirectory()
        )
        let output = try CLI.run(
            "replay",
            "Samples/VendingMachine/vending-machine.chain.json",
            path,
            "--skip-invalid",
            "--format",
            "json"
        )
        #expect(output.status == (badLines.isEmpty ? 0 : 1), "seed \(seed): \(output.standardError)")
        let report = try JSONDocument(bytes: Array(output.standardOutput.utf8), file: "replay.json").root
        #expect(report["invalidLineCount"] == .integer(Int64(badLines.count)), "seed \(seed)")
        #expect(report["commands"] == .integer(Int64(lines.count - badLines.count)), "seed \(seed)")
        guard case .array(let reported)? = report["invalidLines"] else {
            Issue.record("seed \(seed): no invalidLines")
            return
        }
        let reportedLines = reported.compactMap { $0.stringValue.flatMap { Int($0.split(separator: ":")[1]) } }
        #expect(reportedLines == badLines, "seed \(seed): \(reportedLines) vs \(badLines)")
    }

    /// Several files are read as one recorded trace log; command streams named so are no log. With
    /// `--skip-invalid`, each such file is reported and the replay ends — it used to be told the same missing
    /// header at the end of the first file forever, and never finished; so did a gzip file cut short, whose failed
    /// read was thrown again at every call.
    @Test(arguments: SeededGenerator.seeds(4))
    func skipInvalidOverFilesThatAreNoLogEnds(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory()
        var names: [String] = []
        for index in 0..<Int.random(in: 2...4, using: &random) {
            let lines = (0..<Int.random(in: 0...5, using: &random)).map { #"{"kind":"Coin","id":"c\#($0)"}"# }
            let text = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
            names.append(try CLI.write(Array(text.utf8), named: "stream-\(index).jsonl", in: directory))
        }
        if random.chance(0.5) {
            // A gzipped stream cut short: its read fails once, and the replay goes on to its end.
            let zipped = try GzipLogTests.gzip(
                Array(#"{"kind":"Coin"}"#.utf8) + [0x0A],
                in: directory,
                named: "cut.jsonl"
            )
            let bytes = try Data(contentsOf: URL(fileURLWithPath: zipped))
            try bytes.prefix(bytes.count - 4).write(to: URL(fileURLWithPath: zipped))
            names.insert(zipped, at: Int.random(in: 0...names.count, using: &random))
        }
        let output = try CLI.binary.run(
            ["replay", CLI.fixture("responders.chain.json")] + names + ["--skip-invalid"],
            timeLimit: 60
        )
        #expect(!output.timedOut, "seed \(seed): still replaying after a minute")
        for name in names {
            let file = URL(fileURLWithPath: name).lastPathComponent
            #expect(
                output.standardOutput.contains(file),
                "seed \(seed): \(file) not reported\n\(output.standardOutput)"
            )
        }
        // The skipped lines say why, as the first error would without --skip-invalid.
        #expect(output.standardOutput.contains("replay a command stream one file at a time"), "seed \(seed)")
    }
}
