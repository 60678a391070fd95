import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `-` reads an input from standard input, as `cat` and `jq` do: every command, every input it reads, from a pipe
/// (a log or a command stream compressed or not), prints what it prints when the file is named — and standard input given as two inputs is refused before
/// anything is read, since the second would find the pipe empty. Before, `-` was "expected a readable file".
@Suite("Standard input as -")
struct StandardInputCommandTests {
    /// Each reading command, with the inputs it reads (any may be `-`) and how to compare its output: `OUT` stands
    /// for an output file, whose bytes are compared when the command writes one.
    static func commands(_ inputs: OutputOverInputCommandTests.Inputs, _ random: inout SeededGenerator) -> [(
        arguments: [String], reads: [String]
    )] {
        let threads = String(Int.random(in: 1...3, using: &random))
        let command = inputs.directory.appendingPathComponent("one.json").path
        try? Data(#"{"kind":"Command","entry":null}"#.utf8).write(to: URL(fileURLWithPath: command))
        return [
            (
                ["stats", inputs.log, "--threads", threads, "--format", "json", "--definition", inputs.definition],
                [inputs.log, inputs.definition]
            ),
            (["stats", inputs.log, inputs.otherLog, "--threads", threads], [inputs.log, inputs.otherLog]),
            (["export", inputs.log, "--to", random.pick(["chrome", "folded", "otlp", "jsonl"])], [inputs.log]),
            (["export", inputs.log, inputs.otherLog, "--to", "jsonl", "-o", "OUT"], [inputs.log, inputs.otherLog]),
            (["diff", inputs.log, inputs.otherLog, "--format", "json"], [inputs.log, inputs.otherLog]),
            (["diff", inputs.log, "--against", inputs.otherLog], [inputs.log, inputs.otherLog]),
            (["gen-tests", inputs.log, "--definition", inputs.definition], [inputs.log, inputs.definition]),
            (
                ["render", inputs.definition, "--trace", inputs.log, "--format", "dot"],
                [inputs.definition, inputs.log]
            ),
            (
                ["render", "--trace", inputs.log, "--diff", inputs.otherLog, "--format", "dot", "-o", "OUT"],
                [inputs.log, inputs.otherLog]
            ),
            (
                ["report", inputs.log, "--compare", inputs.otherLog, "--definition", inputs.definition, "-o", "OUT"],
                [inputs.log, inputs.otherLog, inputs.definition]
            ),
            (["replay", inputs.definition, inputs.stream, "--format", "json"], [inputs.definition, inputs.stream]),
            (
                ["replay", inputs.definition, inputs.log, "--expect", inputs.otherLog, "--format", "json"],
                [inputs.definition, inputs.log, inputs.otherLog]
            ),
            (["validate", inputs.definition, "--format", "json"], [inputs.definition]),
            (["which", inputs.definition, "@" + command, "--format", "json"], [inputs.definition, command]),
        ]
    }

    /// `arguments` with `input` read from standard input (`-`, or `@-` for `which`'s command) and `OUT` as `output`.
    static func readingStandardInput(_ arguments: [String], _ input: String?, output: String) -> [String] {
        arguments.map { argument in
            if argument == "OUT" { return output }
            if let input, argument == input { return "-" }
            if let input, argument == "@" + input { return "@-" }
            return argument
        }
    }

    /// What a run printed, without what names its input or measures time: the input's path, and `/dev/stdin`
    /// that stands for it, become `INPUT`; replay's JSON keeps what depends on the commands only.
    static func comparable(_ text: String, arguments: [String], input: String) -> String {
        var text = text
        for name in [input, StandardInput.path, URL(fileURLWithPath: input).lastPathComponent, "stdin"] {
            text = text.replacingOccurrences(of: name, with: "INPUT")
        }
        guard arguments.first == "replay",
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { return text }
        let kept = object.filter { ["chain", "commands", "invalidLineCount", "outcomes", "paths"].contains($0.key) }
        guard let data = try? JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys]) else { return text }
        return String(decoding: data, as: UTF8.self)
    }

    enum StandardInput {
        static let path = "/dev/stdin"
    }

    @Test(arguments: SeededGenerator.seeds(6))
    func everyInputReadsFromAPipeAsFromItsFile(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let inputs = try OutputOverInputCommandTests.inputs(&random)
        for command in Self.commands(inputs, &random) {
            let input = random.pick(command.reads)
            let named = inputs.directory.appendingPathComponent("named.out").path
            let piped = inputs.directory.appendingPathComponent("piped.out").path
            for output in [named, piped] { try? FileManager.default.removeItem(atPath: output) }
            let expected = try CLI.run(Self.readingStandardInput(command.arguments, nil, output: named))
            // A pipe, not a file: what `cat FILE | chaintrace … -` gives it — or, for a log or a command stream,
            // `gzip -c FILE |`, which reads as the file does too (a pipe cannot be looked at before it is read: it
            // read as the bytes 1F 8B…, and `stats` as an empty log).
            let quoted = "'" + input.replacingOccurrences(of: "'", with: "'\\''") + "'"
            let compresses = [inputs.log, inputs.otherLog, inputs.stream].contains(input) && random.chance(0.5)
            let found = try CLI.binary.run(
                Self.readingStandardInput(command.arguments, input, output: piped),
                shell: (before: "\(compresses ? "gzip -c" : "cat") \(quoted) |", after: "")
            )
            let context =
                "seed \(seed), \(command.arguments.joined(separator: " ")) with \(input) as -\(compresses ? ", compressed" : "")"
            #expect(found.status == expected.status, "\(context): \(found.standardError)")
            #expect(expected.status == 0 || expected.status == 1, "\(context): \(expected.standardError)")
            #expect(
                Self.comparable(found.standardOutput, arguments: command.arguments, input: input)
                    == Self.comparable(expected.standardOutput, arguments: command.arguments, input: input),
                "\(context)"
            )
            if command.arguments.contains("OUT") {
                let written = try String(contentsOfFile: piped, encoding: .utf8)
                let wanted = try String(contentsOfFile: named, encoding: .utf8)
                #expect(
                    Self.comparable(written, arguments: command.arguments, input: input)
                        == Self.comparable(wanted, arguments: command.arguments, input: input),
                    "\(context)"
                )
            }
        }
    }

    @Test(arguments: SeededGenerator.seeds(3))
    func standardInputAsTwoInputsIsRefusedBeforeReading(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let inputs = try OutputOverInputCommandTests.inputs(&random)
        for command in Self.commands(inputs, &random) where command.reads.count >= 2 {
            var twice = command.reads.shuffled(using: &random)
            twice = Array(twice.prefix(2))
            let output = inputs.directory.appendingPathComponent("twice.out").path
            let arguments = Self.readingStandardInput(command.arguments, twice[0], output: output)
            let both = Self.readingStandardInput(arguments, twice[1], output: output)
            let ended = try CLI.binary.run(both, shell: (before: "cat \(command.reads[0]) |", after: ""))
            let context = "seed \(seed), \(both.joined(separator: " "))"
            #expect(ended.status == 2, "\(context): \(ended.standardError)")
            #expect(
                ended.standardError.contains("expected standard input (-) as one input at most, found it 2 times"),
                "\(context): \(ended.standardError)"
            )
            #expect(ended.standardOutput.isEmpty, "\(context)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(context)")
        }
    }

    /// The copies of read-once inputs in `directory` (the runs' TMPDIR).
    static func copies(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.contains("chaintrace-input")
        }
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func aLogReadTwiceFromAPipeIsCopiedNamedAsGivenAndRemoved(seed: UInt64) throws {
        // `report - --compare B` reads the log twice: from a pipe, the second reading found it empty, and the run
        // failed with "/dev/stdin:1:1: … found an empty file". The log is now kept in a temporary file, which no
        // message names and no run leaves behind, however it ends.
        var random = SeededGenerator(seed: seed)
        let inputs = try OutputOverInputCommandTests.inputs(&random)
        let temporary = inputs.directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        for broken in [false, true] {
            var log = try Data(contentsOf: URL(fileURLWithPath: inputs.log))
            if broken { log.append(Data("{\"not\":\"a trace\"}\n".utf8)) }
            let damaged = inputs.directory.appendingPathComponent("damaged.jsonl")
            try log.write(to: damaged)
            let output = inputs.directory.appendingPathComponent("report.html").path
            try? FileManager.default.removeItem(atPath: output)
            let ended = try CLI.binary.run(
                ["report", "-", "--compare", inputs.otherLog, "-o", output],
                extraEnvironment: ["TMPDIR": temporary.path],
                shell: (before: "cat '\(damaged.path)' |", after: "")
            )
            if broken {
                #expect(ended.status == 2, "seed \(seed): \(ended.standardError)")
                #expect(ended.standardError.contains("chaintrace: /dev/stdin:"), "seed \(seed): \(ended.standardError)")
                #expect(!FileManager.default.fileExists(atPath: output), "seed \(seed)")
            } else {
                #expect(ended.status == 0, "seed \(seed): \(ended.standardError)")
                let page = try String(contentsOfFile: output, encoding: .utf8)
                #expect(page.contains("/dev/stdin") && !page.contains("chaintrace-input"), "seed \(seed)")
            }
            #expect(!ended.standardError.contains("chaintrace-input"), "seed \(seed): \(ended.standardError)")
            #expect(Self.copies(in: temporary).isEmpty, "seed \(seed)")
        }
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func aSignalWhileTheCopyIsMadeLeavesNoCopy(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let signal = random.pick([SIGINT, SIGTERM, SIGHUP])
        let (directory, input) = try InterruptedRunCommandTests.namedPipe()
        let traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: Int.random(in: 1...50, using: &random))
        let log = LogCommandsAgreeWithLibraryTests.bytes(traces, compact: random.chance(0.5))
        let other = try CLI.write(log, named: "other.jsonl", in: directory)
        let temporary = directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let output = directory.appendingPathComponent("report.html").path
        let started = try CLI.binary.start(
            ["report", input, "--compare", other, "-o", output],
            extraEnvironment: ["TMPDIR": temporary.path]
        )
        let pipe = try InterruptedRunCommandTests.openForWriting(input)
        let part = log.prefix(Int.random(in: 0...log.count, using: &random))
        _ = part.withUnsafeBytes { write(pipe, $0.baseAddress, $0.count) }
        // The copy is begun: the command is reading the pipe into it, and waits for the rest.
        let deadline = Date().addingTimeInterval(10)
        while Self.copies(in: temporary).isEmpty, Date() < deadline { usleep(10_000) }
        #expect(!Self.copies(in: temporary).isEmpty, "seed \(seed)")
        started.send(signal)
        let ended = started.finish(timeLimit: 20)
        close(pipe)
        #expect(ended.signal == signal, "seed \(seed): status \(ended.status), \(ended.standardError)")
        #expect(Self.copies(in: temporary).isEmpty, "seed \(seed)")
        #expect(!FileManager.default.fileExists(atPath: output), "seed \(seed)")
    }
}
