#if GRPC
    import ChainTrace
    import ChainTraceGRPC
    import ChainTraceTestSupport
    import ChainTraceTesting
    import GRPCCore
    import GRPCInProcessTransport
    import Testing

    /// What a generated interceptor does with an RPC.
    enum Script: CaseIterable, Sendable {
        /// Calls `next` and returns what came back (a throw from right below goes on up as a throw).
        case pass
        /// Answers with a refusal of its own, without `next`.
        case refuse
        /// Throws without `next`.
        case fail
        /// Calls `next`; turns a refusal or throw from below into the message `recovered`.
        case recover
        /// Calls `next`; turns a `DomainError` thrown right below it into a refusal `notFound`.
        case mapDomain
    }

    /// An interceptor that does what its script says.
    struct ScriptedInterceptor: ServerInterceptor {
        let script: Script

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            switch script {
            case .pass:
                return try await next(request, context)
            case .refuse:
                return StreamingServerResponse(error: RPCError(code: .aborted, message: "refused"))
            case .fail:
                throw RPCError(code: .dataLoss, message: "failed")
            case .recover:
                let response: StreamingServerResponse<Output>
                do {
                    response = try await next(request, context)
                } catch {
                    response = StreamingServerResponse(error: RPCError(code: .unknown, message: ""))
                }
                guard case .failure = response.accepted, let fallback = "recovered" as? Output else { return response }
                return StreamingServerResponse(single: ServerResponse(message: fallback))
            case .mapDomain:
                do {
                    return try await next(request, context)
                } catch is DomainError {
                    return StreamingServerResponse(error: RPCError(code: .notFound, message: "mapped"))
                }
            }
        }
    }

    /// What gRPC does with a generated chain, worked out by hand: the answer (a message, or a status code) and each
    /// hop's decision as the trace must show it.
    struct ReferenceRun {
        var answer = ""
        var hops: [String] = []

        /// What comes out of interceptor `index` (the handler past the last) for a handler told `message`.
        enum Result {
            case answer(String)
            case refusal(RPCError.Code, failure: Bool)
            case thrown(domain: Bool)
        }

        static func run(_ scripts: [Script], message: String) -> ReferenceRun {
            var reference = ReferenceRun()
            var decisions = [String](repeating: "", count: scripts.count + 1)
            var reached = 0
            func step(_ index: Int) -> Result {
                reached = max(reached, index + 1)
                guard index < scripts.count else {
                    switch message {
                    case "throw":
                        decisions[index] = "failed"
                        return .thrown(domain: false)
                    case "domain":
                        decisions[index] = "failed"
                        return .thrown(domain: true)
                    case "refuse":
                        decisions[index] = "failed"
                        return .refusal(.failedPrecondition, failure: true)
                    default:
                        decisions[index] = "accepted"
                        return .answer("echo: \(message)")
                    }
                }
                // gRPC turns what an interceptor throws into a refusal for the one before it.
                func converted(_ result: Result) -> Result {
                    guard case .thrown(let domain) = result else { return result }
                    return .refusal(domain ? .unknown : .invalidArgument, failure: true)
                }
                switch scripts[index] {
                case .pass:
                    let below = step(index + 1)
                    decisions[index] = "passed"
                    return converted(below)
                case .refuse:
                    decisions[index] = "accepted"
                    return .refusal(.aborted, failure: false)
                case .fail:
                    decisions[index] = "failed"
                    return .refusal(.dataLoss, failure: true)
                case .recover:
                    switch step(index + 1) {
                    case .answer(let text):
                        decisions[index] = "passed"
                        return .answer(text)
                    case .refusal(_, failure: false):
                        // The refusal was an answer (a hop below accepted the RPC): changing it is passing it on.
                        decisions[index] = "passed"
                        return .answer("recovered")
                    case .refusal, .thrown:
                        decisions[index] = "accepted"
                        return .answer("recovered")
                    }
                case .mapDomain:
                    let below = step(index + 1)
                    if case .thrown(domain: true) = below {
                        // A failure from below answered with another: the failure passed on, in another form (the
                        // trace names the handler, where it started).
                        decisions[index] = "passed"
                        return .refusal(.notFound, failure: true)
                    }
                    decisions[index] = "passed"
                    return converted(below)
                }
            }
            let result = step(0)
            switch result {
            case .answer(let text): reference.answer = text
            case .refusal(let code, _): reference.answer = "\(code)"
            case .thrown(let domain): reference.answer = domain ? "unknown" : "invalidArgument"
            }
            let names = Array(repeating: "ScriptedInterceptor", count: scripts.count) + ["echo.Echo/Get"]
            reference.hops = (0..<reached).map { "\(names[$0]):\(decisions[$0])" }
            // An answer is a response whose stream gRPC produces after the chain: a last hop of its own.
            if case .answer = result { reference.hops.append("echo.Echo/Get stream:continued") }
            return reference
        }
    }

    @Suite("gRPC: generated interceptor chains answer as untraced and trace as gRPC ran them", .tags(.concurrent))
    struct GeneratedChainTests {
        static let messages = ["hi", "throw", "domain", "refuse"]

        /// Calls `Get` with `message` through `interceptors` (or a pipeline of them): the answer, and the traces.
        static func call(
            _ message: String,
            server interceptors: [any ServerInterceptor]? = nil,
            pipeline: [ConditionalInterceptor<any ServerInterceptor>]? = nil
        ) async throws -> (String, [Trace]) {
            var answer = ""
            let traces = try await captureTraces {
                let transport = InProcessTransport()
                let body: (GRPCServer<InProcessTransport.Server>) async throws -> Void = { _ in
                    try await withGRPCClient(transport: transport.client) { client in
                        switch try await get(client, message) {
                        case .success(let text): answer = text
                        case .failure(let error): answer = "\(error.code)"
                        }
                    }
                }
                if let pipeline {
                    try await withGRPCServer(
                        transport: transport.server,
                        services: [EchoService()],
                        interceptorPipeline: pipeline,
                        handleServer: body
                    )
                } else {
                    try await withGRPCServer(
                        transport: transport.server,
                        services: [EchoService()],
                        interceptors: interceptors ?? [],
                        handleServer: body
                    )
                }
            }
            return (answer, traces)
        }

        @Test(arguments: SeededGenerator.seeds(40))
        func tracedChainsAnswerAsUntracedAndMatchTheReference(seed: UInt64) async throws {
            var random = SeededGenerator(seed: seed)
            let scripts = (0..<Int.random(in: 0...5, using: &random)).map { _ in random.pick(Script.allCases) }
            let interceptors: [any ServerInterceptor] = scripts.map(ScriptedInterceptor.init)
            for message in Self.messages {
                let reference = ReferenceRun.run(scripts, message: message)
                let (untraced, none) = try await Self.call(message, server: interceptors)
                #expect(none.isEmpty)
                let (listed, listTraces) = try await Self.call(message, server: GRPCTracing.server(interceptors))
                let (piped, pipeTraces) = try await Self.call(
                    message,
                    pipeline: GRPCTracing.server(pipeline: interceptors.map { .apply($0, to: .all) })
                )
                let context = "seed \(seed), \(scripts), \(message)"
                #expect(untraced == reference.answer, "\(context): the reference is wrong")
                #expect(listed == untraced, "\(context)")
                #expect(piped == untraced, "\(context)")
                for traces in [listTraces, pipeTraces] {
                    let trace = try #require(traces.first, "\(context)")
                    #expect(traces.count == 1, "\(context)")
                    #expect(hops(trace) == reference.hops, "\(context)")
                    expectRPCHopsAddUp(trace)
                }
            }
        }
    }
#endif
