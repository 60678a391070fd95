#if Hummingbird
    import ChainTrace
    public import HTTPTypes
    public import Hummingbird

    /// A Hummingbird `Router` whose every request is traced through its middleware and endpoint: the one line that
    /// adds ChainTrace to an app.
    ///
    /// Use it where you would use `Router`; nothing else changes — no middleware is edited, ours or the framework's:
    ///
    /// ```swift
    /// let router = TracingRouter(context: AppRequestContext.self)   // was: Router(context: …)
    /// router.add(middleware: LogRequestsMiddleware(.info))
    /// router.add(middleware: CORSMiddleware())
    /// router.group("api").add(middleware: AuthMiddleware()).get("users/:id") { request, context in … }
    /// let app = Application(router: router)
    /// ```
    ///
    /// Every middleware added to the router or to one of its groups is a hop, and so is each route's endpoint (named
    /// by method and pattern, `GET /api/users/{id}`); a result-builder stack (`router.addMiddleware { … }`) is a hop per
    /// middleware in it. A request that matches no route goes through the router's middleware to a `NotFound` hop.
    /// Requests are traced into whatever recorder is in force — `ChainTracing.bootstrap(_:)` at start-up, or a
    /// `ChainTracing.withRecorder(_:operation:)` scope. With none in force a request runs the routes exactly as
    /// written (the traced ones are built beside them) and costs one load more.
    ///
    /// Decisions: a middleware that calls `next` *passed*; one that answers without calling it *accepted*; one that
    /// throws *failed* (the trace names the hop the error started at — the ones it only passed through stay
    /// *passed*); one that catches an error from below and answers *accepted*, with the failure kept in the trace as
    /// recovered. The endpoint *accepted*, or *failed* if it threw. A hop's time is until its response is returned:
    /// a body that streams afterwards is written by the server after the chain and is not in any hop.
    public final class TracingRouter<Context: RequestContext>: RouterMethods, HTTPResponderBuilder {
        /// The app's middleware and routes as written: what a request runs while no recorder is in force.
        let plain: Router<Context>
        /// The same routes with each middleware and endpoint a traced hop; each route's traced chain is built here
        /// (``TracedLink``), so this router has no middleware of its own until the not-found path is built.
        let traced: Router<Context>
        /// The router's middleware, each part of a result-builder stack on its own, in the order added.
        private var tracedMiddleware: [NamedMiddleware<Context>] = []
        /// The chain's name in traces.
        public let chain: String
        /// Whether the `NotFound` hop has been added (once, when the responder is first built).
        private var addedNotFoundHop = false

        /// A router for requests with `context`, traced as the chain `chain`.
        ///
        /// - Parameters:
        ///   - context: The request context type, as for `Router`.
        ///   - options: The router's options, as for `Router`.
        ///   - chain: The chain's name in traces; `"HTTP"` by default.
        public init(
            context: Context.Type = BasicRequestContext.self,
            options: RouterOptions = [],
            chain: String = "HTTP"
        ) {
            plain = Router(context: context, options: options)
            traced = Router(context: context, options: options)
            self.chain = chain
        }

        /// Adds `middleware`, traced, for the routes added after it (as `Router` does).
        @discardableResult
        public func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
            plain.add(middleware: middleware)
            tracedMiddleware += middlewareParts(of: middleware).map {
                NamedMiddleware(middleware: $0, name: handlerName(of: $0))
            }
            return self
        }

        /// Adds a route whose endpoint, `responder`, is the last hop of its chain.
        @discardableResult
        public func on<Responder: HTTPResponder>(
            _ path: RouterPath,
            method: HTTPRequest.Method,
            responder: Responder
        ) -> Self where Responder.Context == Context {
            plain.on(path, method: method, responder: responder)
            traced.on(
                path,
                method: method,
                responder: tracedChain([], ending: endpoint(responder, path: path, method: method))
            )
            return self
        }

        /// A group of routes under `path`, whose middleware is traced too.
        public func group(_ path: RouterPath = "") -> TracingRouterGroup<Context> {
            TracingRouterGroup(path: path, parent: self)
        }

        /// The responder Hummingbird serves: with a recorder in force anywhere, the traced routes, which end a
        /// request that matched none at a `NotFound` hop; otherwise the routes as written, untouched.
        public func buildResponder() -> TracingRouterResponder<Context> {
            if !addedNotFoundHop {
                // Middleware applies to the routes added after it, so these reach the not-found responder alone.
                for part in tracedMiddleware {
                    traced.add(middleware: TracedMiddleware(wrapped: part.middleware, name: part.name, chain: chain))
                }
                traced.add(middleware: NotFoundHop(chain: chain))
                addedNotFoundHop = true
            }
            return TracingRouterResponder(plain: plain.buildResponder(), traced: traced.buildResponder())
        }

        /// `responder` as a traced endpoint, named by `method` and the full route `path`.
        func endpoint<Responder: HTTPResponder>(
            _ responder: Responder,
            path: RouterPath,
            method: HTTPRequest.Method
        ) -> TracedEndpoint<Context> where Responder.Context == Context {
            let name = "\(method.rawValue) \(path.description)"
            return TracedEndpoint(
                wrapped: responder,
                name: name,
                kind: RouteKind(method: method, text: name),
                chain: chain
            )
        }

        /// A route's traced chain: the router's middleware added so far, then `groupMiddleware` (the groups', outermost
        /// first), then `endpoint`, each a link of its own.
        func tracedChain(_ groupMiddleware: [NamedMiddleware<Context>], ending endpoint: TracedEndpoint<Context>)
            -> any HTTPResponder<Context>
        {
            var chain: any HTTPResponder<Context> = endpoint
            for part in (tracedMiddleware + groupMiddleware).reversed() {
                chain = TracedLink(
                    middleware: part.middleware,
                    name: part.name,
                    chain: self.chain,
                    next: chain,
                    kind: endpoint.kind
                )
            }
            return chain
        }

        /// Adds a group's route: its chain as written, already through the group's middleware, and its traced chain
        /// through the groups' `middleware` to `endpoint`.
        func addGroupRoute(
            _ path: RouterPath,
            method: HTTPRequest.Method,
            plain plainChain: any HTTPResponder<Context>,
            middleware: [NamedMiddleware<Context>],
            endpoint: TracedEndpoint<Context>
        ) {
            plain.on(path, method: method, responder: AnyResponder(wrapped: plainChain))
            traced.on(path, method: method, responder: AnyResponder(wrapped: tracedChain(middleware, ending: endpoint)))
        }
    }

    /// A middleware and its name in traces.
    struct NamedMiddleware<Context: RequestContext> {
        let middleware: any MiddlewareProtocol<Request, Response, Context>
        let name: String
    }

    /// What a ``TracingRouter`` serves: each request runs the traced routes while a recorder is in force anywhere,
    /// and the routes as written otherwise — so with tracing off a middleware costs nothing at all, and a request one
    /// load.
    public struct TracingRouterResponder<Context: RequestContext>: HTTPResponder {
        /// The routes as written.
        let plain: RouterResponder<Context>
        /// The routes with every middleware and endpoint a traced hop.
        let traced: RouterResponder<Context>

        /// Answers `request` through the traced routes while a recorder is in force, else through the plain ones.
        public func respond(to request: Request, context: Context) async throws -> Response {
            if ChainTracing.mayRecord {
                return try await traced.respond(to: request, context: context)
            }
            return try await plain.respond(to: request, context: context)
        }
    }

    /// The hop a request that matched no route ends at: it *failed* with Hummingbird's 404.
    struct NotFoundHop<Context: RequestContext>: RouterMiddleware {
        let chain: String

        func handle(
            _ request: Request,
            context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            switch openHop("NotFound") {
            case .untraced:
                return try await next(request, context)
            case .opened(let trace):
                do {
                    let response = try await next(request, context)
                    closeHop(of: trace, threw: nil)
                    return response
                } catch {
                    closeHop(of: trace, threw: error)
                    throw error
                }
            case .first:
                return try await startingTrace(chain: chain, kind: nil, request: request, context: context) {
                    try await handle(request, context: context, next: next)
                }
            }
        }
    }

    /// An `any HTTPResponder` as a concrete responder, for `Router.on`.
    struct AnyResponder<Context: RequestContext>: HTTPResponder {
        let wrapped: any HTTPResponder<Context>

        func respond(to request: Request, context: Context) async throws -> Response {
            try await wrapped.respond(to: request, context: context)
        }
    }
#endif
