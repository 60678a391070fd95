import ChainTrace
import Foundation

/// A server sample's command line: `[--port N] [--trace-out FILE] [--sample N] [--untraced]`.
public struct ServerArguments: Sendable {
    /// The port to serve on, on 127.0.0.1.
    public var port = 8080
    /// The trace log to write.
    public var traceOut: String
    /// Whether requests are traced (`--untraced` turns it off, for comparisons).
    public var traced = true
    /// How the recorder samples: every command (the default), or one in N (`--sample N`).
    public var sampling = Sampling.all

    /// Reads `arguments` (the program's name first) for the sample `program`, whose log is `traceOut` by default.
    ///
    /// - Throws: ``SampleError`` with the usage for `--help`, or saying what is wrong.
    public init(_ arguments: [String], program: String, traceOut: String) throws(SampleError) {
        self.traceOut = traceOut
        var rest = arguments.dropFirst()[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--port":
                guard let value = rest.popFirst(), let port = Int(value), (0...65535).contains(port) else {
                    throw SampleError("--port needs a port number (0–65535)")
                }
                self.port = port
            case "--trace-out":
                guard let value = rest.popFirst() else { throw SampleError("--trace-out needs a file") }
                self.traceOut = value
            case "--sample":
                guard let value = rest.popFirst(), let interval = Int(value), interval >= 1 else {
                    throw SampleError("--sample needs a whole number of 1 or more (1: trace every request)")
                }
                sampling = .oneIn(interval)
            case "--untraced": traced = false
            case "--help", "-h":
                throw SampleError(
                    "usage: \(program) [--port N] [--trace-out FILE] [--sample N] [--untraced]\n"
                        + "Serves the sample API on 127.0.0.1:N (8080), tracing every request (one in N with "
                        + "--sample; none with --untraced) to FILE (\(traceOut)) until SIGINT or SIGTERM.",
                    isUsage: true
                )
            default: throw SampleError("unknown argument \(argument); --help explains")
            }
        }
    }
}

/// A message for the user, printed without a stack.
public struct SampleError: Error, CustomStringConvertible {
    /// The message.
    public let description: String
    /// Whether it is the usage `--help` asked for (printed to standard output, exit status 0).
    public let isUsage: Bool

    /// The message `description`.
    public init(_ description: String, isUsage: Bool = false) {
        self.description = description
        self.isUsage = isUsage
    }
}

/// Reads the command line for `program`, or exits: 0 after printing the usage `--help` asked for, 2 after saying
/// what is wrong with it.
public func serverArguments(program: String, traceOut: String) -> ServerArguments {
    do {
        return try ServerArguments(CommandLine.arguments, program: program, traceOut: traceOut)
    } catch {
        if error.isUsage {
            print(error.description)
            exit(0)
        }
        printError("\(program): \(error)")
        exit(2)
    }
}

/// Writes `message` and a newline to standard error.
public func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
