#if GRPC
    import ChainTrace
    @testable import ChainTraceGRPC
    import ChainTraceTestSupport
    import ChainTraceTesting
    import GRPCCore
    import GRPCInProcessTransport
    import Synchronization
    import Testing

    /// A traced pipeline picks each method's interceptors itself, from tests gRPC keeps private: checked here against
    /// the interceptors gRPC's own server and client run for the same pipelines, untraced.
    @Suite("gRPC: a traced pipeline runs the interceptors gRPC would, for every kind of subject", .tags(.concurrent))
    struct PipelineChainsTests {
        static let services = (0..<3).map { ServiceDescriptor(fullyQualifiedService: "pkg.Service\($0)") }
        static let methods = services.flatMap { service in
            (0..<3).map { MethodDescriptor(service: service, method: "Method\($0)") }
        }

        /// The order in which interceptors ran, by their number in the pipeline.
        final class RunLog: Sendable {
            private let entries = Mutex<[Int]>([])
            func note(_ index: Int) { entries.withLock { $0.append(index) } }
            func take() -> [Int] {
                entries.withLock { entries in
                    defer { entries = [] }
                    return entries
                }
            }
        }

        struct MarkingServerInterceptor: ServerInterceptor {
            let index: Int
            let log: RunLog
            func intercept<Input: Sendable, Output: Sendable>(
                request: StreamingServerRequest<Input>,
                context: ServerContext,
                next:
                    @Sendable (StreamingServerRequest<Input>, ServerContext) async throws ->
                    StreamingServerResponse<Output>
            ) async throws -> StreamingServerResponse<Output> {
                log.note(index)
                return try await next(request, context)
            }
        }

        struct MarkingClientInterceptor: ClientInterceptor {
            let index: Int
            let log: RunLog
            func intercept<Input: Sendable, Output: Sendable>(
                request: StreamingClientRequest<Input>,
                context: ClientContext,
                next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
            ) async throws -> StreamingClientResponse<Output> {
                log.note(index)
                return try await next(request, context)
            }
        }

        /// Serves every method of ``methods``, answering `ok`.
        struct AnyMethodService: RegistrableRPCService {
            func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
                for method in PipelineChainsTests.methods {
                    router.registerHandler(
                        forMethod: method,
                        deserializer: TextDeserializer(),
                        serializer: TextSerializer()
                    ) { _, _ in StreamingServerResponse(single: ServerResponse(message: "ok")) }
                }
            }
        }

        /// A subject of every kind gRPC has, naming some of ``services`` and ``methods``.
        static func subject<Interceptor>(_ random: inout SeededGenerator) -> ConditionalInterceptor<Interceptor>.Subject
        {
            let someServices = Set(services.filter { _ in Bool.random(using: &random) })
            let someMethods = Set(methods.filter { _ in random.next() % 4 == 0 })
            switch random.next() % 6 {
            case 0: return .all
            case 1: return .services(someServices)
            case 2: return .methods(someMethods)
            case 3: return .only(services: someServices, methods: someMethods)
            case 4: return .allExcluding(services: someServices, methods: someMethods)
            default:
                let digit = Character(String(random.next() % 3))
                return .allMatching { $0.method.last == digit }
            }
        }

        /// Calls every method once, each twice over: the interceptors that ran for each, by method.
        static func run(
            server: [ConditionalInterceptor<any ServerInterceptor>],
            client: [ConditionalInterceptor<any ClientInterceptor>],
            serverLog: RunLog,
            clientLog: RunLog
        ) async throws -> [(server: [Int], client: [Int])] {
            let transport = InProcessTransport()
            return try await withGRPCServer(
                transport: transport.server,
                services: [AnyMethodService()],
                interceptorPipeline: server
            ) { _ in
                try await withGRPCClient(transport: transport.client, interceptorPipeline: client) { grpc in
                    var ran: [(server: [Int], client: [Int])] = []
                    for method in methods + methods {
                        let answer = try await grpc.unary(
                            request: ClientRequest(message: "hi"),
                            descriptor: method,
                            serializer: TextSerializer(),
                            deserializer: TextDeserializer(),
                            options: .defaults
                        ) { try $0.message }
                        #expect(answer == "ok")
                        ran.append((serverLog.take(), clientLog.take()))
                    }
                    return ran
                }
            }
        }

        @Test(arguments: SeededGenerator.seeds(12))
        func tracedPipelinesRunWhatGRPCRuns(seed: UInt64) async throws {
            var random = SeededGenerator(seed: seed)
            let serverLog = RunLog()
            let clientLog = RunLog()
            let count = Int.random(in: 0...6, using: &random)
            let server: [ConditionalInterceptor<any ServerInterceptor>] = (0..<count).map {
                .apply(MarkingServerInterceptor(index: $0, log: serverLog), to: Self.subject(&random))
            }
            let client: [ConditionalInterceptor<any ClientInterceptor>] = (0..<count).map {
                .apply(MarkingClientInterceptor(index: $0, log: clientLog), to: Self.subject(&random))
            }
            let untraced = try await Self.run(
                server: server,
                client: client,
                serverLog: serverLog,
                clientLog: clientLog
            )
            // Picked without running anything, as a traced pipeline picks them.
            let serverChains = try #require(PipelineChains(server) { $0.count })
            let clientChains = try #require(PipelineChains(client) { $0.count })
            for (method, ran) in zip(Self.methods + Self.methods, untraced) {
                let pickedServer = serverChains.interceptors(for: method).map {
                    ($0 as! MarkingServerInterceptor).index
                }
                let pickedClient = clientChains.interceptors(for: method).map {
                    ($0 as! MarkingClientInterceptor).index
                }
                #expect(pickedServer == ran.server, "\(method)")
                #expect(pickedClient == ran.client, "\(method)")
            }
            // Traced, the same interceptors run, each a hop of its call's trace.
            var traced: [(server: [Int], client: [Int])] = []
            let traces = try await captureTraces {
                traced = try await Self.run(
                    server: GRPCTracing.server(pipeline: server),
                    client: GRPCTracing.client(pipeline: client),
                    serverLog: serverLog,
                    clientLog: clientLog
                )
            }
            #expect(traced.map(\.server) == untraced.map(\.server))
            #expect(traced.map(\.client) == untraced.map(\.client))
            for (method, ran) in zip(Self.methods + Self.methods, untraced) {
                let kind = "\(method.service.fullyQualifiedService)/\(method.method)"
                let serverTrace = try #require(traces.first { $0.chain == "grpc" && $0.commandKind == kind })
                let clientTrace = try #require(traces.first { $0.chain == "grpc-client" && $0.commandKind == kind })
                #expect(serverTrace.hops.filter { $0.handler == "MarkingServerInterceptor" }.count == ran.server.count)
                #expect(clientTrace.hops.filter { $0.handler == "MarkingClientInterceptor" }.count == ran.client.count)
            }
            #expect(traces.count == 2 * 2 * Self.methods.count)
        }
    }
#endif
