import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run ended by a signal — Ctrl-C, `kill`, a hang-up, a closed pipe — leaves no half-written output file: the
/// command is stopped while it reads its input from a named pipe, so it is mid-run for certain, with its output
/// file begun. Before, every such run left a hidden `.name.partial-…` file of what it had written so far.
@Suite("Runs ended by a signal")
struct InterruptedRunCommandTests {
    /// A command that writes a file, reading its input from `input`, and the lines to feed it.
    struct Run {
        var arguments: [String]
        var lines: [UInt8]
        /// Whether the command opens its output before it has read all its input.
        var writesAsItReads: Bool
    }

    static func runs(input: String, output: String, random: inout SeededGenerator) throws -> [Run] {
        let definition = CLI.fixture("responders.chain.json")
        let commands = try Data(contentsOf: URL(fileURLWithPath: CLI.fixture("responders.commands.jsonl")))
        let traces = LogCommandsAgreeWithLibraryTests.log(&random, ids: Int.random(in: 1...50, using: &random))
        let log = LogCommandsAgreeWithLibraryTests.bytes(traces, compact: random.chance(0.5))
        return [
            Run(arguments: ["replay", definition, input, "--trace-out", output], lines: Array(commands), writesAsItReads: true),
            Run(
                arguments: ["export", input, "--to", random.pick(["chrome", "folded", "otlp", "jsonl"]), "-o", output], lines: log,
                writesAsItReads: true),
            Run(arguments: ["gen-tests", input, "-o", output], lines: log, writesAsItReads: false),
            Run(arguments: ["render", definition, "--trace", input, "-o", output], lines: log, writesAsItReads: false),
            Run(arguments: ["report", input, "--output", output], lines: log, writesAsItReads: false),
        ]
    }

    /// A named pipe in a new directory.
    static func namedPipe() throws -> (directory: URL, path: String) {
        let directory = try CLI.temporaryDirectory()
        let path = directory.appendingPathComponent("input.jsonl").path
        try #require(mkfifo(path, 0o600) == 0)
        return (directory, path)
    }

    /// Opens `path` for writing once the program has opened it for reading (waiting at most ten seconds).
    static func openForWriting(_ path: String) throws -> Int32 {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let descriptor = open(path, O_WRONLY | O_NONBLOCK)
            if descriptor >= 0 {
                // Blocking from here on: the writes below wait for the reader rather than fail.
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
                return descriptor
            }
            usleep(10_000)
        }
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "nobody opened \(path)"])
    }

    /// Waits (at most ten seconds) until `directory` holds an unfinished output file.
    static func waitForPartialFile(in directory: URL) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if !CLI.partialFiles(in: directory).isEmpty { return true }
            usleep(10_000)
        }
        return false
    }

    @Test(arguments: SeededGenerator.seeds(8))
    func aSignalLeavesNoHalfWrittenFile(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let signal = random.pick([SIGINT, SIGTERM, SIGHUP, SIGPIPE])
        for run in try Self.runs(input: "input", output: "out", random: &random) {
            let (directory, input) = try Self.namedPipe()
            // Named as the command's kind of output: `render` tells the format by the extension.
            // Named `.gz` or not: a compressed output is written plain first, then compressed into place.
            let output = directory.appendingPathComponent(
                "out." + (run.arguments.first == "render" ? "svg" : "out") + (random.chance(0.5) ? ".gz" : "")).path
            let arguments = run.arguments.map { $0 == "input" ? input : $0 == "out" ? output : $0 }
            let started = try CLI.binary.start(arguments)
            guard let pipe = try? Self.openForWriting(input) else {
                started.send(SIGKILL)
                let ended = started.finish()
                Issue.record("seed \(seed), \(run.arguments): never opened its input; \(ended.status) \(ended.standardError)")
                continue
            }
            // Some of the input, and the pipe kept open: the command waits for the rest.
            let part = run.lines.prefix(Int.random(in: 0...run.lines.count, using: &random))
            _ = part.withUnsafeBytes { write(pipe, $0.baseAddress, $0.count) }
            if run.writesAsItReads {
                #expect(Self.waitForPartialFile(in: directory), "seed \(seed), \(run.arguments)")
            } else {
                usleep(100_000)
            }
            started.send(signal)
            let ended = started.finish(timeLimit: 20)
            close(pipe)
            #expect(ended.signal == signal, "seed \(seed), \(run.arguments): status \(ended.status), \(ended.standardError)")
            #expect(CLI.partialFiles(in: directory).isEmpty, "seed \(seed), \(run.arguments)")
            #expect(!FileManager.default.fileExists(atPath: output), "seed \(seed), \(run.arguments)")
        }
    }

    @Test
    func aSignalTheRunWasStartedIgnoringStaysIgnored() throws {
        // As under `nohup`, or a shell's background job for SIGINT: the run goes on, and finishes its file.
        let (directory, input) = try Self.namedPipe()
        let output = directory.appendingPathComponent("traces.jsonl").path
        let started = try CLI.binary.start(
            ["replay", CLI.fixture("responders.chain.json"), input, "--trace-out", output], shell: ("trap '' INT HUP;", ""))
        let pipe = try Self.openForWriting(input)
        #expect(Self.waitForPartialFile(in: directory))
        started.send(SIGINT)
        started.send(SIGHUP)
        let commands = try Data(contentsOf: URL(fileURLWithPath: CLI.fixture("responders.commands.jsonl")))
        _ = commands.withUnsafeBytes { write(pipe, $0.baseAddress, $0.count) }
        close(pipe)
        let ended = started.finish(timeLimit: 20)
        #expect(ended.signal == nil && ended.status == 0, "\(ended.status) \(ended.standardError)")
        #expect(FileManager.default.fileExists(atPath: output))
        #expect(CLI.partialFiles(in: directory).isEmpty)
    }
}
