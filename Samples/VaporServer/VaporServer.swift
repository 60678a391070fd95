// A small Vapor 4 API traced with ChainTrace: one line in `configure` (`app.traceRequests()`) traces every request
// through Vapor's default middleware, the framework's CORS middleware and the app's own, none of them edited.
//
//   swift run --traits Vapor VaporServer [--port 8080] [--trace-out FILE] [--untraced]
//
// `run-under-load.sh` beside this file builds it, drives it with wrk on 127.0.0.1, and runs `chaintrace stats`,
// `render` and `report` on its log.
#if Vapor
    import ChainTrace
    import ChainTraceTraceLog
    import Foundation
    import Vapor

    /// The server's command line.
    struct ServerArguments {
        var port = 8080
        var traceOut = "vapor-server.traces.jsonl"
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
                        "usage: VaporServer [--port N] [--trace-out FILE] [--untraced]\n"
                            + "Serves the sample API on 127.0.0.1:N (8080), tracing every request to FILE "
                            + "(vapor-server.traces.jsonl) until SIGINT or SIGTERM."
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
    enum VaporServer {
        static func main() async {
            do {
                let arguments = try ServerArguments(CommandLine.arguments)
                var log: TraceLogSink?
                if arguments.traced {
                    let sink = try TraceLogSink(path: arguments.traceOut)
                    ChainTracing.bootstrap(Recorder(sink: sink))
                    log = sink
                }
                // Vapor's own command line, made from ours: serve on loopback.
                let environment = Environment(
                    name: "production",
                    arguments: ["VaporServer", "serve", "--hostname", "127.0.0.1", "--port", "\(arguments.port)"]
                )
                let app = try await Application.make(environment)
                do {
                    try configure(app)
                    try await app.execute()
                } catch {
                    try? await app.asyncShutdown()
                    throw error
                }
                try await app.asyncShutdown()
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
                FileHandle.standardError.write(Data("VaporServer: \(error)\n".utf8))
                exit(1)
            }
        }
    }
#else
    import Foundation

    @main
    enum VaporServer {
        static func main() {
            FileHandle.standardError.write(
                Data("VaporServer needs the Vapor trait: swift run --traits Vapor VaporServer\n".utf8)
            )
            exit(2)
        }
    }
#endif
