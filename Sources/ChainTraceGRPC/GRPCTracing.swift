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
    /// by its type, in the order gRPC runs them, and the service's handler (on a client: the call to the server)
    /// the last hop, named by the method. No interceptor is edited; with no recorder in force an RPC goes through
    /// them as before, past three links that read a task-local.
    ///
    /// Decisions: an interceptor that called `next` *passed* the RPC on; one that answered without it *accepted*
    /// it — a refusal it made (`StreamingServerResponse(error:)`, an auth check turning a call away) is *accepted*
    /// with the status (`unauthenticated: no token`) as its reason; one that threw *failed* (or passed on the
    /// failure of a hop inside it, which the trace names as where the failure started); one that answered after a
    /// failure from below *accepted* it with the failure recovered. The handler *accepted* when it answered and
    /// *failed* when it threw or refused.
    ///
    /// Time: on a server, a hop covers the RPC from reaching its interceptor to the end of the response stream it
    /// answered with — for a unary RPC, the handler's work and the one message written; for a server-streaming RPC,
    /// every message the handler produced, which gRPC writes after the chain has returned. A refusal or a thrown
    /// error ends the hop at once. On a client, a hop ends when the response's head (its metadata, or its refusal)
    /// comes back through it: the messages after it are the caller's to read.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    public enum GRPCTracing {
        /// `interceptors`, traced, for `GRPCServer(transport:services:interceptors:)` or `withGRPCServer`: a link
        /// that starts each RPC's trace, each interceptor as a hop, and the service's handler as the last hop.
        public static func server(
            _ interceptors: [any ServerInterceptor],
            chain: String = "grpc"
        ) -> [any ServerInterceptor] {
            [ServerTraceStart(chain: chain)]
                + interceptors.map { TracedServerInterceptor(wrapped: $0, name: handlerName(of: $0)) }
                + [ServerHandlerHop()]
        }

        /// `pipeline`, traced, for `GRPCServer(transport:services:interceptorPipeline:)`: each interceptor keeps the
        /// services or methods it applies to; the trace's start and the handler's hop apply to every RPC.
        public static func server(
            pipeline: [ConditionalInterceptor<any ServerInterceptor>],
            chain: String = "grpc"
        ) -> [ConditionalInterceptor<any ServerInterceptor>] {
            [.apply(ServerTraceStart(chain: chain), to: .all)]
                + pipeline.map { operation in
                    let traced = TracedServerInterceptor(
                        wrapped: operation.interceptor,
                        name: handlerName(of: operation.interceptor)
                    )
                    return .apply(traced, to: subject(of: operation))
                }
                + [.apply(ServerHandlerHop(), to: .all)]
        }

        /// `interceptors`, traced, for `GRPCClient(transport:interceptors:)` or `withGRPCClient`: a link that starts
        /// each call's trace, each interceptor as a hop, and the call to the server as the last hop.
        public static func client(
            _ interceptors: [any ClientInterceptor],
            chain: String = "grpc-client"
        ) -> [any ClientInterceptor] {
            [ClientTraceStart(chain: chain)]
                + interceptors.map { TracedClientInterceptor(wrapped: $0, name: handlerName(of: $0)) }
                + [ClientCallHop()]
        }

        /// `pipeline`, traced, for `GRPCClient(transport:interceptorPipeline:)`: each interceptor keeps the services
        /// or methods it applies to; the trace's start and the call's hop apply to every call.
        public static func client(
            pipeline: [ConditionalInterceptor<any ClientInterceptor>],
            chain: String = "grpc-client"
        ) -> [ConditionalInterceptor<any ClientInterceptor>] {
            [.apply(ClientTraceStart(chain: chain), to: .all)]
                + pipeline.map { operation in
                    let traced = TracedClientInterceptor(
                        wrapped: operation.interceptor,
                        name: handlerName(of: operation.interceptor)
                    )
                    return .apply(traced, to: subject(of: operation))
                }
                + [.apply(ClientCallHop(), to: .all)]
        }

        /// The RPCs `operation` applies to. gRPC keeps them in a property of its own (not public), read here; an
        /// operation of a shape this version of gRPC does not have applies to every RPC.
        static func subject<Interceptor>(
            of operation: ConditionalInterceptor<Interceptor>
        ) -> ConditionalInterceptor<Interceptor>.Subject {
            for child in Mirror(reflecting: operation).children where child.label == "subject" {
                if let subject = child.value as? ConditionalInterceptor<Interceptor>.Subject { return subject }
            }
            return .all
        }
    }
#endif
