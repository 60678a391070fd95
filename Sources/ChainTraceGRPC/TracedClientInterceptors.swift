#if GRPC
    import ChainTrace
    import GRPCCore

    /// The first link of a traced client chain, not a hop: starts the call's trace, runs the rest of the chain with
    /// it, and hands it to the recorder when the response's head (its metadata, or its refusal) has come back.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct ClientTraceStart: ClientInterceptor {
        let chain: String

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            let command = RPCCommand(
                method: context.descriptor,
                metadata: request.metadata,
                remotePeer: context.remotePeer
            )
            guard let trace = CarriedTrace.start(command: command, chain: chain) else {
                return try await next(request, context)
            }
            defer { trace.finish() }
            return try await RPCTrace.$current.withValue(RPCTrace(trace)) { try await next(request, context) }
        }
    }

    /// A client interceptor as a hop of the call's trace: from the request reaching it to the response's head
    /// coming back through it.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct TracedClientInterceptor: ClientInterceptor {
        /// The interceptor as the app gave it.
        let wrapped: any ClientInterceptor
        /// Its name in traces: its type's name without generic arguments.
        let name: String

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            guard let rpc = RPCTrace.current, rpc.trace.open(name) else {
                return try await wrapped.intercept(request: request, context: context, next: next)
            }
            let wentOn = WentOn()
            let response: StreamingClientResponse<Output>
            do {
                response = try await wrapped.intercept(request: request, context: context) { request, context in
                    wentOn.note()
                    let response = try await next(request, context)
                    if case .failure = response.accepted { wentOn.noteRefusal() }
                    return response
                }
            } catch {
                rpc.trace.close(threw: error)
                throw error
            }
            rpc.closeHop(refused: response.accepted.refusal, wentOn: wentOn, isEndpoint: false)
            return response
        }
    }

    /// The last link of a traced client chain: the call to the server through the transport, a hop named by the
    /// method (`echo.Echo/Get`). *Accepted* when the server's response head comes back, *failed* when the call
    /// throws or the server refuses.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct ClientCallHop: ClientInterceptor {
        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            guard let rpc = RPCTrace.current, rpc.trace.open(context.descriptor.fullyQualifiedMethod) else {
                return try await next(request, context)
            }
            let response: StreamingClientResponse<Output>
            do {
                response = try await next(request, context)
            } catch {
                rpc.trace.close(threw: error)
                throw error
            }
            rpc.closeHop(refused: response.accepted.refusal, wentOn: nil, isEndpoint: true)
            return response
        }
    }

    extension Result where Failure == RPCError {
        /// The error of a refused response, `nil` for an accepted one.
        var refusal: RPCError? {
            if case .failure(let error) = self { return error }
            return nil
        }
    }
#endif
