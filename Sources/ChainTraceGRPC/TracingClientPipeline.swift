#if GRPC
    import ChainTrace
    import GRPCCore

    /// A client pipeline of `ConditionalInterceptor`s, traced: each interceptor stays one of gRPC's, wrapped as a hop
    /// (``PipelineClientHop``), between a first link that starts the call's trace and binds it to the task (this)
    /// and a last one that is the call's hop (``PipelineCallHop``).
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct PipelineClientTraceStart: ClientInterceptor {
        let chain: String

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            guard ChainTracing.mayRecord else { return try await next(request, context) }
            guard let hops = RPCHops.start(request, context, responding: Output.self, chain: chain) else {
                return try await next(request, context)
            }
            defer { hops.finish() }
            return try await RPCHops.$current.withValue(hops) { try await next(request, context) }
        }
    }

    /// An interceptor of a traced client pipeline, as a hop of the call's trace bound to the task.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct PipelineClientHop: ClientInterceptor {
        let wrapped: any ClientInterceptor
        let name: String
        /// Its place in the pipeline.
        let index: Int

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            guard let hops = RPCHops.current, hops.isOwnedByRunningTask, hops.trace.open(name) else {
                return try await wrapped.intercept(request: request, context: context, next: next)
            }
            let index = index
            var response: StreamingClientResponse<Output>
            do {
                response = try await wrapped.intercept(request: request, context: context) {
                    hops.noteWentOn(index)
                    var response = try await next($0, $1)
                    if hops.refusal(in: &response) != nil { hops.noteRefusedBelow(index) }
                    return response
                }
            } catch {
                hops.closed(threw: error)
                throw error
            }
            hops.close(index, refusal: hops.refusal(in: &response))
            return response
        }
    }

    /// The last link of a traced client pipeline: the call to the server, a hop named by the method and `(call)`.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct PipelineCallHop: ClientInterceptor {
        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            guard let hops = RPCHops.current, hops.isOwnedByRunningTask,
                hops.trace.open(hops.names.call)
            else { return try await next(request, context) }
            var response: StreamingClientResponse<Output>
            do {
                response = try await next(request, context)
            } catch {
                hops.closed(threw: error)
                throw error
            }
            hops.close(nil, refusal: hops.refusal(in: &response))
            return response
        }
    }
#endif
