#if GRPC
    import GRPCCore

    /// Messages as UTF-8 text: the sample needs no generated code.
    struct TextSerializer: MessageSerializer {
        func serialize<Bytes: GRPCContiguousBytes>(_ message: String) throws -> Bytes {
            Bytes(Array(message.utf8))
        }
    }

    /// Reads the messages ``TextSerializer`` writes.
    struct TextDeserializer: MessageDeserializer {
        func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> String {
            serializedMessageBytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The order store's own error: gRPC knows nothing of it.
    struct OrderNotFound: Error {}

    /// `orders.Orders`: `Get` answers an order by id (throws ``OrderNotFound`` for ids that start with `missing`);
    /// `Watch` streams three updates of an order, a millisecond apart.
    struct OrdersService: RegistrableRPCService {
        static let get = MethodDescriptor(fullyQualifiedService: "orders.Orders", method: "Get")
        static let watch = MethodDescriptor(fullyQualifiedService: "orders.Orders", method: "Watch")

        func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
            router.registerHandler(
                forMethod: Self.get,
                deserializer: TextDeserializer(),
                serializer: TextSerializer()
            ) { request, _ in
                let id = try await ServerRequest(stream: request).message
                if id.hasPrefix("missing") { throw OrderNotFound() }
                return StreamingServerResponse(single: ServerResponse(message: "order \(id): shipped"))
            }
            router.registerHandler(
                forMethod: Self.watch,
                deserializer: TextDeserializer(),
                serializer: TextSerializer()
            ) { request, _ in
                let id = try await ServerRequest(stream: request).message
                return StreamingServerResponse { writer in
                    for state in ["packed", "shipped", "delivered"] {
                        try await Task.sleep(for: .milliseconds(1))
                        try await writer.write("order \(id): \(state)")
                    }
                    return [:]
                }
            }
        }
    }

    /// Logs nothing, here: passes every RPC on, as a logging interceptor does.
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

    /// Refuses an RPC without an `authorization` value, answering it itself.
    struct AuthInterceptor: ServerInterceptor {
        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            guard request.metadata[stringValues: "authorization"].first(where: { _ in true }) != nil else {
                return StreamingServerResponse(error: RPCError(code: .unauthenticated, message: "no token"))
            }
            return try await next(request, context)
        }
    }

    /// Throws `resourceExhausted` for a caller over its quota (the `x-quota: exhausted` metadata stands for one).
    struct RateLimitInterceptor: ServerInterceptor {
        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            if request.metadata[stringValues: "x-quota"].first(where: { _ in true }) == "exhausted" {
                throw RPCError(code: .resourceExhausted, message: "over quota")
            }
            return try await next(request, context)
        }
    }

    /// Waits two milliseconds on a slow audit service before passing every RPC on: the one slow interceptor.
    struct AuditInterceptor: ServerInterceptor {
        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            try await Task.sleep(for: .milliseconds(2))
            return try await next(request, context)
        }
    }

    /// Turns the store's ``OrderNotFound``, thrown by the handler right after it, into a `notFound` refusal.
    struct ErrorMappingInterceptor: ServerInterceptor {
        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            do {
                return try await next(request, context)
            } catch is OrderNotFound {
                return StreamingServerResponse(error: RPCError(code: .notFound, message: "no such order"))
            }
        }
    }

    /// Gives every call a request id (`x-request-id`), on the client.
    struct RequestIDInterceptor: ClientInterceptor {
        let id: @Sendable () -> String

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            var request = request
            if request.metadata[stringValues: "x-request-id"].first(where: { _ in true }) == nil {
                request.metadata.addString(id(), forKey: "x-request-id")
            }
            return try await next(request, context)
        }
    }
#endif
