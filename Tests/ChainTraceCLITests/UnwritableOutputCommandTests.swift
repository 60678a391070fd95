import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every command that prints to standard output says so, and ends with status 2, when the output cannot be
/// written: to a full disk (`/dev/full`) or a closed descriptor. Before, each of them dropped the failed writes
/// and ended with status 0, as if the output were whole. An output file that cannot be written whole (a file size
/// limit) is an error naming that file, and nothing is left of it.
@Suite("Output that cannot be written")
struct UnwritableOutputCommandTests {
    /// Every way a command prints to standard output, on a generated log and the responder fixtures.
    static func invocations(log: String, other: String) throws -> [[String]] {
        let definition = CLI.fixture("responders.chain.json")
        let stream = CLI.fixture("responders.commands.jsonl")
        let command = try #require(
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: stream)), as: UTF8.self).split(separator: "\n")
                .first
        )
        var invocations: [[String]] = [
            ["replay", definition, stream], ["replay", definition, stream, "--format", "json"],
            ["replay", definition, log], ["which", definition, String(command)],
            ["which", definition, String(command), "--format", "json"],
            ["validate", definition], ["validate", definition, "--format", "json"],
            ["stats", log], ["stats", log, "--format", "json"],
            ["diff", log, other], ["diff", log, other, "--format", "json"],
            ["gen-tests", log], ["gen-tests", log, "--definition", definition],
            ["render", definition], ["render", definition, "--trace", log], ["render", definition, "--format", "svg"],
            ["--help"], ["--version"], ["replay", "--help"],
        ]
        for format in ["chrome", "folded", "otlp", "jsonl"] { invocations.append(["export", log, "--to", format]) }
        return invocations
    }

    /// Two generated logs of the responder chain's commands: the second a changed run of the first.
    static func logs(seed: UInt64) throws -> (String, String) {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory()
        let first = LogCommandsAgreeWithLibraryTests.log(&random, ids: Int.random(in: 1...400, using: &random))
        let second = LogCommandsAgreeWithLibraryTests.log(&random, ids: Int.random(in: 1...400, using: &random))
        return (
            try CLI.write(
                LogCommandsAgreeWithLibraryTests.bytes(first, compact: random.chance(0.5)),
                named: "a.jsonl",
                in: directory
            ),
            try CLI.write(
                LogCommandsAgreeWithLibraryTests.bytes(second, compact: random.chance(0.5)),
                named: "b.jsonl",
                in: directory
            )
        )
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")), arguments: SeededGenerator.seeds(3))
    func aFullDiskIsAnError(seed: UInt64) throws {
        let (log, other) = try Self.logs(seed: seed)
        for arguments in try Self.invocations(log: log, other: other) {
            // Printed whole, the same run ends well (0) or finds what it looks for (1).
            let whole = try CLI.run(arguments)
            #expect(whole.status == 0 || whole.status == 1, "\(arguments): \(whole.standardError)")
            #expect(!whole.standardOutput.isEmpty, "\(arguments)")
            let full = try CLI.binary.run(arguments, standardOutputPath: "/dev/full")
            #expect(full.status == 2, "seed \(seed), \(arguments): \(full.standardError)")
            #expect(
                // `contains`: a sanitized build adds LeakSanitizer's summary after it.
                full.standardError.contains(
                    "chaintrace: standard output: expected to write the output, found No space left on device\n"
                ),
                "seed \(seed), \(arguments): \(full.standardError)"
            )
        }
    }

    @Test
    func aClosedStandardOutputIsAnError() throws {
        // `chaintrace … >&-`: the command finds descriptor 1 closed.
        let (log, other) = try Self.logs(seed: 7)
        for arguments in try Self.invocations(log: log, other: other) {
            let closed = try CLI.binary.run(arguments, shell: ("", ">&-"))
            #expect(closed.status == 2, "\(arguments): \(closed.standardError)")
            #expect(
                closed.standardError.contains("chaintrace: standard output: expected to write the output, found "),
                "\(arguments): \(closed.standardError)"
            )
        }
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func aFileSizeLimitLeavesNoFile(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let directory = try CLI.temporaryDirectory()
        let traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: Int.random(in: 1_500...3_000, using: &random))
        let log = try CLI.write(
            LogCommandsAgreeWithLibraryTests.bytes(traces, compact: random.chance(0.5)),
            named: "log.jsonl",
            in: directory
        )
        // The fixture's commands (not its chain change, which can be made once), again and again: a stream whose
        // traces outgrow the limit.
        let fixture = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: CLI.fixture("responders.commands.jsonl"))),
            as: UTF8.self
        )
        let commands = fixture.split(separator: "\n").filter { $0.contains("\"kind\"") }.joined(separator: "\n") + "\n"
        let stream = try CLI.write(
            Array(String(repeating: commands, count: 300).utf8),
            named: "stream.jsonl",
            in: directory
        )
        let definition = CLI.fixture("responders.chain.json")
        // Folded stacks sum the traces up: a small file.
        let exportFormat = random.pick(["chrome", "folded", "otlp", "jsonl"])
        let runs: [(arguments: [String], output: String, outgrowsLimit: Bool)] = [
            (["replay", definition, stream, "--trace-out"], "traces.jsonl", true),
            (["export", log, "--to", exportFormat, "-o"], "export.out", exportFormat != "folded"),
            (["gen-tests", log, "-o"], "Tests.swift", true),
            (["report", log, "--output"], "report.html", true),
            (["render", definition, "--trace", log, "-o"], "chain.svg", false),
        ]
        for run in runs {
            // Named `.gz` or not: a compressed output is written plain first, then compressed into place.
            let output = directory.appendingPathComponent(run.output + (random.chance(0.5) ? ".gz" : "")).path
            let ignoringSignal = random.chance(0.5)
            // Past the limit, a write fails with EFBIG when SIGXFSZ is ignored; otherwise the signal ends the run.
            let ended = try CLI.binary.run(
                run.arguments + [output],
                shell: ((ignoringSignal ? "trap '' XFSZ;" : "") + "ulimit -f 16;", "")
            )
            let context = "seed \(seed), \(run.arguments.first!), SIGXFSZ \(ignoringSignal ? "ignored" : "not ignored")"
            let partial = CLI.partialFiles(in: directory)
            #expect(partial.isEmpty, "\(context): \(partial)")
            if ended.status == 0 && ended.signal == nil {
                #expect(!run.outgrowsLimit, "\(context)")
                #expect(FileManager.default.fileExists(atPath: output), "\(context)")
                try? FileManager.default.removeItem(atPath: output)
                continue
            }
            #expect(!FileManager.default.fileExists(atPath: output), "\(context)")
            if ignoringSignal {
                #expect(ended.signal == nil && ended.status == 2, "\(context): \(ended.status) \(ended.standardError)")
                #expect(
                    ended.standardError.hasPrefix("chaintrace: \(output): expected to write"),
                    "\(context): \(ended.standardError)"
                )
                #expect(ended.standardError.contains(", found File too large\n"), "\(context): \(ended.standardError)")
            } else {
                #expect(ended.signal == SIGXFSZ, "\(context): \(ended.status) \(ended.standardError)")
            }
        }
    }
}
