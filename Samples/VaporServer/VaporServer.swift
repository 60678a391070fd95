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
    import ServerSampleSupport
    import Vapor

    @main
    enum VaporServer {
        static func main() async {
            do {
                let arguments = serverArguments(program: "VaporServer", traceOut: "vapor-server.traces.jsonl")
                var log: TraceLogSink?
                if arguments.traced {
                    let sink = try TraceLogSink(path: arguments.traceOut)
                    ChainTracing.bootstrap(Recorder(sink: sink, sampling: arguments.sampling))
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
                    printError(
                        "traces written to \(arguments.traceOut); \(dropped) dropped while the writer was behind"
                    )
                }
            } catch {
                printError("VaporServer: \(error)")
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
