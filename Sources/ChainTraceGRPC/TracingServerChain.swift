#if GRPC
    import ChainTrace
    import GRPCCore

    /// The one interceptor ``GRPCTracing/server(_:chain:)`` gives gRPC: it runs the app's interceptors itself, as
    /// gRPC's server executor would (each handed the rest as `next`; a throw between two of them turned into a
    /// refused response), plain when the RPC is not traced — no recorder in force, sampled or filtered out — and
    /// each as a hop when it is, the service's handler the last hop.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct TracingServerChain: ServerInterceptor {
        /// The interceptors as the app gave them, in order.
        let links: InterceptorLinks<any ServerInterceptor>
        /// The chain name of the traces.
        let chain: String

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            guard ChainTracing.mayRecord else { return try await plain(from: 0, request, context, next) }
            guard let hops = RPCHops.start(request, context, responding: Output.self, chain: chain) else {
                return try await plain(from: 0, request, context, next)
            }
            let response: StreamingServerResponse<Output>
            do {
                response = try await traced(from: 0, hops, request, context, next)
            } catch {
                hops.finish()
                throw error
            }
            return hops.finishing(after: response)
        }

        /// The interceptors from `index` on and the handler, untraced.
        func plain<Input: Sendable, Output: Sendable>(
            from index: Int,
            _ request: StreamingServerRequest<Input>,
            _ context: ServerContext,
            _ next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            guard index < links.count else { return try await next(request, context) }
            do {
                return try await links.interceptors[index].intercept(request: request, context: context) {
                    try await plain(from: index + 1, $0, $1, next)
                }
            } catch {
                return StreamingServerResponse(error: refusal(for: error))
            }
        }

        /// The interceptors from `index` on and the handler, each a hop of `hops`' trace.
        ///
        /// Runs where its caller runs (`nonisolated(nonsending)`): `intercept` and the `next` closures it hands on run
        /// off any actor already, and a plain `nonisolated` async function asks the runtime to switch there at
        /// every call: about 130 instructions a hop (`chaintrace-grpc-benchmarks`, "traced"; callgrind). (`plain`
        /// stays `nonisolated`: the same change cost it 44 instructions a hop more.) Inlined into the closure it
        /// hands the interceptor as `next`, so that a hop is one async frame, not two: about 240 instructions a hop
        /// less on the same row.
        @inline(__always) nonisolated(nonsending) func traced<Input: Sendable, Output: Sendable>(
            from index: Int,
            _ hops: RPCHops,
            _ request: StreamingServerRequest<Input>,
            _ context: ServerContext,
            _ next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            let trace = hops.trace
            // Past the hop limit (the trace records a loop), or run from a task of the interceptor's own: untraced.
            guard index < links.count else {
                guard hops.isOwnedByRunningTask, trace.open(hops.names.method) else {
                    return try await next(request, context)
                }
                var response: StreamingServerResponse<Output>
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
            var response: StreamingServerResponse<Output>
            do {
                response = try await links.interceptors[index].intercept(request: request, context: context) {
                    hops.noteWentOn(index)
                    var response = try await traced(from: index + 1, hops, $0, $1, next)
                    if hops.refusal(in: &response) != nil { hops.noteRefusedBelow(index) }
                    return response
                }
            } catch {
                hops.closed(threw: error)
                return StreamingServerResponse(error: refusal(for: error))
            }
            hops.close(index, refusal: hops.refusal(in: &response))
            return response
        }
    }
#endif
