#if GRPC
    import ChainTrace
    import GRPCCore

    /// The one interceptor ``GRPCTracing/client(_:chain:)`` gives gRPC: it runs the app's client interceptors itself,
    /// as gRPC's client executor would, plain when the call is not traced and each as a hop when it is, the call to
    /// the server the last hop. A client hop ends when the response's head (its metadata, or its refusal) comes back
    /// through it.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct TracingClientChain: ClientInterceptor {
        /// The interceptors as the app gave them, in order.
        let links: InterceptorLinks<any ClientInterceptor>
        /// The chain name of the traces.
        let chain: String

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            guard ChainTracing.mayRecord else { return try await plain(from: 0, request, context, next) }
            guard let hops = RPCHops.start(request, context, responding: Output.self, chain: chain) else {
                return try await plain(from: 0, request, context, next)
            }
            defer { hops.finish() }
            return try await traced(from: 0, hops, request, context, next)
        }

        /// The interceptors from `index` on and the call, untraced.
        func plain<Input: Sendable, Output: Sendable>(
            from index: Int,
            _ request: StreamingClientRequest<Input>,
            _ context: ClientContext,
            _ next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            guard index < links.count else { return try await next(request, context) }
            do {
                return try await links.interceptors[index].intercept(request: request, context: context) {
                    try await plain(from: index + 1, $0, $1, next)
                }
            } catch {
                return StreamingClientResponse(error: refusal(for: error))
            }
        }

        /// The interceptors from `index` on and the call, each a hop of `hops`' trace. Inlined into the closure it
        /// hands the interceptor as `next`, as the server chain's `traced` is (no benchmark row runs the client's).
        @inline(__always) func traced<Input: Sendable, Output: Sendable>(
            from index: Int,
            _ hops: RPCHops,
            _ request: StreamingClientRequest<Input>,
            _ context: ClientContext,
            _ next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            let trace = hops.trace
            // Past the hop limit (the trace records a loop), or run from a task of the interceptor's own: untraced.
            guard index < links.count else {
                guard hops.isOwnedByRunningTask, trace.open(hops.names.call) else {
                    return try await next(request, context)
                }
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
            guard hops.isOwnedByRunningTask, trace.open(links.names[index]) else {
                return try await plain(from: index, request, context, next)
            }
            var response: StreamingClientResponse<Output>
            do {
                response = try await links.interceptors[index].intercept(request: request, context: context) {
                    hops.noteWentOn(index)
                    var response = try await traced(from: index + 1, hops, $0, $1, next)
                    if hops.refusal(in: &response) != nil { hops.noteRefusedBelow(index) }
                    return response
                }
            } catch {
                hops.closed(threw: error)
                return StreamingClientResponse(error: refusal(for: error))
            }
            hops.close(index, refusal: hops.refusal(in: &response))
            return response
        }
    }
#endif
