import ArgumentParser
import CChainTraceSupport
import ChainTrace
import ChainTraceJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `chaintrace`: replays chain definitions against command streams and recorded logs, profiles and draws trace logs.
public struct ChainTraceCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "chaintrace",
        abstract: "Trace, replay, profile and draw Chain-of-Responsibility chains.",
        discussion: """
            Exit status: 0 when all went well; 1 when the run found what it looks for — divergences from a \
            recorded run (replay --expect, diff), lint errors (validate), no handler for the command (which), \
            or invalid lines skipped with --skip-invalid; 2 for bad usage, bad input (the message names the \
            file, line and column), or output that could not be written. A signal that ends a run (Ctrl-C, \
            kill, a closed pipe) leaves no output file half-written.
            """,
        version: "0.3.0",
        subcommands: [
            ReplayCommand.self, WhichCommand.self, ValidateCommand.self, StatsCommand.self, DiffCommand.self,
            GenTestsCommand.self, ExportCommand.self, RenderCommand.self, ReportCommand.self,
        ]
    )

    public init() {}

    /// Runs the command line and exits with its status: 0, 1 or 2 as documented, never a crash or a trace. A
    /// signal that ends it (Ctrl-C, `kill`, a closed pipe) first deletes the output files it had not finished.
    public static func main() {
        chaintrace_remove_files_on_termination()
        terminate(run(arguments: Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs `arguments` and returns the exit status: 2, whatever the command found, when its output could not
    /// all be written to standard output.
    static func run(arguments: [String]) -> Int32 {
        let status = runCommand(arguments: arguments)
        guard let failure = Terminal.outputFailure else { return status }
        Terminal.standardError.writeText("chaintrace: \(failure)\n")
        return 2
    }

    /// Runs `arguments` and returns the status the command ended with.
    private static func runCommand(arguments: [String]) -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return 0
        } catch let failure as CommandFailure {
            if !failure.message.isEmpty { Terminal.standardError.writeText("chaintrace: \(failure.message)\n") }
            return failure.status
        } catch let error as FormatError {
            Terminal.standardError.writeText("chaintrace: \(error)\n")
            return 2
        } catch {
            let status = exitCode(for: error)
            let message = fullMessage(for: error)
            if status == .success {
                Terminal.standardOutput.writeText(message + "\n")
                return 0
            }
            if !message.isEmpty { Terminal.standardError.writeText(message + "\n") }
            if let code = error as? ExitCode { return code.rawValue }
            return 2
        }
    }
}

/// Ends the process with `status`.
private func terminate(_ status: Int32) -> Never {
    exit(status)
}

/// How a subcommand ends other than with success: a status and what to say on stderr.
struct CommandFailure: Error {
    var status: Int32
    var message: String

    /// The run found what it looks for (divergences, lint errors): status 1, the report already printed.
    static let found = CommandFailure(status: 1, message: "")

    /// Bad input or usage: status 2.
    static func badInput(_ message: String) -> CommandFailure {
        CommandFailure(status: 2, message: message)
    }
}
