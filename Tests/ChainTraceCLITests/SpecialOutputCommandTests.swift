import ChainTrace
import ChainTraceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An output that is not a plain file — standard output as `-`, a named pipe, a device, a symbolic link — gets
/// the same bytes a plain file gets, and stays what it was. Before, every output was written under a temporary
/// name and renamed over its path: `-o /dev/stdout` (or `/dev/null`, `/dev/full`) run as root replaced the device
/// with a regular file, `-o -` wrote a file named `-`, and `-o link` replaced the link with a file.
@Suite("Outputs that are not plain files", .tags(.concurrent))
struct SpecialOutputCommandTests {
    /// The kind of file at `path`, not following a link (`S_IFIFO`, `S_IFLNK`, `S_IFCHR`…), or `nil`.
    static func kind(_ path: String, followingLinks: Bool = false) -> mode_t? {
        var status = stat()
        guard (followingLinks ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    /// Reads everything written into the named pipe at `path`, on its own thread, until the writer closes it.
    final class PipeReader: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var bytes = Data()

        init(_ path: String) {
            Thread.detachNewThread { [self] in
                // Opening a pipe for reading waits for its writer; a run that fails before writing never opens it,
                // so `read` opens it for writing itself to let this end.
                if let handle = FileHandle(forReadingAtPath: path) {
                    bytes = handle.readDataToEndOfFile()
                    try? handle.close()
                }
                done.signal()
            }
        }

        /// What was written; `path` is opened for writing first so that a reader still waiting is released.
        /// `nil` when the reader is still waiting after a minute: the pipe was replaced by a file, so no writer
        /// ever reached it.
        func read(_ path: String) -> Data? {
            let release = open(path, O_WRONLY | O_NONBLOCK)
            if release >= 0 { close(release) }
            guard done.wait(timeout: .now() + 60) == .success else { return nil }
            return bytes
        }
    }

    /// `command` (with `OUT` for its output) as the tests run it, a description for failures, and the bytes it
    /// writes into a plain file in `directory`.
    static func reference(_ command: [String], index: Int, in directory: String, seed: UInt64) throws
        -> (arguments: [String], context: String, expected: Data)
    {
        // A render into a pipe or standard output cannot tell its format from the name: given as dot.
        let arguments =
            command.first == "render" && !command.contains("--format") ? command + ["--format", "dot"] : command
        let context = "seed \(seed), \(arguments.joined(separator: " "))"
        let plain = "\(directory)/plain-\(index).out"
        let reference = try CLI.run(arguments.map { $0 == "OUT" ? plain : $0 })
        #expect(reference.status == 0, "\(context): \(reference.standardError)")
        return (arguments, context, try Data(contentsOf: URL(fileURLWithPath: plain)))
    }

    @Test(arguments: SeededGenerator.seeds(4))
    func standardOutputPipesAndLinksGetWhatAFileGets(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let inputs = try OutputOverInputCommandTests.inputs(&random)
        let directory = inputs.directory.path
        // Temporary files in the test's own directory, so that one left behind is seen.
        func run(_ arguments: [String]) throws -> BuiltProduct.Output {
            try CLI.binary.run(arguments, extraEnvironment: ["TMPDIR": directory])
        }
        for (index, command) in CompressedOutputCommandTests.commands(inputs, &random).enumerated() {
            let (arguments, context, expected) = try Self.reference(command, index: index, in: directory, seed: seed)

            // `-`: standard output, here a pipe.
            let dash = try run(arguments.map { $0 == "OUT" ? "-" : $0 })
            #expect(dash.status == 0, "\(context), -o -: \(dash.standardError)")
            #expect(Data(dash.standardOutput.utf8) == expected, "\(context), -o -")
            #expect(Self.kind("\(directory)/-") == nil, "\(context): a file named - was written")

            // A link to a file: the file it leads to is replaced; the link stays a link.
            let target = "\(directory)/target-\(index).out"
            let link = "\(directory)/link-\(index).out"
            try Data("old content\n".utf8).write(to: URL(fileURLWithPath: target))
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target-\(index).out")
            let linked = try run(arguments.map { $0 == "OUT" ? link : $0 })
            #expect(linked.status == 0, "\(context), a link: \(linked.standardError)")
            #expect(Self.kind(link) == S_IFLNK, "\(context): the link was replaced")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == expected, "\(context), through a link")

            // A named pipe, compressed or not by its name.
            let compressed = random.chance(0.5)
            let fifo = "\(directory)/pipe-\(index).out" + (compressed ? ".gz" : "")
            #expect(mkfifo(fifo, 0o600) == 0, "\(context): mkfifo")
            let reader = PipeReader(fifo)
            let piped = try run(arguments.map { $0 == "OUT" ? fifo : $0 })
            let read = reader.read(fifo)
            #expect(read != nil, "\(context): nothing reached the pipe")
            let received = read ?? Data()
            #expect(piped.status == 0, "\(context), a pipe: \(piped.standardError)")
            #expect(Self.kind(fifo) == S_IFIFO, "\(context): the pipe was replaced")
            if compressed {
                let archive = "\(directory)/received-\(index).gz"
                try received.write(to: URL(fileURLWithPath: archive))
                #expect(received.prefix(2) == Data([0x1F, 0x8B]), "\(context): not gzip")
                #expect(try TestFiles.gunzip(path: archive) == expected, "\(context), a compressed pipe")
            } else {
                #expect(received == expected, "\(context), a pipe")
            }
            #expect(CLI.partialFiles(in: inputs.directory).isEmpty, "\(context)")
        }
    }

    /// Standard output (or error, or any descriptor named `/dev/fd/N`) redirected to a file gets the output where
    /// the shell opened it: after what a `>>` file held, and in the same file (inode) a `>` truncated. Before, the
    /// output was renamed over the file the descriptor's link led to, so `-o - >> all.txt` lost all.txt's earlier
    /// content. A closed descriptor is named as such, and `replay --trace-out /dev/stdout` is refused as `-` is.
    @Test(arguments: SeededGenerator.seeds(4))
    func redirectedStandardOutputKeepsTheShellsFile(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let inputs = try OutputOverInputCommandTests.inputs(&random)
        let directory = inputs.directory.path
        for (index, command) in CompressedOutputCommandTests.commands(inputs, &random).enumerated() {
            let (arguments, context, expected) = try Self.reference(command, index: index, in: directory, seed: seed)

            let file = "\(directory)/redirected-\(index).out"
            let earlier = Data("earlier content \(random.next() % 1000)\n".utf8)
            try earlier.write(to: URL(fileURLWithPath: file))
            var before = stat()
            #expect(stat(file, &before) == 0)
            let appendTo = random.pick(["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
            let appended = try CLI.binary.run(
                arguments.map { $0 == "OUT" ? appendTo : $0 },
                extraEnvironment: ["TMPDIR": directory, "CHAINTRACE_TEST_OUT": file],
                shell: (before: "", after: #">> "$CHAINTRACE_TEST_OUT""#)
            )
            #expect(appended.status == 0, "\(context), -o \(appendTo) >>: \(appended.standardError)")
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: file)) == earlier + expected,
                "\(context), -o \(appendTo) >>"
            )

            // `>`: the file the shell truncated and opened, not a new one renamed over it. Standard error too.
            let (flag, descriptor) = random.pick([("-", ">"), ("/dev/stderr", "2>"), ("/dev/fd/2", "2>")])
            let truncated = try CLI.binary.run(
                arguments.map { $0 == "OUT" ? flag : $0 },
                extraEnvironment: ["TMPDIR": directory, "CHAINTRACE_TEST_OUT": file],
                shell: (before: "", after: descriptor + #" "$CHAINTRACE_TEST_OUT""#)
            )
            #expect(truncated.status == 0, "\(context), -o \(flag) \(descriptor): \(truncated.standardError)")
            var content = try Data(contentsOf: URL(fileURLWithPath: file))
            if descriptor == "2>" {
                // What the command says on standard error follows the output.
                #expect(content.starts(with: expected), "\(context), -o \(flag) 2>")
                content = content.prefix(expected.count)
            }
            #expect(content == expected, "\(context), -o \(flag) \(descriptor)")
            var after = stat()
            #expect(stat(file, &after) == 0 && after.st_ino == before.st_ino, "\(context): \(file) was replaced")
            #expect(CLI.partialFiles(in: inputs.directory).isEmpty, "\(context)")
        }

        let closed = try CLI.binary.run(
            ["export", inputs.log, "--to", "folded", "-o", random.pick(["-", "/dev/stdout"])],
            shell: (before: "", after: ">&-")
        )
        #expect(closed.status == 2, "seed \(seed)")
        #expect(
            closed.standardError.contains(": expected descriptor 1 open for writing, found it closed"),
            "seed \(seed): \(closed.standardError)"
        )
        let reading = try CLI.binary.run(
            ["export", inputs.log, "--to", "folded", "-o", "/dev/stdin"],
            shell: (before: "", after: "< /dev/null")
        )
        #expect(reading.status == 2, "seed \(seed)")
        #expect(
            reading.standardError.contains(
                "/dev/stdin: expected descriptor 0 open for writing, found it open only for reading"
            ),
            "seed \(seed): \(reading.standardError)"
        )
        let mixed = try CLI.run([
            "replay", inputs.definition, inputs.stream, "--trace-out", random.pick(["/dev/stdout", "/dev/fd/1"]),
        ])
        #expect(mixed.status == 2, "seed \(seed)")
        #expect(
            mixed.standardError.contains("(standard output, where the replay prints its report: the two would mix)"),
            "seed \(seed)"
        )
        #expect(mixed.standardOutput.isEmpty, "seed \(seed)")
    }

    /// A run that fails before it finishes writes nothing into a pipe: the reader sees an empty stream, as it
    /// would see no file. A temporary directory that is missing is named as such. And a pipe given where standard
    /// output carries the report (`replay --trace-out -`) is refused before anything runs.
    @Test(arguments: SeededGenerator.seeds(3))
    func aFailedRunWritesNothingIntoAPipe(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let inputs = try OutputOverInputCommandTests.inputs(&random)
        let broken = try CLI.write(
            Array("{\"format\":\"chaintrace-trace-log\",\"version\":1}\n{oops\n".utf8),
            named: "broken.jsonl",
            in: inputs.directory
        )
        let fifo = inputs.directory.appendingPathComponent("pipe.out").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = PipeReader(fifo)
        let failed = try CLI.binary.run(
            ["export", broken, "--to", random.pick(["chrome", "folded", "otlp", "jsonl"]), "-o", fifo],
            extraEnvironment: ["TMPDIR": inputs.directory.path]
        )
        #expect(failed.status == 2, "seed \(seed): \(failed.standardError)")
        #expect(failed.standardError.contains("broken.jsonl:2:"), "seed \(seed): \(failed.standardError)")
        #expect(reader.read(fifo)?.isEmpty == true, "seed \(seed)")
        #expect(Self.kind(fifo) == S_IFIFO, "seed \(seed)")
        #expect(CLI.partialFiles(in: inputs.directory).isEmpty, "seed \(seed)")

        // With nowhere to finish the output, the message says where it looked (not the pipe's own directory).
        let missing = inputs.directory.appendingPathComponent("missing").path
        let nowhere = try CLI.binary.run(
            ["export", inputs.log, "--to", "folded", "-o", "-"],
            extraEnvironment: ["TMPDIR": missing]
        )
        #expect(nowhere.status == 2, "seed \(seed)")
        #expect(
            nowhere.standardError.contains(
                "expected a writable temporary directory to finish the output in (\(missing), set by TMPDIR)"
            ),
            "seed \(seed): \(nowhere.standardError)"
        )
        #expect(nowhere.standardOutput.isEmpty, "seed \(seed)")

        let mixed = try CLI.run(["replay", inputs.definition, inputs.stream, "--trace-out", "-"])
        #expect(mixed.status == 2, "seed \(seed)")
        #expect(
            mixed.standardError.contains("expected a file for --trace-out, found - (standard output"),
            "seed \(seed)"
        )
        #expect(mixed.standardOutput.isEmpty, "seed \(seed)")
    }

    /// Devices stay devices: `/dev/null` takes the output and `/dev/full` refuses it with the system's reason,
    /// naming the device — and neither is replaced by a file, as it was for a run as root.
    @Test func devicesStayDevices() throws {
        let log = try CLI.recordedLog(CLI.fixture("responders.chain.json"), CLI.fixture("responders.commands.jsonl"))
        for device in ["/dev/null", "/dev/full"] where Self.kind(device) == S_IFCHR {
            let run = try CLI.run(["export", log, "--to", "folded", "-o", device])
            if device == "/dev/full" {
                #expect(run.status == 2, "\(run.standardError)")
                #expect(
                    run.standardError.contains("chaintrace: /dev/full: expected to write the file, found "),
                    "\(run.standardError)"
                )
            } else {
                #expect(run.status == 0, "\(run.standardError)")
            }
            #expect(Self.kind(device) == S_IFCHR, "\(device) is no longer a device")
        }
    }
}
