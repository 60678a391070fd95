// A small gRPC service traced with ChainTrace: one line (`GRPCTracing.server` where the server's interceptors are
// given) traces every RPC through the interceptors and the handler, none of them edited; with --trace-client its
// client's interceptors are traced the same way (`GRPCTracing.client`), into the same log. The server and its client
// run in one process, over grpc-swift's in-process transport (over HTTP/2 on 127.0.0.1 as Examples/GRPCOverHTTP2
// builds it), the client calling with `--concurrency` calls in flight.
//
//   swift run --traits GRPC GRPCService [--calls N] [--concurrency C] [--trace-out FILE] [--trace-client]
//
// `run.sh` beside this file runs it and `chaintrace stats`, `render` and `report` on its log.
#if GRPC
    import ChainTrace
    import ChainTraceGRPC
    import ChainTraceTraceLog
    import Foundation
    import GRPCCore
    import GRPCInProcessTransport
    #if canImport(ServerSampleSupport)
        import ServerSampleSupport  // Examples/GRPCOverHTTP2 compiles it into the sample's module
    #endif

    /// The command line: `[--calls N] [--concurrency C] [--trace-out FILE] [--trace-client]`.
    struct Arguments {
        var calls = 2_000
        var concurrency = 16
        var traceOut = "grpc-service.traces.jsonl"
        var tracesClient = false

        init(_ arguments: [String]) throws(SampleError) {
            var rest = arguments.dropFirst()[...]
            func count(after flag: String) throws(SampleError) -> Int {
                guard let value = rest.popFirst(), let number = Int(value), (1...10_000_000).contains(number) else {
                    throw SampleError("\(flag) needs a number from 1 to 10000000")
                }
                return number
            }
            while let argument = rest.popFirst() {
                switch argument {
                case "--calls": calls = try count(after: argument)
                case "--concurrency": concurrency = try count(after: argument)
                case "--trace-client": tracesClient = true
                case "--trace-out":
                    guard let value = rest.popFirst() else { throw SampleError("--trace-out needs a file") }
                    traceOut = value
                case "--help", "-h":
                    throw SampleError(
                        "usage: GRPCService [--calls N] [--concurrency C] [--trace-out FILE] [--trace-client]\n"
                            + "Serves orders.Orders in process and calls it N times (2000), C calls in flight (16), "
                            + "tracing the server's interceptors to FILE (grpc-service.traces.jsonl), and the "
                            + "client's too (chain grpc-client) with --trace-client.",
                        isUsage: true
                    )
                default: throw SampleError("unknown argument \(argument); --help explains")
                }
            }
        }
    }

    /// Call `number`'s method, request and metadata: an eighth without a token, an eighth over quota, an eighth for
    /// a missing order, an eighth watching an order's updates, the rest reading an order.
    func call(_ number: Int) -> (method: MethodDescriptor, id: String, metadata: Metadata) {
        var metadata: Metadata = ["authorization": "Bearer sample"]
        var method = OrdersService.get
        var id = "\(number)"
        switch number % 8 {
        case 0: metadata = [:]
        case 1: metadata.addString("exhausted", forKey: "x-quota")
        case 2: id = "missing-\(number)"
        case 3: method = OrdersService.watch
        default: break
        }
        metadata.addString("call-\(number)", forKey: "x-request-id")
        return (method, id, metadata)
    }

    @main
    enum GRPCService {
        static func main() async {
            let arguments: Arguments
            do {
                arguments = try Arguments(CommandLine.arguments)
            } catch {
                if error.isUsage {
                    print(error.description)
                    exit(0)
                }
                printError("GRPCService: \(error)")
                exit(2)
            }
            do {
                let log = try TraceLogSink(path: arguments.traceOut)
                ChainTracing.bootstrap(Recorder(sink: log))
                let answered = try await run(arguments)
                try log.close()
                print("\(arguments.calls) calls: \(answered) answered, \(arguments.calls - answered) refused")
                printError(
                    "traces written to \(arguments.traceOut); \(log.droppedCount) dropped while the writer was behind"
                )
            } catch {
                printError("GRPCService: \(error)")
                exit(1)
            }
        }

        /// Serves the service and makes the calls — over grpc-swift's in-process transport, or over HTTP/2 on
        /// 127.0.0.1 when built by `Examples/GRPCOverHTTP2` — and returns how many were answered.
        static func run(_ arguments: Arguments) async throws -> Int {
            #if CHAINTRACE_HTTP2
                return try await serveOverHTTP2(arguments)
            #else
                let transport = InProcessTransport()
                return try await serveAndCall(arguments, server: transport.server) { _ in transport.client }
            #endif
        }

        /// Serves the service on `serverTransport` and makes the calls through the client transport `clientTransport`
        /// makes for the running server: how many were answered.
        static func serveAndCall<Server: ServerTransport, Client: ClientTransport>(
            _ arguments: Arguments,
            server serverTransport: Server,
            client clientTransport: (GRPCServer<Server>) async throws -> Client
        ) async throws -> Int {
            let server = GRPCTracing.server([
                RequestLogInterceptor(), AuthInterceptor(), RateLimitInterceptor(), AuditInterceptor(),
                ErrorMappingInterceptor(),
            ])
            let requestID: [any ClientInterceptor] = [RequestIDInterceptor { UUID().uuidString }]
            let client = arguments.tracesClient ? GRPCTracing.client(requestID) : requestID
            return try await withGRPCServer(
                transport: serverTransport,
                services: [OrdersService()],
                interceptors: server
            ) { running in
                let transport = try await clientTransport(running)
                return try await withGRPCClient(transport: transport, interceptors: client) { client in
                    try await withThrowingTaskGroup(of: Bool.self) { group in
                        var next = 0
                        var answered = 0
                        func start() {
                            let (method, id, metadata) = call(next)
                            next += 1
                            group.addTask { try await send(client, method, id, metadata) }
                        }
                        while next < min(arguments.concurrency, arguments.calls) { start() }
                        while let ok = try await group.next() {
                            if ok { answered += 1 }
                            if next < arguments.calls { start() }
                        }
                        return answered
                    }
                }
            }
        }

        /// Makes one call: whether it was answered.
        static func send<Transport: ClientTransport>(
            _ client: GRPCClient<Transport>,
            _ method: MethodDescriptor,
            _ id: String,
            _ metadata: Metadata
        ) async throws -> Bool {
            let request = ClientRequest(message: id, metadata: metadata)
            if method == OrdersService.watch {
                return try await client.serverStreaming(
                    request: request,
                    descriptor: method,
                    serializer: TextSerializer(),
                    deserializer: TextDeserializer(),
                    options: .defaults
                ) { response in
                    var updates = 0
                    for try await _ in response.messages { updates += 1 }
                    return updates == 3
                }
            }
            return try await client.unary(
                request: request,
                descriptor: method,
                serializer: TextSerializer(),
                deserializer: TextDeserializer(),
                options: .defaults
            ) { response in
                (try? response.message) != nil
            }
        }
    }
#else
    import Foundation

    @main
    enum GRPCService {
        static func main() {
            FileHandle.standardError.write(
                Data("GRPCService needs the GRPC trait: swift run --traits GRPC GRPCService\n".utf8)
            )
            exit(2)
        }
    }
#endif
