#if GRPC
    import ChainTraceFastPath
    import GRPCCore
    import Synchronization

    /// An interceptor pipeline (`ConditionalInterceptor`s) run as traced chains: for each method, the interceptors
    /// whose operations apply to it, in the pipeline's order, as one chain (``TracingServerChain``,
    /// ``TracingClientChain``), made at the method's first RPC and kept.
    ///
    /// gRPC runs each interceptor of a pipeline itself, and tells which apply to a method by a test it keeps
    /// private (`ConditionalInterceptor.Subject`'s); read here (``SubjectTest``), the interceptors run as one chain,
    /// which costs what ``GRPCTracing/server(_:chain:)`` does, where a hop of gRPC's wrapping each interceptor cost
    /// an async frame and a task-local read more a hop (see `reinterpretingSoleStoredProperty` in
    /// ChainTraceFastPath).
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    final class PipelineChains<Interceptor: Sendable, Chain: Sendable>: Sendable {
        /// One operation of the pipeline: its interceptor and the test of the methods it applies to.
        struct Operation: Sendable {
            let interceptor: Interceptor
            let test: SubjectTest
        }

        private let operations: [Operation]
        private let makeChain: @Sendable (InterceptorLinks<Interceptor>) -> Chain
        /// The chains made so far, by method: as many as the methods the server serves or the client calls.
        private let chains = Mutex<[MethodDescriptor: Chain]>([:])

        /// `pipeline`'s operations, each applying to the methods its subject names, run as the chains `makeChain`
        /// makes; `nil` when a subject's test cannot be read (a version of gRPC that keeps it otherwise).
        init?(
            _ pipeline: [ConditionalInterceptor<Interceptor>],
            makeChain: @escaping @Sendable (InterceptorLinks<Interceptor>) -> Chain
        ) {
            var operations: [Operation] = []
            for operation in pipeline {
                guard let subject = operation.subject, let test = SubjectTest(subject) else { return nil }
                operations.append(Operation(interceptor: operation.interceptor, test: test))
            }
            self.operations = operations
            self.makeChain = makeChain
        }

        /// The interceptors that apply to `method`, in the pipeline's order.
        func interceptors(for method: MethodDescriptor) -> [Interceptor] {
            operations.filter { $0.test.applies(method) }.map(\.interceptor)
        }

        /// The chain of the interceptors that apply to `method`.
        func chain(for method: MethodDescriptor) -> Chain {
            if let made = chains.withLock({ $0[method] }) { return made }
            let chain = makeChain(InterceptorLinks(interceptors(for: method)))
            return chains.withLock { chains in
                if let made = chains[method] { return made }
                chains[method] = chain
                return chain
            }
        }
    }

    /// The test of which methods a pipeline's operation applies to, read from its subject, as gRPC keeps it: its one
    /// stored property, private, `predicate`.
    struct SubjectTest: Sendable {
        let applies: @Sendable (MethodDescriptor) -> Bool

        /// `subject`'s test; `nil` on a version of gRPC that keeps it otherwise.
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        init?<Interceptor>(_ subject: ConditionalInterceptor<Interceptor>.Subject) {
            guard let test = reinterpretingSoleStoredProperty(subject, named: "predicate", as: SubjectTest.self) else {
                return nil
            }
            self = test
        }
    }

    /// The one interceptor ``GRPCTracing/server(pipeline:chain:)`` gives gRPC, applied to every method: the
    /// interceptors of the pipeline that apply to the RPC's method, run as ``GRPCTracing/server(_:chain:)`` runs its
    /// interceptors.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct TracingServerPipeline: ServerInterceptor {
        let chains: PipelineChains<any ServerInterceptor, TracingServerChain>

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            try await chains.chain(for: context.descriptor).intercept(request: request, context: context, next: next)
        }
    }

    /// The one interceptor ``GRPCTracing/client(pipeline:chain:)`` gives gRPC, applied to every method: the
    /// interceptors of the pipeline that apply to the call's method, run as ``GRPCTracing/client(_:chain:)`` runs its
    /// interceptors.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    struct TracingClientPipeline: ClientInterceptor {
        let chains: PipelineChains<any ClientInterceptor, TracingClientChain>

        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            try await chains.chain(for: context.descriptor).intercept(request: request, context: context, next: next)
        }
    }
#endif
