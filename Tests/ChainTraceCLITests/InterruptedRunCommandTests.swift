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
            Run(
                arguments: ["replay", definition, input, "--trace-out", output],
                lines: Array(commands),
                writesAsItReads: true
            ),
            Run(
                arguments: [
                    "export", input, "--to", random.pick(["chrome", "folded", "otlp", "jsonl"]), "-o", output,
                ],
                lines: log,
                writesAsItReads: true
            ),
            Run(arguments: ["gen-tests", input, "-o", output], lines: log, writesAsItReads: false),
            Run(arguments: ["render", definition, "--trace", input, "-o", output], lines: log, writesAsItReads: false),
            Run(arguments: ["report", input, "--output", output], lines: log, writesAsItReads: false),
        ]
    }

    /// Where `run` writes its output in `directory`: named as the command's kind of output (`render` tells the
    /// format by the extension), `.gz` or not (a compressed output is written plain first, then compressed into
    /// place).
    static func output(of run: Run, in directory: URL, _ random: inout SeededGenerator) -> String {
        let name = "out." + (run.arguments.first == "render" ? "svg" : "out") + (random.chance(0.5) ? ".gz" : "")
        return directory.appendingPathComponent(name).path
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
            // Close-on-exec: a program another test starts meanwhile must not hold the pipe open.
            let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
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
            let output = Self.output(of: run, in: directory, &random)
            let arguments = run.arguments.map { $0 == "input" ? input : $0 == "out" ? output : $0 }
            let started = try CLI.binary.start(arguments)
            guard let pipe = try? Self.openForWriting(input) else {
                started.send(SIGKILL)
                let ended = started.finish()
                Issue.record(
                    "seed \(seed), \(run.arguments): never opened its input; \(ended.status) \(ended.standardError)"
                )
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
            #expect(
                ended.signal == signal,
                "seed \(seed), \(run.arguments): status \(ended.status), \(ended.standardError)"
            )
            #expect(CLI.partialFiles(in: directory).isEmpty, "seed \(seed), \(run.arguments)")
            #expect(!FileManager.default.fileExists(atPath: output), "seed \(seed), \(run.arguments)")
        }
    }

    /// A signal at any instant of a run — as it starts, as it makes its output file or a copy of an input, as it
    /// renames the file into place — leaves the output whole or absent, and nothing else behind: the instants are
    /// drawn over the length of an uninterrupted run of the same command. (A signal just after the output's
    /// temporary file was made, before it was noted for deletion, left it behind.)
    @Test(arguments: SeededGenerator.seeds(4))
    func aSignalAtAnyInstantLeavesTheOutputWholeOrAbsent(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let signal = random.pick([SIGINT, SIGTERM, SIGHUP, SIGPIPE])
        let directory = try CLI.temporaryDirectory()
        let input = directory.appendingPathComponent("input.jsonl").path
        let runs = try Self.runs(input: input, output: "out", random: &random)
        let run = random.pick(runs)
        try Data(run.lines).write(to: URL(fileURLWithPath: input))
        let output = Self.output(of: run, in: directory, &random)
        let arguments = run.arguments.map { $0 == "out" ? output : $0 }
        // Copies of inputs and outputs finished outside their directory go to TMPDIR: here, where they are looked for.
        let environment = ["TMPDIR": directory.path]
        let clock = ContinuousClock()
        let began = clock.now
        let whole = try CLI.binary.start(arguments, extraEnvironment: environment).finish(timeLimit: 60)
        let length = (clock.now - began).components
        let seconds = Double(length.seconds) + Double(length.attoseconds) / 1e18
        try #require(whole.status == 0 && whole.signal == nil, "seed \(seed), \(arguments): \(whole.standardError)")
        // Whole: what the uninterrupted run wrote (a replay's trace log up to its times: as many traces, each whole).
        func content() throws -> Data {
            output.hasSuffix(".gz")
                ? try TestFiles.gunzip(path: output) : try Data(contentsOf: URL(fileURLWithPath: output))
        }
        func comparable(_ data: Data) -> [Int] {
            run.arguments.first == "replay"
                ? [data.count(where: { $0 == UInt8(ascii: "\n") }), data.last.map(Int.init) ?? -1]
                : Array(data.map(Int.init))
        }
        let expected = try comparable(content())
        for _ in 0..<10 {
            try? FileManager.default.removeItem(atPath: output)
            let delay = Double.random(in: 0...1.2, using: &random) * seconds
            let started = try CLI.binary.start(arguments, extraEnvironment: environment)
            usleep(UInt32(min(delay, 10) * 1_000_000))
            started.send(signal)
            let ended = started.finish(timeLimit: 60)
            let context =
                "seed \(seed), \(arguments), signal after \(delay) s: status \(ended.status), \(ended.standardError)"
            #expect(CLI.partialFiles(in: directory).isEmpty, "\(context)")
            // Ended by the signal or finished first; either way, the output is there whole (the signal came after it
            // was renamed into place) or not at all.
            #expect(ended.signal == signal || (ended.status == 0 && ended.signal == nil), "\(context)")
            if FileManager.default.fileExists(atPath: output) {
                #expect((try? comparable(content())) == expected, "\(context)")
            } else {
                #expect(ended.signal == signal, "\(context)")
            }
        }
    }

    @Test
    func aSignalTheRunWasStartedIgnoringStaysIgnored() throws {
        // As under `nohup`, or a shell's background job for SIGINT: the run goes on, and finishes its file.
        let (directory, input) = try Self.namedPipe()
        let output = directory.appendingPathComponent("traces.jsonl").path
        let started = try CLI.binary.start(
            ["replay", CLI.fixture("responders.chain.json"), input, "--trace-out", output],
            shell: ("trap '' INT HUP;", "")
        )
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
