#if GRPC
    import ChainTrace
    import GRPCCore

    /// A server pipeline of `ConditionalInterceptor`s, traced: gRPC decides which interceptors an RPC goes through,
    /// from subjects only it can read, so each stays an interceptor of gRPC's, wrapped as a hop (``PipelineHop``),
    /// between a first link that starts the RPC's trace and binds it to the task (this) and a last one that is the
    /// handler's hop (``PipelineHandlerHop``).
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct PipelineTraceStart: ServerInterceptor {
        let chain: String

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            guard ChainTracing.mayRecord else { return try await next(request, context) }
            guard let hops = RPCHops.start(request, context, responding: Output.self, chain: chain) else {
                return try await next(request, context)
            }
            let response: StreamingServerResponse<Output>
            do {
                response = try await RPCHops.$current.withValue(hops) { try await next(request, context) }
            } catch {
                hops.finish()
                throw error
            }
            return hops.finishing(after: response)
        }
    }

    /// An interceptor of a traced server pipeline, as a hop of the RPC's trace bound to the task.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct PipelineHop: ServerInterceptor {
        let wrapped: any ServerInterceptor
        let name: String
        /// Its place in the pipeline.
        let index: Int

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            guard let hops = RPCHops.current, hops.isOwnedByRunningTask, hops.trace.open(name) else {
                return try await wrapped.intercept(request: request, context: context, next: next)
            }
            let index = index
            var response: StreamingServerResponse<Output>
            do {
                response = try await wrapped.intercept(request: request, context: context) {
                    hops.noteWentOn(index)
                    var response = try await next($0, $1)
                    if hops.refusal(in: &response) != nil {
                        // Right before the handler: its throw, as the interceptor would see it untraced.
                        if let thrown = hops.takeHandlerThrow() { throw thrown }
                        hops.noteRefusedBelow(index)
                    }
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

    /// The last link of a traced server pipeline: the service's handler, a hop named by the method.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct PipelineHandlerHop: ServerInterceptor {
        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            guard let hops = RPCHops.current, hops.isOwnedByRunningTask,
                hops.trace.open(hops.names.method)
            else { return try await next(request, context) }
            var response: StreamingServerResponse<Output>
            do {
                response = try await next(request, context)
            } catch {
                hops.closed(threw: error)
                hops.keepHandlerThrow(error)
                throw error
            }
            hops.close(nil, refusal: hops.refusal(in: &response))
            return response
        }
    }
#endif
