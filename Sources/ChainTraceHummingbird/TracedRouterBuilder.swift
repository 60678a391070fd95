#if Hummingbird
    import ChainTrace
    public import Hummingbird
    public import HummingbirdRouter

    extension RouterBuilder {
        /// This router with every request traced through its stack, as ``TracingRouter`` traces a `Router`: the one
        /// line that adds ChainTrace to an app built with HummingbirdRouter's result builder.
        ///
        /// ```swift
        /// let router = RouterBuilder(context: BasicRouterRequestContext.self) {
        ///     LogRequestsMiddleware(.info)
        ///     Get("health") { _, _ in "ok" }
        ///     RouteGroup("api") {
        ///         AuthMiddleware()
        ///         Get("users/{id}") { request, context in … }
        ///     }
        /// }
        /// let app = Application(router: router.traced())   // was: Application(router: router)
        /// ```
        ///
        /// The builder's stack is a chain whose routes are links too, and each element is a hop: a middleware
        /// (named by its type), a route (`GET /api/users/{id}`: *accepted* when it answers, *passed* when the
        /// request is not its own and it hands it on), a group (`Group /api`: *passed*, with its own stack's hops
        /// inside it; a group that changes the context's type is one hop). A request that no route takes ends at a
        /// `NotFound` hop, which *failed* with the 404. Middleware decisions, and what a hop's time covers, are as
        /// for ``TracingRouter``. The command's kind is the method and the route that answered (`GET
        /// /api/users/{id}`, or `GET NotFound`), read once the request went through the stack; a captured payload's
        /// `route` is left out, since it is captured before any route matched.
        ///
        /// With no recorder in force a request runs this router exactly as written, after one load.
        ///
        /// - Parameter chain: The chain's name in traces; `"HTTP"` by default.
        public func traced(chain: String = "HTTP") -> TracedRouterBuilder<Context> {
            TracedRouterBuilder(self, chain: chain)
        }
    }

    /// A `RouterBuilder` whose every request is traced through its stack: made by `RouterBuilder.traced(chain:)`.
    public struct TracedRouterBuilder<Context: RouterRequestContext>: HTTPResponder, HTTPResponderBuilder {
        /// The router as written: what a request runs while no recorder is in force.
        let plain: any HTTPResponder<Context>
        /// The same stack with each element a traced hop, ending at a `NotFound` hop.
        let traced: any HTTPResponder<Context>
        /// The chain's name in traces.
        public let chain: String

        init<Handler>(_ router: RouterBuilder<Context, Handler>, chain: String) {
            plain = router
            self.chain = chain
            let fields = Mirror(reflecting: router).children
            let options = fields.first { $0.label == "options" }?.value as? RouterBuilderOptions ?? []
            let handler =
                fields.first { $0.label == "handler" }?.value as? any MiddlewareProtocol<Request, Response, Context>
            // The router answers a request no route took with a 404 (from the `next` of its stack): a hop of its own.
            let notFound = StackPart(middleware: PassingOn<Context>(), name: "NotFound")
            // A router whose stack this version cannot read (a Hummingbird that keeps it otherwise) is one hop.
            let parts =
                handler.map { tracedStackParts(of: $0, chain: chain) } ?? [
                    StackPart(middleware: router, name: handlerName(of: router))
                ]
            let stack = TracedStack(parts: parts + [notFound], chain: chain)
            traced = RouterBuilder(context: Context.self, options: options) { stack }
        }

        /// Answers `request` through the traced stack while a recorder is in force, else through the router as written.
        public func respond(to request: Request, context: Context) async throws -> Response {
            if ChainTracing.mayRecord {
                return try await traced.respond(to: request, context: context)
            }
            return try await plain.respond(to: request, context: context)
        }

        /// Itself: it is its own responder.
        public func buildResponder() -> Self {
            self
        }
    }

    /// Hands every request on: the `NotFound` hop's middleware, around the router's own not-found answer.
    struct PassingOn<Context: RequestContext>: RouterMiddleware {
        func handle(
            _ request: Request,
            context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            try await next(request, context)
        }
    }

    /// One element of a traced stack, and its name in traces.
    struct StackPart<Context: RequestContext> {
        let middleware: any MiddlewareProtocol<Request, Response, Context>
        let name: String
    }

    /// The elements of a builder stack, each as a hop: its middleware, its routes (named by method and full path)
    /// and its groups (rebuilt around a traced stack of their own).
    func tracedStackParts<Context: RouterRequestContext>(
        of stack: any MiddlewareProtocol<Request, Response, Context>,
        chain: String
    ) -> [StackPart<Context>] {
        middlewareParts(of: stack).map { part in
            let typeName = String(describing: type(of: part))
            let fields = Mirror(reflecting: part).children
            func field(_ label: String) -> Any? { fields.first { $0.label == label }?.value }
            if typeName.hasPrefix("Route<"), let method = field("method") as? HTTPRequest.Method,
                let path = field("fullPath") as? String
            {
                return StackPart(middleware: part, name: "\(method.rawValue) \(path)")
            }
            if typeName.hasPrefix("RouteGroup<"), let path = field("routerPath") as? RouterPath,
                let fullPath = field("fullPath") as? RouterPath
            {
                let name = "Group \(fullPath.description.hasPrefix("/") ? "" : "/")\(fullPath)"
                // A group that changes the context's type runs a stack of another context: one hop, as written.
                guard let inner = field("handler") as? any MiddlewareProtocol<Request, Response, Context>,
                    !String(describing: type(of: inner)).hasPrefix("ThrowingContextTransform<")
                else { return StackPart(middleware: part, name: name) }
                let stack = TracedStack(
                    parts: tracedStackParts(of: inner, chain: chain),
                    chain: chain,
                    groupPath: fullPath.description
                )
                return StackPart(middleware: RouteGroup<Context, TracedStack<Context>>(path) { stack }, name: name)
            }
            return StackPart(middleware: part, name: handlerName(of: part))
        }
    }

    /// A builder stack's elements run one inside the other, each a hop, then the stack's `next`: for the router's
    /// own stack, its not-found answer (behind a `NotFound` hop); for a group's, the elements after the group.
    struct TracedStack<Context: RequestContext>: RouterMiddleware {
        let parts: [StackPart<Context>]
        let chain: String
        /// For a group's stack, the group's full path. The group it is rebuilt in is made outside the builder, which
        /// gives it only its own part of the path for the request's endpoint path; its stack puts the whole one back
        /// (where the group as written just put it), so that the app — its metrics, its logs — sees what it did.
        var groupPath: String?

        func handle(
            _ request: Request,
            context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            if let groupPath { context.coreContext.endpointPath.value = groupPath }
            return try await run(from: 0, request, context, next)
        }

        /// Runs the elements from `index` on, then `next`.
        private func run(
            from index: Int,
            _ request: Request,
            _ context: Context,
            _ next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            guard index < parts.count else { return try await next(request, context) }
            let part = parts[index]
            switch openHop(part.name) {
            case .untraced:
                return try await part.middleware.handle(request, context: context) { request, context in
                    try await run(from: index + 1, request, context, next)
                }
            case .opened(let trace):
                do {
                    let response = try await part.middleware.handle(request, context: context) { request, context in
                        try await run(from: index + 1, request, context, next)
                    }
                    closeHop(of: trace, threw: nil)
                    return response
                } catch {
                    closeHop(of: trace, threw: error)
                    throw error
                }
            case .first:
                return try await startingTrace(
                    chain: chain,
                    kind: nil,
                    kindAtEnd: true,
                    request: request,
                    context: context
                ) { try await run(from: index, request, context, next) }
            }
        }
    }
#endif
