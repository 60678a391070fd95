// A small Hummingbird 2 API traced with ChainTrace: one line (`TracingRouter` where the app had `Router`) traces
// every request through the framework's middleware and the app's own, none of them edited.
//
//   swift run --traits Hummingbird HummingbirdServer [--port 8080] [--trace-out FILE] [--untraced]
//
// `run-under-load.sh` beside this file builds it, drives it with wrk on 127.0.0.1, and runs `chaintrace stats`,
// `render` and `report` on its log.
#if Hummingbird
    import ChainTrace
    import ChainTraceHummingbird
    import ChainTraceTraceLog
    import Foundation
    import Hummingbird
    import Logging

    /// The server's command line.
    struct ServerArguments {
        var port = 8080
        var traceOut = "hummingbird-server.traces.jsonl"
        var traced = true

        init(_ arguments: [String]) throws {
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
                    traceOut = value
                case "--untraced": traced = false
                case "--help", "-h":
                    throw SampleError(
                        "usage: HummingbirdServer [--port N] [--trace-out FILE] [--untraced]\n"
                            + "Serves the sample API on 127.0.0.1:N (8080), tracing every request to FILE "
                            + "(hummingbird-server.traces.jsonl) until SIGINT or SIGTERM."
                    )
                default: throw SampleError("unknown argument \(argument); --help explains")
                }
            }
        }
    }

    /// A message for the user, printed without a stack.
    struct SampleError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @main
    enum HummingbirdServer {
        static func main() async {
            do {
                let arguments = try ServerArguments(CommandLine.arguments)
                var logger = Logger(label: "HummingbirdServer")
                logger.logLevel = .warning
                var log: TraceLogSink?
                if arguments.traced {
                    let sink = try TraceLogSink(path: arguments.traceOut)
                    ChainTracing.bootstrap(Recorder(sink: sink))
                    log = sink
                }
                let app = Application(
                    router: makeRouter(),
                    configuration: .init(address: .hostname("127.0.0.1", port: arguments.port), serverName: "sample"),
                    logger: logger
                )
                try await app.runService()
                if let log {
                    try log.close()
                    let dropped = log.droppedCount
                    FileHandle.standardError.write(
                        Data(
                            "traces written to \(arguments.traceOut); \(dropped) dropped while the writer was behind\n"
                                .utf8
                        )
                    )
                }
            } catch {
                FileHandle.standardError.write(Data("HummingbirdServer: \(error)\n".utf8))
                exit(1)
            }
        }
    }
#else
    import Foundation

    @main
    enum HummingbirdServer {
        static func main() {
            FileHandle.standardError.write(
                Data(
                    "HummingbirdServer needs the Hummingbird trait: swift run --traits Hummingbird HummingbirdServer\n"
                        .utf8
                )
            )
            exit(2)
        }
    }
#endif
