import ChainTrace
import ChainTraceAnalysis
import ChainTraceJSON
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// `stats --slow` and `render -o`, as a user runs them on generated logs: stats flags exactly the handlers the
/// library's rule flags for the same log; a render that fails (an unknown --focus name, a bad --slow) writes no
/// file and leaves an existing one as it was; one that succeeds replaces it whole.
@Suite("stats --slow and render -o, through the binary")
struct RenderAndStatsCommandTests {
    static func log(_ random: inout SeededGenerator) -> [Trace] {
        let names = (0..<Int.random(in: 3...7, using: &random)).map { "H\($0)" }
        let scale = names.map { _ in UInt64.random(in: 1...2_000_000, using: &random) }
        return (0..<Int.random(in: 5...40, using: &random)).map { index in
            let hops = names.enumerated().map { position, name in
                let time = scale[position] / 2 + UInt64.random(in: 0...scale[position], using: &random)
                return Hop(
                    handler: name,
                    position: position,
                    decision: position == names.count - 1 ? .accepted : .passed,
                    inclusiveDuration: time,
                    selfDuration: time
                )
            }
            return Trace(
                id: UInt64(index),
                commandKind: "K",
                entry: "H0",
                chain: "c",
                hops: hops,
                outcome: .accepted(by: names.last!),
                duration: hops.reduce(0) { $0 + $1.selfDuration }
            )
        }
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func statsFlagsWhatTheLibrarysRuleFlags(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let traces = Self.log(&random)
        let bytes = TraceLogFormat.header + [0x0A] + traces.flatMap { TraceLogFormat.encode($0) + [0x0A] }
        let path = try CLI.write(bytes, named: "log.jsonl", in: try CLI.temporaryDirectory())
        let rule = random.pick([
            "p95>500us", "share>30%", "3x-median", "p50>1ms,share>25%", "max>2x-median", "mean>200us",
        ])
        let output = try CLI.run("stats", path, "--slow", rule, "--format", "json")
        #expect(output.status == 0, "seed \(seed): \(output.standardError)")
        let report = try JSONDocument(bytes: Array(output.standardOutput.utf8), file: "stats.json").root
        guard case .array(let rows)? = report["handlers"] else {
            Issue.record("seed \(seed): \(output.standardOutput.prefix(200))")
            return
        }
        let printed = Set(rows.filter { $0["slow"] == .bool(true) }.compactMap { $0["handler"]?.stringValue })
        let flagged = Set(try SlowHandlerRule.parse(rule).flags(in: ChainProfile(traces)).map(\.handler))
        #expect(printed == flagged, "seed \(seed), \(rule): printed \(printed.sorted()), library \(flagged.sorted())")
    }

    @Test func aFailedRenderWritesNothingAndASuccessfulOneReplacesTheFileWhole() throws {
        let directory = try CLI.temporaryDirectory()
        let output = directory.appendingPathComponent("diagram.svg").path
        let definition = "Docs/examples/editor.chain.json"
        // No file yet: a failing render leaves none.
        for failing in [
            ["--focus", "Ghost"], ["--ignore", "Nobody,Cell"],
            ["--trace", "Docs/examples/editor-before.traces.jsonl", "--slow", "p95>fast"],
        ] {
            let run = try CLI.binary.run(["render", definition, "-o", output] + failing)
            #expect(run.status == 2, "\(failing): \(run.standardError)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(failing) left a file")
        }
        // An existing file: a failing render leaves it as it was, a successful one replaces it.
        try "previous".write(toFile: output, atomically: true, encoding: .utf8)
        _ = try CLI.binary.run(["render", definition, "-o", output, "--focus", "Ghost"])
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous")
        let ok = try CLI.binary.run(["render", definition, "-o", output])
        #expect(ok.status == 0, "\(ok.standardError)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("<?xml"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0 != "diagram.svg"
        }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }
}
