import ChainTrace
import ChainTraceTestSupport
import ChainTraceTraceLog
import Foundation
import Testing

/// A command asked to write its output over one of its own inputs — under the same path, another spelling, a
/// symbolic or a hard link — or onto a directory refuses before doing any work, and the input is untouched.
/// Before, `replay s.jsonl --trace-out s.jsonl` replaced the command stream with the trace log, status 0, and an
/// output naming a directory failed only at the end of the run. Nor is a trace log a sink is writing an output.
@Suite("Output over an input")
struct OutputOverInputCommandTests {
    /// The files a test's commands read, in a new directory.
    struct Inputs {
        var directory: URL
        var definition: String
        var stream: String
        var log: String
        var otherLog: String
    }

    static func inputs(_ random: inout SeededGenerator) throws -> Inputs {
        let directory = try CLI.temporaryDirectory()
        let definition = directory.appendingPathComponent("chain.json").path
        try FileManager.default.copyItem(atPath: CLI.fixture("responders.chain.json"), toPath: definition)
        let stream = directory.appendingPathComponent("commands.jsonl").path
        try FileManager.default.copyItem(atPath: CLI.fixture("responders.commands.jsonl"), toPath: stream)
        func log(_ name: String) throws -> String {
            let traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: Int.random(in: 1...200, using: &random))
            return try CLI.write(
                LogCommandsAgreeWithLibraryTests.bytes(traces, compact: random.chance(0.5)),
                named: name,
                in: directory
            )
        }
        return Inputs(
            directory: directory,
            definition: definition,
            stream: stream,
            log: try log("a.jsonl"),
            otherLog: try log("b.jsonl")
        )
    }

    /// Each command that writes a file, with the inputs it reads; `OUT` stands for the output's path.
    static func commands(_ inputs: Inputs) -> [(arguments: [String], reads: [String])] {
        [
            (["replay", inputs.definition, inputs.stream, "--trace-out", "OUT"], [inputs.definition, inputs.stream]),
            (["replay", inputs.definition, inputs.stream, "--expect", inputs.log, "--trace-out", "OUT"], [inputs.log]),
            (["export", inputs.log, inputs.otherLog, "--to", "jsonl", "-o", "OUT"], [inputs.log, inputs.otherLog]),
            (
                ["gen-tests", inputs.log, "--definition", inputs.definition, "-o", "OUT"],
                [inputs.log, inputs.definition]
            ),
            (
                ["render", inputs.definition, "--trace", inputs.log, "--format", "dot", "-o", "OUT"],
                [inputs.definition, inputs.log]
            ),
            (
                [
                    "render", inputs.definition, "--trace", inputs.log, "--diff", inputs.otherLog, "--format", "dot",
                    "-o", "OUT",
                ], [inputs.otherLog]
            ),
            (
                [
                    "report", inputs.log, "--compare", inputs.otherLog, "--definition", inputs.definition, "--output",
                    "OUT",
                ],
                [inputs.log, inputs.otherLog, inputs.definition]
            ),
        ]
    }

    /// Another name for the file at `path`: the same path, a spelling with `/./`, a symbolic link or a hard link.
    static func otherName(for path: String, in directory: URL, _ random: inout SeededGenerator) throws -> String {
        let url = URL(fileURLWithPath: path)
        let link = directory.appendingPathComponent("link-\(UInt32.random(in: 0...UInt32.max, using: &random))").path
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return path
        case 1: return url.deletingLastPathComponent().path + "/./" + url.lastPathComponent
        case 2:
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
            return link
        default:
            try FileManager.default.linkItem(atPath: path, toPath: link)
            return link
        }
    }

    @Test(arguments: SeededGenerator.seeds(10))
    func anOutputOverAnInputIsRefused(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let inputs = try Self.inputs(&random)
        for command in Self.commands(inputs) {
            let input = random.pick(command.reads)
            let output = try Self.otherName(for: input, in: inputs.directory, &random)
            try Self.expectRefused(
                command.arguments,
                writing: output,
                expected: "an output file that is not one of the command's inputs",
                untouched: input,
                in: inputs.directory,
                context: "seed \(seed), \(command.arguments.first!) writing \(output) over \(input)"
            )
        }
    }

    /// Runs a command of ``commands(_:)`` with `output` for `OUT`, and expects it refused before any work: status 2,
    /// an error naming `output` and what was `expected`, the file at `untouched` as it was, nothing half-written.
    static func expectRefused(
        _ arguments: [String],
        writing output: String,
        expected: String,
        untouched: String,
        in directory: URL,
        context: String
    ) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: untouched))
        let ended = try CLI.run(arguments.map { $0 == "OUT" ? output : $0 })
        #expect(ended.status == 2, "\(context): \(ended.standardError)")
        #expect(
            ended.standardError.hasPrefix("chaintrace: \(output): expected \(expected)"),
            "\(context): \(ended.standardError)"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: untouched)) == before, "\(context)")
        #expect(CLI.partialFiles(in: directory).isEmpty, "\(context)")
    }

    /// A trace log an app is writing (here this test process's sink; the binary is another process) is no output:
    /// replaced, the sink would go on writing into a file no longer there, and every later trace would be lost.
    @Test(arguments: SeededGenerator.seeds(3))
    func aLogASinkIsWritingIsRefused(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let inputs = try Self.inputs(&random)
        let live = inputs.directory.appendingPathComponent("live.jsonl").path
        var options = TraceLogSink.Options()
        options.writesInBackground = random.chance(0.5)
        let sink = try TraceLogSink(path: live, options: options)
        sink.record(
            Trace(
                id: 1,
                commandKind: "K",
                commandID: "c1",
                entry: "A",
                chain: "c",
                hops: [Hop(handler: "A", position: 0, decision: .accepted, inclusiveDuration: 3, selfDuration: 3)],
                outcome: .accepted(by: "A"),
                duration: 3
            )
        )
        try sink.flush()
        for command in Self.commands(inputs) {
            try Self.expectRefused(
                command.arguments,
                writing: live,
                expected: "a trace log no other sink is writing",
                untouched: live,
                in: inputs.directory,
                context: "seed \(seed), \(command.arguments.first!)"
            )
        }
        try sink.close()
        // Closed, it is an output like any file.
        let ended = try CLI.run(Self.commands(inputs)[0].arguments.map { $0 == "OUT" ? live : $0 })
        #expect(ended.status == 0 || ended.status == 1, "seed \(seed): \(ended.standardError)")
    }

    @Test(arguments: SeededGenerator.seeds(3))
    func anOutputOntoADirectoryIsRefused(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let inputs = try Self.inputs(&random)
        let directory = inputs.directory.appendingPathComponent("out.d")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for command in Self.commands(inputs) {
            let ended = try CLI.run(command.arguments.map { $0 == "OUT" ? directory.path : $0 })
            #expect(ended.status == 2, "seed \(seed), \(command.arguments.first!): \(ended.standardError)")
            #expect(
                ended.standardError.hasPrefix(
                    "chaintrace: \(directory.path): expected a file to write, found a directory\n"
                )
            )
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
            #expect(CLI.partialFiles(in: inputs.directory).isEmpty)
        }
    }

    @Test(arguments: SeededGenerator.seeds(3))
    func anOutputBesideTheInputsIsWritten(seed: UInt64) throws {
        // The check refuses only what it should: a new file, or an existing one that no input is, is written.
        var random = SeededGenerator(seed: seed)
        let inputs = try Self.inputs(&random)
        for command in Self.commands(inputs) {
            let output = inputs.directory.appendingPathComponent(
                "out-\(UInt32.random(in: 0...UInt32.max, using: &random))"
            ).path
            if random.chance(0.5) { try Data("old".utf8).write(to: URL(fileURLWithPath: output)) }
            let ended = try CLI.run(command.arguments.map { $0 == "OUT" ? output : $0 })
            #expect(
                ended.status == 0 || ended.status == 1,
                "seed \(seed), \(command.arguments.first!): \(ended.standardError)"
            )
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: output)) != Data("old".utf8),
                "seed \(seed), \(command.arguments.first!)"
            )
        }
    }
}
