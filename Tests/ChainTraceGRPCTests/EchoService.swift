#if GRPC
    import GRPCCore

    /// Messages as UTF-8 text, so the tests need no generated code.
    struct TextSerializer: MessageSerializer {
        func serialize<Bytes: GRPCContiguousBytes>(_ message: String) throws -> Bytes {
            Bytes(Array(message.utf8))
        }
    }

    struct TextDeserializer: MessageDeserializer {
        func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> String {
            serializedMessageBytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// An app's own error, which gRPC knows nothing of (it answers it with `unknown`).
    struct DomainError: Error {}

    /// `echo.Echo`: `Get` answers `echo: <message>` (throws an `RPCError` for `throw` and a ``DomainError`` for
    /// `domain`, refuses for `refuse`); `Expand` streams
    /// one message per word of the request, waiting `wordDelay` before each (and throws at the word `fail`).
    struct EchoService: RegistrableRPCService {
        static let get = MethodDescriptor(fullyQualifiedService: "echo.Echo", method: "Get")
        static let expand = MethodDescriptor(fullyQualifiedService: "echo.Echo", method: "Expand")
        var wordDelay: Duration = .milliseconds(20)

        func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
            router.registerHandler(
                forMethod: Self.get,
                deserializer: TextDeserializer(),
                serializer: TextSerializer()
            ) { request, _ in
                let single = try await ServerRequest(stream: request)
                switch single.message {
                case "throw": throw RPCError(code: .invalidArgument, message: "cannot echo that")
                case "refuse": return StreamingServerResponse(error: RPCError(code: .failedPrecondition, message: "no"))
                case "domain": throw DomainError()
                default: return StreamingServerResponse(single: ServerResponse(message: "echo: \(single.message)"))
                }
            }
            let delay = wordDelay
            router.registerHandler(
                forMethod: Self.expand,
                deserializer: TextDeserializer(),
                serializer: TextSerializer()
            ) { request, _ in
                let single = try await ServerRequest(stream: request)
                let words = single.message.split(separator: " ").map(String.init)
                return StreamingServerResponse { writer in
                    for word in words {
                        try await Task.sleep(for: delay)
                        if word == "fail" { throw RPCError(code: .dataLoss, message: "stream broke") }
                        try await writer.write(word)
                    }
                    return [:]
                }
            }
        }
    }

    /// Passes every RPC on.
    struct RequestLogInterceptor: ServerInterceptor {
        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            try await next(request, context)
        }
    }

    /// Refuses an RPC without an `authorization` value (a response it makes itself); throws for `authorization: bad`.
    struct AuthInterceptor: ServerInterceptor {
        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            guard let token = request.metadata[stringValues: "authorization"].first(where: { _ in true }) else {
                return StreamingServerResponse(error: RPCError(code: .unauthenticated, message: "no token"))
            }
            if token == "bad" { throw RPCError(code: .permissionDenied, message: "bad token") }
            return try await next(request, context)
        }
    }

    /// Answers in place of an error from below: gRPC hands the interceptor right before the handler what the
    /// handler threw, and the others what was thrown below them as a refused response; this turns either into the
    /// message `recovered`.
    struct RecoveringInterceptor: ServerInterceptor {
        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            let response: StreamingServerResponse<Output>
            do {
                response = try await next(request, context)
            } catch let error as RPCError where error.code == .invalidArgument {
                response = StreamingServerResponse(error: error)
            }
            guard case .failure(let error) = response.accepted, error.code == .invalidArgument,
                let fallback = "recovered" as? Output
            else { return response }
            return StreamingServerResponse(single: ServerResponse(message: fallback))
        }
    }

    /// Adds a request id to every call.
    struct StampInterceptor: ClientInterceptor {
        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            var request = request
            request.metadata.addString("stamped", forKey: "x-stamp")
            return try await next(request, context)
        }
    }
#endif
