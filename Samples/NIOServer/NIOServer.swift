// A small HTTP/1 service written straight on SwiftNIO, traced with ChainTrace: one line in the child channel
// initializer (`traceEventsNow()`) traces every event through NIO's HTTP handlers and the app's own, none of them
// edited.
//
//   swift run --traits NIO NIOServer [--port 8080] [--trace-out FILE] [--sample N] [--untraced]
//
// `--sample N` traces one connection in N, every event of it; the others get no probes: nothing an event.
//
// `run-under-load.sh` beside this file builds it, drives it with wrk on 127.0.0.1, and runs `chaintrace stats`,
// `render` and `report` on its log.
#if NIO
    import ChainTrace
    import ChainTraceNIO
    import ChainTraceTraceLog
    import Dispatch
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import ServerSampleSupport

    @main
    enum NIOServer {
        static func main() {
            let arguments = serverArguments(program: "NIOServer", traceOut: "nio-server.traces.jsonl")
            do {
                var log: TraceLogSink?
                if arguments.traced {
                    let sink = try TraceLogSink(path: arguments.traceOut)
                    ChainTracing.bootstrap(Recorder(sink: sink))
                    log = sink
                }
                try serve(port: arguments.port, traced: arguments.traced ? arguments.sampling : nil)
                if let log {
                    try log.close()
                    printError(
                        "traces written to \(arguments.traceOut); \(log.droppedCount) dropped while the writer was behind"
                    )
                }
            } catch {
                printError("NIOServer: \(error)")
                exit(1)
            }
        }

        /// Serves the API on 127.0.0.1:`port` until SIGINT or SIGTERM, then closes every connection; traces the
        /// connections `traced` samples (`--sample N`: one connection in N, every event of it), or none.
        static func serve(port: Int, traced: Sampling?) throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
            let window = RateWindow(requestsPerSecond: 20_000)
            let server = try ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandlers([
                            RateLimitHandler(window: window), APIKeyHandler(), AuditHandler(), OrdersHandler(),
                            ErrorPageHandler(),
                        ])
                        if let traced { try channel.pipeline.traceEventsNow(channels: traced) }  // the one line
                    }
                }
                .bind(host: "127.0.0.1", port: port).wait()
            waitForSignal()
            try server.close().wait()
            try group.syncShutdownGracefully()
        }

        /// Blocks until the process is sent SIGINT or SIGTERM.
        static func waitForSignal() {
            let stop = DispatchSemaphore(value: 0)
            let sources = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { stop.signal() }
                source.resume()
                return source
            }
            stop.wait()
            sources.forEach { $0.cancel() }
        }
    }
#else
    import Foundation

    @main
    enum NIOServer {
        static func main() {
            FileHandle.standardError.write(
                Data("NIOServer needs the NIO trait: swift run --traits NIO NIOServer\n".utf8)
            )
            exit(2)
        }
    }
#endif
