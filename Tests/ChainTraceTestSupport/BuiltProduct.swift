public import Foundation

/// Runs an executable the package built, the way a user would, and captures what it printed.
public struct BuiltProduct: Sendable {
    public let name: String

    public init(name: String) {
        self.name = name
    }

    /// What a run printed, and how it ended.
    public struct Output: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
        /// Whether it was stopped for running past its time limit.
        public var timedOut = false
        /// The signal that ended it, if one did (then `status` is that signal's number too).
        public var signal: Int32? = nil
    }

    /// The package's root folder (three levels above this file).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where `swift build` put the executable: beside the test bundle.
    public var url: URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Self.packageRoot.appendingPathComponent(".build/debug"),
        ]
        return candidates.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs it with `arguments` in `directory`, with NO_COLOR set, a fixed terminal width, and `extraEnvironment`;
    /// stopped (and ``Output/timedOut``) if it runs longer than `timeLimit` seconds. `standardOutputPath` sends
    /// its standard output to that file (`/dev/full`, say) instead of capturing it.
    ///
    /// `shell` runs it through `/bin/sh` instead, between shell code `before` (`ulimit -f 16;`, `trap '' INT;`)
    /// and `after` (redirections such as `>&-`), for a run in conditions `Process` cannot set up.
    public func run(
        _ arguments: [String],
        in directory: URL = packageRoot,
        extraEnvironment: [String: String] = [:],
        timeLimit: Double? = nil,
        standardOutputPath: String? = nil,
        shell: (before: String, after: String)? = nil
    ) throws -> Output {
        try start(
            arguments,
            in: directory,
            extraEnvironment: extraEnvironment,
            standardOutputPath: standardOutputPath,
            shell: shell
        ).finish(timeLimit: timeLimit)
    }

    /// Starts it as ``run(_:in:extraEnvironment:timeLimit:standardOutputPath:shell:)`` does, without waiting for it: for
    /// a test that acts on the running program (sends it a signal, say) before ``Running/finish(timeLimit:)``.
    public func start(
        _ arguments: [String],
        in directory: URL = packageRoot,
        extraEnvironment: [String: String] = [:],
        standardOutputPath: String? = nil,
        shell: (before: String, after: String)? = nil
    ) throws -> Running {
        guard let url else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(name) was not built"])
        }
        let process = Process()
        var command: [String]
        if let shell {
            // The program and its arguments reach the script as "$0" and "$@": nothing in them is shell code.
            command = ["/bin/sh", "-c", "\(shell.before) exec \"$0\" \"$@\" \(shell.after)", url.path] + arguments
        } else {
            command = [url.path] + arguments
        }
        #if os(Linux)
            // Every signal at its default in the program, whatever this process ignores: a signal ignored when a
            // program starts stays ignored (exec keeps it), and the program respects that (as under `nohup`) —
            // SwiftNIO ignores SIGPIPE process-wide once a test has opened a socket, and a test sending the program
            // SIGPIPE then waited for it in vain (the run went on: ended by the time limit's SIGTERM). GNU env
            // resets them and execs the program in the same process.
            command = ["/usr/bin/env", "--default-signal"] + command
        #endif
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["COLUMNS"] = "120"
        environment.merge(extraEnvironment) { _, new in new }
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        if let standardOutputPath {
            guard let file = FileHandle(forWritingAtPath: standardOutputPath) else {
                throw CocoaError(
                    .fileWriteUnknown,
                    userInfo: [NSLocalizedDescriptionKey: "cannot open \(standardOutputPath)"]
                )
            }
            process.standardOutput = file
            // Nothing writes the unused pipe: closed, its reader ends at once.
            try output.fileHandleForWriting.close()
        } else {
            process.standardOutput = output
        }
        process.standardError = error
        try process.run()
        // Read both pipes at once: a child that fills one while we wait on the other would never finish.
        return Running(
            process: process,
            outputReader: PipeReader(output.fileHandleForReading),
            errorReader: PipeReader(error.fileHandleForReading),
            outputCaptured: standardOutputPath == nil
        )
    }

    /// A run that ``start(_:in:extraEnvironment:standardOutputPath:shell:)`` began.
    public final class Running: @unchecked Sendable {
        // @unchecked: `process` is only sent signals and waited for, which Process allows from any thread.
        let process: Process
        let outputReader: PipeReader
        let errorReader: PipeReader
        let outputCaptured: Bool

        init(process: Process, outputReader: PipeReader, errorReader: PipeReader, outputCaptured: Bool) {
            self.process = process
            self.outputReader = outputReader
            self.errorReader = errorReader
            self.outputCaptured = outputCaptured
        }

        /// Sends the program `signal` (`SIGINT`, `SIGTERM`, …).
        public func send(_ signal: Int32) {
            kill(process.processIdentifier, signal)
        }

        /// Waits for the program to end — stopping it after `timeLimit` seconds — and returns what it printed.
        public func finish(timeLimit: Double? = nil) -> Output {
            let stopped = LockedFlag()
            if let timeLimit {
                DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit) { [process] in
                    guard process.isRunning else { return }
                    stopped.set()
                    process.terminate()
                    // A program that never sees SIGTERM (it inherited a mask that blocks it) is killed.
                    DispatchQueue.global().asyncAfter(deadline: .now() + 5) {
                        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                    }
                }
            }
            let outputData = outputReader.wait()
            let errorData = errorReader.wait()
            process.waitUntilExit()
            let bySignal = process.terminationReason == .uncaughtSignal
            return Output(
                status: process.terminationStatus,
                standardOutput: outputCaptured ? String(decoding: outputData, as: UTF8.self) : "",
                standardError: String(decoding: errorData, as: UTF8.self),
                timedOut: stopped.isSet,
                signal: bySignal ? process.terminationStatus : nil
            )
        }
    }
}

/// A flag one thread sets and another reads.
final class LockedFlag: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// Reads a pipe to its end on another thread.
final class PipeReader: @unchecked Sendable {
    // @unchecked: `data` is written once by the reading thread before `done` is signalled, and read after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
