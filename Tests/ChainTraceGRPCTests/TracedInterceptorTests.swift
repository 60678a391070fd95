#if GRPC
    import ChainTrace
    import ChainTraceGRPC
    import ChainTraceTestSupport
    import ChainTraceTesting
    import GRPCCore
    import GRPCInProcessTransport
    import Testing

    /// Runs `body` with a client of an in-process `EchoService` server whose interceptors are `server` and whose
    /// client's are `client` (each list as given: trace it or not).
    func withEcho<Result: Sendable>(
        server: [any ServerInterceptor],
        client: [any ClientInterceptor] = [],
        service: EchoService = EchoService(),
        _ body: (GRPCClient<InProcessTransport.Client>) async throws -> Result
    ) async throws -> Result {
        let transport = InProcessTransport()
        return try await withGRPCServer(transport: transport.server, services: [service], interceptors: server) { _ in
            try await withGRPCClient(transport: transport.client, interceptors: client) { client in
                try await body(client)
            }
        }
    }

    /// Calls `echo.Echo/Get` with `message` and `metadata`: the answer, or the error status.
    func get(
        _ client: GRPCClient<InProcessTransport.Client>,
        _ message: String,
        metadata: Metadata = [:]
    ) async throws -> Result<String, RPCError> {
        try await client.unary(
            request: ClientRequest(message: message, metadata: metadata),
            descriptor: EchoService.get,
            serializer: TextSerializer(),
            deserializer: TextDeserializer(),
            options: .defaults
        ) { response in
            response.accepted.flatMap { $0.message }
        }
    }

    /// Checks a traced RPC: the chain's hops nest one in the other, their self times adding up to the first one's
    /// inclusive time; an accepted response's stream, when there is one, is a last hop at the top, after them.
    func expectRPCHopsAddUp(_ trace: Trace, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let last = trace.hops.last, last.handler.hasSuffix(" stream") else {
            return expectNestedHopsAddUp(trace, sourceLocation: sourceLocation)
        }
        let chain = trace.hops.dropLast()
        for (index, hop) in chain.enumerated() {
            #expect(hop.parent == (index == 0 ? nil : index - 1), "\(trace)", sourceLocation: sourceLocation)
        }
        let selfTotal = chain.reduce(Int64(0)) { $0 + Int64($1.selfDuration) }
        let first = trace.hops[0]
        #expect(abs(selfTotal - Int64(first.inclusiveDuration)) <= Int64(chain.count), sourceLocation: sourceLocation)
        #expect(last.parent == nil, "\(trace)", sourceLocation: sourceLocation)
        #expect(last.startOffset >= first.startOffset + first.inclusiveDuration, sourceLocation: sourceLocation)
        #expect(last.selfDuration == last.inclusiveDuration, sourceLocation: sourceLocation)
        #expect(last.startOffset + last.inclusiveDuration <= trace.duration, sourceLocation: sourceLocation)
    }

    /// The hops of `trace` with their decisions.
    func hops(_ trace: Trace) -> [String] {
        trace.hops.map { "\($0.handler):\($0.decision)" }
    }

    @Suite("gRPC: GRPCTracing traces every interceptor and the handler", .tags(.concurrent))
    struct TracedInterceptorTests {
        static let interceptors: [any ServerInterceptor] = [
            RequestLogInterceptor(), AuthInterceptor(), RecoveringInterceptor(),
        ]

        /// One unary call of each kind, its answer and the server's trace of it.
        struct Case: Sendable, CustomStringConvertible {
            let message: String
            let metadata: Metadata
            /// The message answered, or the error status's code.
            let answer: String
            let hops: [String]
            let outcome: String
            var description: String { "\(message) \(metadata)" }
        }

        static let cases: [Case] = [
            Case(
                message: "hi",
                metadata: ["authorization": "good", "x-request-id": "r1"],
                answer: "echo: hi",
                hops: [
                    "RequestLogInterceptor:passed", "AuthInterceptor:passed", "RecoveringInterceptor:passed",
                    "echo.Echo/Get:accepted", "echo.Echo/Get stream:continued",
                ],
                outcome: "accepted by echo.Echo/Get"
            ),
            Case(
                message: "hi",
                metadata: ["x-request-id": "r2"],
                answer: "unauthenticated",
                hops: ["RequestLogInterceptor:passed", "AuthInterceptor:accepted"],
                outcome: "accepted by AuthInterceptor"
            ),
            Case(
                message: "hi",
                metadata: ["authorization": "bad", "x-request-id": "r3"],
                answer: "permissionDenied",
                hops: ["RequestLogInterceptor:passed", "AuthInterceptor:failed"],
                outcome: "failed at AuthInterceptor"
            ),
            Case(
                message: "throw",
                metadata: ["authorization": "good", "x-request-id": "r4"],
                answer: "recovered",
                hops: [
                    "RequestLogInterceptor:passed", "AuthInterceptor:passed", "RecoveringInterceptor:accepted",
                    "echo.Echo/Get:failed", "echo.Echo/Get stream:continued",
                ],
                outcome: "accepted by RecoveringInterceptor"
            ),
            Case(
                message: "refuse",
                metadata: ["authorization": "good", "x-request-id": "r5"],
                answer: "failedPrecondition",
                hops: [
                    "RequestLogInterceptor:passed", "AuthInterceptor:passed", "RecoveringInterceptor:passed",
                    "echo.Echo/Get:failed",
                ],
                outcome: "failed at echo.Echo/Get"
            ),
        ]

        @Test("each kind of call: its answer, path, decisions and times", arguments: cases)
        func eachKindOfCall(_ expected: Case) async throws {
            var answer: Result<String, RPCError>?
            let traces = try await captureTraces {
                answer = try await withEcho(server: GRPCTracing.server(Self.interceptors)) { client in
                    try await get(client, expected.message, metadata: expected.metadata)
                }
            }
            let answered = answer.map { answer in
                switch answer {
                case .success(let message): message
                case .failure(let error): "\(error.code)"
                }
            }
            #expect(answered == expected.answer)
            let trace = try #require(traces.first)
            #expect(traces.count == 1)
            #expect(trace.chain == "grpc")
            #expect(trace.commandKind == "echo.Echo/Get")
            #expect(trace.commandID == expected.metadata[stringValues: "x-request-id"].first(where: { _ in true }))
            #expect(hops(trace) == expected.hops, "\(trace)")
            #expect(trace.outcome.description.hasPrefix(expected.outcome), "\(trace.outcome)")
            expectRPCHopsAddUp(trace)
        }

        @Test("a refusal made without going on records its status as the hop's reason")
        func refusalReason() async throws {
            let traces = try await captureTraces {
                _ = try await withEcho(server: GRPCTracing.server(Self.interceptors)) { client in
                    try await get(client, "hi")
                }
            }
            let auth = try #require(traces.first?.hops.last)
            #expect(auth.handler == "AuthInterceptor")
            #expect(auth.reason == "unauthenticated: no token")
        }

        @Test("a streamed response is a hop of its own, after the chain: the handler's stream, timed")
        func streamingIsTimed() async throws {
            let words = 4
            let delay = Duration.milliseconds(15)
            var received: [String] = []
            let traces = try await captureTraces {
                received = try await withEcho(
                    server: GRPCTracing.server(Self.interceptors),
                    service: EchoService(wordDelay: delay)
                ) { client in
                    try await client.serverStreaming(
                        request: ClientRequest(message: "a b c d", metadata: ["authorization": "good"]),
                        descriptor: EchoService.expand,
                        serializer: TextSerializer(),
                        deserializer: TextDeserializer(),
                        options: .defaults
                    ) { response in
                        var words: [String] = []
                        for try await word in response.messages { words.append(word) }
                        return words
                    }
                }
            }
            #expect(received == ["a", "b", "c", "d"])
            let trace = try #require(traces.first)
            #expect(
                hops(trace) == [
                    "RequestLogInterceptor:passed", "AuthInterceptor:passed", "RecoveringInterceptor:passed",
                    "echo.Echo/Expand:accepted", "echo.Echo/Expand stream:continued",
                ]
            )
            #expect(trace.outcome == .accepted(by: "echo.Echo/Expand"))
            let stream = try #require(trace.hops.last)
            let streamed = UInt64((delay * words) / .nanoseconds(1))
            #expect(stream.selfDuration >= streamed, "the stream's hop holds the time spent producing it: \(trace)")
            // The chain returned the stream without producing it: its hops took none of that time.
            #expect(trace.hops[0].inclusiveDuration < streamed, "\(trace)")
            #expect(trace.duration >= streamed)
            expectRPCHopsAddUp(trace)
        }

        @Test("a stream that fails while it is produced fails the RPC at its stream hop")
        func failingStream() async throws {
            let traces = await captureTraces {
                _ = try? await withEcho(server: GRPCTracing.server([RequestLogInterceptor()])) { client in
                    try await client.serverStreaming(
                        request: ClientRequest(message: "a fail c"),
                        descriptor: EchoService.expand,
                        serializer: TextSerializer(),
                        deserializer: TextDeserializer(),
                        options: .defaults
                    ) { response in
                        for try await _ in response.messages {}
                    }
                }
            }
            let trace = try #require(traces.first)
            #expect(
                hops(trace) == [
                    "RequestLogInterceptor:passed", "echo.Echo/Expand:accepted", "echo.Echo/Expand stream:failed",
                ]
            )
            #expect(trace.outcome.description.hasPrefix("failed at echo.Echo/Expand stream"), "\(trace.outcome)")
        }

        @Test("concurrent calls: each its own trace, none mixed, none lost")
        func concurrentCalls() async throws {
            let calls = 300
            let traces = try await captureTraces {
                try await withEcho(server: GRPCTracing.server(Self.interceptors)) { client in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for number in 0..<calls {
                            group.addTask {
                                // Every third is refused by AuthInterceptor.
                                var metadata: Metadata = ["x-request-id": "call-\(number)"]
                                if number % 3 != 0 { metadata.addString("good", forKey: "authorization") }
                                let answer = try await get(client, "n\(number)", metadata: metadata)
                                if number % 3 != 0 {
                                    #expect((try? answer.get()) == "echo: n\(number)")
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
            }
            #expect(traces.count == calls)
            var seen: Set<String> = []
            for trace in traces {
                let id = try #require(trace.commandID)
                #expect(seen.insert(id).inserted, "\(id) traced twice")
                let number = Int(id.dropFirst("call-".count)) ?? -1
                let expected = number % 3 == 0 ? 2 : 5
                #expect(trace.hops.count == expected, "\(id): \(hops(trace))")
                expectRPCHopsAddUp(trace)
            }
            #expect(seen.count == calls)
        }

        @Test("a client's interceptors and its call to the server are a trace of their own")
        func clientSide() async throws {
            let traces = try await captureTraces {
                _ = try await withEcho(
                    server: GRPCTracing.server(Self.interceptors),
                    client: GRPCTracing.client([StampInterceptor()])
                ) { client in
                    (
                        try await get(client, "hi", metadata: ["authorization": "good"]),
                        try await get(client, "hi")
                    )
                }
            }
            let client = traces.filter { $0.chain == "grpc-client" }
            let server = traces.filter { $0.chain == "grpc" }
            #expect(client.count == 2 && server.count == 2)
            #expect(client.map(hops).contains(["StampInterceptor:passed", "echo.Echo/Get (call):accepted"]))
            #expect(client.map(hops).contains(["StampInterceptor:passed", "echo.Echo/Get (call):failed"]))
            #expect(client.contains { $0.outcome.description.hasPrefix("failed at echo.Echo/Get (call)") })
            // The server saw the metadata the client's interceptor added, in its command's payload when captured.
            #expect(server.allSatisfy { $0.commandKind == "echo.Echo/Get" })
        }

        @Test("an interceptor applied to some methods only is a hop of their calls only")
        func conditionalPipeline() async throws {
            let pipeline: [ConditionalInterceptor<any ServerInterceptor>] = [
                .apply(RequestLogInterceptor(), to: .all),
                .apply(AuthInterceptor(), to: .methods([EchoService.expand])),
            ]
            let transport = InProcessTransport()
            let traces = try await captureTraces {
                try await withGRPCServer(
                    transport: transport.server,
                    services: [EchoService(wordDelay: .zero)],
                    interceptorPipeline: GRPCTracing.server(pipeline: pipeline)
                ) { _ in
                    try await withGRPCClient(transport: transport.client) { client in
                        _ = try await get(client, "hi")
                        _ = try await client.serverStreaming(
                            request: ClientRequest(message: "a"),
                            descriptor: EchoService.expand,
                            serializer: TextSerializer(),
                            deserializer: TextDeserializer(),
                            options: .defaults
                        ) { _ in () }
                    }
                }
            }
            #expect(
                traces.map(hops).contains([
                    "RequestLogInterceptor:passed", "echo.Echo/Get:accepted", "echo.Echo/Get stream:continued",
                ])
            )
            #expect(traces.map(hops).contains(["RequestLogInterceptor:passed", "AuthInterceptor:accepted"]))
        }

        @Test("payloads: the metadata, never credentials; only when captured")
        func payloads() async throws {
            let metadata: Metadata = ["authorization": "secret", "cookie": "c=1", "x-tenant": "blue"]
            let traces = try await captureTraces(payloads: .captured) {
                _ = try await withEcho(server: GRPCTracing.server(Self.interceptors)) { client in
                    try await get(client, "hi", metadata: metadata)
                }
            }
            let payload = try #require(traces.first?.payload)
            let text = "\(payload)"
            #expect(text.contains("blue") && text.contains("echo.Echo/Get"), "\(text)")
            #expect(!text.contains("secret") && !text.contains("c=1"), "\(text)")
            let plain = try await captureTraces {
                _ = try await withEcho(server: GRPCTracing.server(Self.interceptors)) { client in
                    try await get(client, "hi", metadata: metadata)
                }
            }
            #expect(plain.first?.payload == nil)
        }
    }
#endif
