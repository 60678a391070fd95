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
    import ServerSampleSupport
    import Hummingbird
    import Logging

    @main
    enum HummingbirdServer {
        static func main() async {
            do {
                let arguments = serverArguments(
                    program: "HummingbirdServer",
                    traceOut: "hummingbird-server.traces.jsonl"
                )
                var logger = Logger(label: "HummingbirdServer")
                logger.logLevel = .warning
                var log: TraceLogSink?
                if arguments.traced {
                    let sink = try TraceLogSink(path: arguments.traceOut)
                    ChainTracing.bootstrap(Recorder(sink: sink, sampling: arguments.sampling))
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
                    printError(
                        "traces written to \(arguments.traceOut); \(dropped) dropped while the writer was behind"
                    )
                }
            } catch {
                printError("HummingbirdServer: \(error)")
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
