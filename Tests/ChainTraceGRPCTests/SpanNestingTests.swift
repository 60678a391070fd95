#if GRPC
    import ChainTrace
    import ChainTraceDistributedTracing
    import ChainTraceGRPC
    import ChainTraceTestSupport
    import ChainTraceTraceLog
    import Foundation
    import GRPCCore
    import GRPCInProcessTransport
    import InMemoryTracing
    import Testing
    import Tracing

    /// What a gRPC tracing interceptor (grpc-swift-extras' `ServerOTelTracingInterceptor`) does, with a tracer of the
    /// test's own unless none is given (then the bootstrapped one): a server span named by the method around the
    /// interceptors after it, its context bound as the current `ServiceContext` only while they run.
    struct RPCSpanInterceptor: ServerInterceptor {
        var tracer: InMemoryTracer?

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            let name = "rpc \(context.descriptor.fullyQualifiedMethod)"
            guard let tracer else {
                return try await withSpan(name, ofKind: .server) { _ in try await next(request, context) }
            }
            return try await tracer.withSpan(name, ofKind: .server) { _ in try await next(request, context) }
        }
    }

    /// A client interceptor's span around the call, as a client tracing interceptor makes one.
    struct CallSpanInterceptor: ClientInterceptor {
        let tracer: InMemoryTracer

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            try await tracer.withSpan("call \(context.descriptor.fullyQualifiedMethod)", ofKind: .client) { _ in
                try await next(request, context)
            }
        }
    }

    /// The status code of a refused RPC's error, `nil` for an answer.
    func errorCode(_ result: Result<String, RPCError>) -> RPCError.Code? {
        if case .failure(let error) = result { return error.code }
        return nil
    }

    /// The command spans in `spans` (`grpc…`), each with the span it hangs under.
    func commandSpansWithParents(_ spans: [FinishedInMemorySpan], chain: String = "grpc")
        -> [(command: FinishedInMemorySpan, parent: FinishedInMemorySpan?)]
    {
        spans.filter { $0.operationName.hasPrefix("\(chain) ") }.map { command in
            (command, spans.first { $0.spanID == command.parentSpanID })
        }
    }

    @Suite("gRPC: an RPC's chain spans nest under the app's RPC span", .tags(.concurrent))
    struct GRPCSpanNestingTests {
        /// A logging interceptor before the RPC span (its hop starts outside it), then the span, then authentication:
        /// accepted, refused and thrown RPCs each put their command span under their own RPC span, in its trace, with
        /// every hop under the command span.
        @Test func commandSpansAreChildrenOfTheRPCSpan() async throws {
            let tracer = InMemoryTracer()
            let server = GRPCTracing.server([
                RequestLogInterceptor(), RPCSpanInterceptor(tracer: tracer), AuthInterceptor(),
            ])
            try await ChainTracing.withRecorder(Recorder(sink: SpanTraceSink(tracer: tracer))) {
                let answers = try await withEcho(server: server) { client in
                    [
                        try await get(client, "hi", metadata: ["authorization": "good"]),
                        try await get(client, "hi"),
                        try await get(client, "throw", metadata: ["authorization": "good"]),
                    ]
                }
                #expect(answers.map(errorCode) == [nil, .unauthenticated, .invalidArgument])
            }
            let spans = tracer.finishedSpans
            let commands = commandSpansWithParents(spans)
            #expect(commands.count == 3, "\(spans.map { "\($0.operationName) ← \($0.parentSpanID ?? "-")" })")
            for (command, parent) in commands {
                #expect(parent?.operationName == "rpc echo.Echo/Get", "\(command.operationName)")
                #expect(parent?.kind == .server)
                #expect(command.traceID == parent?.traceID)
                #expect(descendants(of: command, in: spans).allSatisfy { $0.traceID == command.traceID })
            }
            let hopNames = commands.map { descendants(of: $0.command, in: spans).map(\.operationName) }
            #expect(
                hopNames.contains(["RequestLogInterceptor", "RPCSpanInterceptor", "AuthInterceptor", "echo.Echo/Get"])
            )
            #expect(hopNames.contains(["RequestLogInterceptor", "RPCSpanInterceptor", "AuthInterceptor"]))
            #expect(Set(commands.compactMap { $0.parent?.spanID }).count == 3)
        }

        /// The client's chain: its command span hangs under the span a client interceptor made around the call.
        @Test func clientCommandSpansAreChildrenOfTheCallSpan() async throws {
            let tracer = InMemoryTracer()
            let clientInterceptors = GRPCTracing.client([StampInterceptor(), CallSpanInterceptor(tracer: tracer)])
            try await ChainTracing.withRecorder(Recorder(sink: SpanTraceSink(tracer: tracer))) {
                let answer = try await withEcho(server: [], client: clientInterceptors) { client in
                    try await get(client, "hi")
                }
                #expect(answer == .success("echo: hi"))
            }
            let commands = commandSpansWithParents(tracer.finishedSpans, chain: "grpc-client")
            #expect(commands.count == 1)
            #expect(commands.first?.parent?.operationName == "call echo.Echo/Get")
            #expect(commands.first?.command.traceID == commands.first?.parent?.traceID)
        }

        /// With no span anywhere, an RPC's command span is at the top level, as before.
        @Test func withoutAnRPCSpanTheCommandSpanIsTopLevel() async throws {
            let tracer = InMemoryTracer()
            try await ChainTracing.withRecorder(Recorder(sink: SpanTraceSink(tracer: tracer))) {
                try await withEcho(server: GRPCTracing.server([RequestLogInterceptor()])) { client in
                    _ = try await get(client, "hi")
                }
            }
            let commands = commandSpansWithParents(tracer.finishedSpans)
            #expect(commands.count == 1)
            #expect(commands.first?.command.parentSpanID == nil)
        }

        /// RPCs in parallel through a pipeline (`GRPCTracing.server(pipeline:)`), each under its own RPC span, one
        /// streaming: every command span under its own RPC's span, none lost.
        @Test func concurrentRPCsNestUnderTheirOwnSpans() async throws {
            let tracer = InMemoryTracer()
            let pipeline: [ConditionalInterceptor<any ServerInterceptor>] = [
                .apply(RPCSpanInterceptor(tracer: tracer), to: .all),
                .apply(RequestLogInterceptor(), to: .all),
            ]
            let transport = InProcessTransport()
            let count = 100
            try await ChainTracing.withRecorder(Recorder(sink: SpanTraceSink(tracer: tracer))) {
                try await withGRPCServer(
                    transport: transport.server,
                    services: [EchoService(wordDelay: .zero)],
                    interceptorPipeline: GRPCTracing.server(pipeline: pipeline)
                ) { _ in
                    try await withGRPCClient(transport: transport.client) { client in
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            for index in 0..<count {
                                group.addTask {
                                    let answer = try await get(client, "\(index)")
                                    #expect(answer == .success("echo: \(index)"))
                                }
                            }
                            group.addTask {
                                try await client.serverStreaming(
                                    request: ClientRequest(message: "a b"),
                                    descriptor: EchoService.expand,
                                    serializer: TextSerializer(),
                                    deserializer: TextDeserializer(),
                                    options: .defaults
                                ) { response in
                                    for try await _ in response.messages {}
                                }
                            }
                            try await group.waitForAll()
                        }
                    }
                }
            }
            let commands = commandSpansWithParents(tracer.finishedSpans)
            #expect(commands.count == count + 1)
            #expect(commands.allSatisfy { $0.parent?.kind == .server && $0.command.traceID == $0.parent?.traceID })
            #expect(Set(commands.compactMap { $0.parent?.spanID }).count == count + 1)
            #expect(commands.contains { $0.command.operationName == "grpc echo.Echo/Expand" })
        }

        /// A trace log keeps each RPC's span (its `traceparent`), and the log's OTLP export puts each command under
        /// it: a tracer that propagates W3C Trace Context (as swift-otel's default propagator does) bootstrapped, in
        /// a process of its own (the bootstrapped tracer is process-wide).
        @Test func aTraceLogKeepsEachRPCsSpanForTheOTLPExport() async throws {
            let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                let tracer = W3CInMemoryTracer()
                InstrumentationSystem.bootstrap(tracer)
                let path = try TestFiles.newDirectory("grpc-traceparent").appendingPathComponent("rpcs.jsonl").path
                let log = try TraceLogSink(path: path)
                try await ChainTracing.withRecorder(Recorder(sink: log)) {
                    let server = GRPCTracing.server([RequestLogInterceptor(), RPCSpanInterceptor(), AuthInterceptor()])
                    try await withEcho(server: server) { client in
                        for index in 0..<10 {
                            let metadata: Metadata = index.isMultiple(of: 2) ? ["authorization": "good"] : [:]
                            _ = try await get(client, "\(index)", metadata: metadata)
                        }
                    }
                }
                try log.close()
                let complaints = requestSpanComplaints(logPath: path, spans: tracer.finishedSpans) { _ in
                    "rpc echo.Echo/Get"
                }
                for complaint in complaints { print(complaint) }
            }
            #expect(childComplaint(result).isEmpty, "\(childComplaint(result))")
        }
    }
#endif
