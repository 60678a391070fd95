#if GRPC
    public import GRPCCore

    /// Traces a gRPC server's or client's interceptor chain: one line where the interceptors are given.
    ///
    /// ```swift
    /// let server = GRPCServer(
    ///     transport: transport,
    ///     services: [EchoService()],
    ///     interceptors: GRPCTracing.server([AuthInterceptor(), RateLimitInterceptor()])
    /// )
    /// ```
    ///
    /// Each RPC is a command (``RPCCommand``: its kind the method, `echo.Echo/Get`), recorded when a recorder is in
    /// force (`ChainTracing.bootstrap`, `withRecorder`, `captureTraces`), as one trace: each interceptor a hop, named
    /// by its type, in the order gRPC runs them, and the service's handler the last hop, named by the method
    /// (on a client, the call to the server, `echo.Echo/Get (call)`: a process that is both tells them apart). No interceptor is edited; with no recorder in force an RPC goes through
    /// them as gRPC would run them, past one check.
    ///
    /// Decisions: an interceptor that called `next` *passed* the RPC on; one that answered without it *accepted*
    /// it — a refusal it made (`StreamingServerResponse(error:)`, an auth check turning a call away) is *accepted*
    /// with the status (`unauthenticated: no token`) as its reason; one that threw *failed* (or passed on the
    /// failure of a hop inside it, which the trace names as where the failure started); one that answered after a
    /// failure from below *accepted* it with the failure recovered. The handler *accepted* when it answered and
    /// *failed* when it threw or refused.
    ///
    /// Time: a hop runs from the RPC reaching its interceptor to the interceptor returning its response. On a
    /// server, the response's messages, which gRPC writes after the chain has returned (a server-streaming handler
    /// produces them then), are a last hop of their own, `echo.Echo/Get stream`: *continued* when the stream ends,
    /// *failed* when producing it throws. On a client, a hop ends when the response's head (its metadata, or its
    /// refusal) comes back through it: the messages after it are the caller's to read.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    public enum GRPCTracing {
        /// `interceptors`, traced, for `GRPCServer(transport:services:interceptors:)` or `withGRPCServer`: one
        /// interceptor that runs them as gRPC would — plain when the RPC is not traced, each a hop when it is, the
        /// service's handler the last hop.
        public static func server(
            _ interceptors: [any ServerInterceptor],
            chain: String = "grpc"
        ) -> [any ServerInterceptor] {
            [TracingServerChain(links: InterceptorLinks(interceptors), chain: chain)]
        }

        /// `pipeline`, traced, for `GRPCServer(transport:services:interceptorPipeline:)`: one interceptor, applied to
        /// every RPC, that runs the interceptors whose operations apply to the RPC's method — each to the services or
        /// methods its operation names, as gRPC would pick them — in the pipeline's order, as ``server(_:chain:)``
        /// runs its interceptors. It reads which methods an operation applies to from a property gRPC keeps private:
        /// on a version of gRPC that keeps it otherwise, `pipeline` as given, untraced.
        public static func server(
            pipeline: [ConditionalInterceptor<any ServerInterceptor>],
            chain: String = "grpc"
        ) -> [ConditionalInterceptor<any ServerInterceptor>] {
            let chains = PipelineChains(pipeline) { TracingServerChain(links: $0, chain: chain) }
            guard let chains else { return pipeline }
            return [.apply(TracingServerPipeline(chains: chains), to: .all)]
        }

        /// `interceptors`, traced, for `GRPCClient(transport:interceptors:)` or `withGRPCClient`: one interceptor
        /// that runs them as gRPC would — plain when the call is not traced, each a hop when it is, the call to the
        /// server the last hop.
        public static func client(
            _ interceptors: [any ClientInterceptor],
            chain: String = "grpc-client"
        ) -> [any ClientInterceptor] {
            [TracingClientChain(links: InterceptorLinks(interceptors), chain: chain)]
        }

        /// `pipeline`, traced, for `GRPCClient(transport:interceptorPipeline:)`: one interceptor, applied to every
        /// call, that runs the interceptors whose operations apply to the call's method, in the pipeline's order, as
        /// ``client(_:chain:)`` runs its interceptors (`pipeline` as given, untraced, on a version of gRPC whose
        /// operations it cannot read: see ``server(pipeline:chain:)``).
        public static func client(
            pipeline: [ConditionalInterceptor<any ClientInterceptor>],
            chain: String = "grpc-client"
        ) -> [ConditionalInterceptor<any ClientInterceptor>] {
            let chains = PipelineChains(pipeline) { TracingClientChain(links: $0, chain: chain) }
            guard let chains else { return pipeline }
            return [.apply(TracingClientPipeline(chains: chains), to: .all)]
        }
    }
#endif
