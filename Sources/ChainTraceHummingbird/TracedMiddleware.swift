#if Hummingbird
    import ChainTrace
    import ChainTraceDistributedTracing
    import HTTPTypes
    import Hummingbird
    import Tracing

    /// What a link does around its one await (see ``openHop(_:)``).
    enum LinkHop {
        /// Nothing is recorded here: call the middleware as it is.
        case untraced
        /// The hop is open in the request's trace: call the middleware, then close it.
        case opened(BoundLinearTrace)
        /// The request's first link: start its trace (``startingTrace(chain:kind:request:context:_:)``), which
        /// runs the link again with the trace bound.
        case first
    }

    /// Opens the hop `name` in the request's trace, which the task has bound: one task-local read, and no lock
    /// (the links of a route run one inside the other in the request's task). Each link awaits its middleware
    /// itself around this, with no closure: an async closure between them was a task-allocated frame and executor
    /// checks a hop (`chaintrace-http-benchmarks`, "TracingRouter, traced into memory").
    @inline(__always)
    func openHop(_ name: String) -> LinkHop {
        switch LinearTrace.binding {
        case .untraced: return .untraced
        case .running(let trace): return trace.open(name) ? .opened(trace) : .untraced
        case .none: return .first
        }
    }

    /// At a request's first link: starts the request's trace (one that records nothing when the request is not
    /// to be traced, so that no later link decides again) and runs `link` — the link again — with it bound, then
    /// hands the trace to its recorder. With `kindAtEnd` the command's kind is read again once the links ran: a
    /// router that finds the route as the request goes through its stack (`RouterBuilder`) notes it only then.
    ///
    /// The trace is bound by ``LinearTrace/bind()`` here, not in a `withValue` scope: that scope was three async
    /// frames more a request — 1 700 instructions (21 735 → 20 037 a request with no middleware,
    /// `chaintrace-http-benchmarks`, "TracingRouter, traced into memory"; callgrind). Kept out of line: inlined into
    /// the links, it saved 390 instructions a request more, but every hop's frame grew and a hop cost 150 more.
    @inline(never)
    func startingTrace<Context: RequestContext>(
        chain: String,
        kind: RouteKind?,
        kindAtEnd: Bool = false,
        request: Request,
        context: Context,
        _ link: () async throws -> Response
    ) async throws -> Response {
        let command = HTTPRequestCommand(request: request, context: context, kind: kind)
        // Held in an optional that `finish` empties, so that the trace is this frame's alone by then, and kept for
        // the thread's next request.
        var started: LinearTrace? = LinearTrace.start(command: command, chain: chain)
        started!.bind()
        do {
            let response = try await link()
            LinearTrace.unbind()
            if kindAtEnd, let trace = started, trace.isTracing { trace.setCommandKind(command.commandKind) }
            LinearTrace.finishInDeepestContext(&started)
            return response
        } catch {
            LinearTrace.unbind()
            if kindAtEnd, let trace = started, trace.isTracing { trace.setCommandKind(command.commandKind) }
            LinearTrace.finishInDeepestContext(&started)
            throw error
        }
    }

    /// Closes the innermost hop of `trace` as its middleware returned or threw `error`, and keeps the request's
    /// `ServiceContext` here if this is the request's first hop to close: the deepest it went, inside the span of
    /// every tracing middleware (`TracingMiddleware`) that let it through.
    @inline(__always)
    func closeHop(of trace: BoundLinearTrace, threw error: (any Error)?) {
        trace.close(threw: error)
        trace.keepDeepestContext { InstrumentationContext.current }
    }

    /// The kind of the requests a route answers, made when the route is added: the command's kind for a request of
    /// its method (a request of another that the router sends it, such as HEAD, is named when asked).
    struct RouteKind: Sendable {
        let method: HTTPRequest.Method
        let text: String
    }

    /// One middleware of a traced route's chain, as a hop, and the rest of the chain after it: the link Hummingbird's
    /// own chain would have, so that tracing adds no link. Calling `next` is *passed*, answering without it
    /// *accepted*, throwing *failed*, answering after an error from below *accepted* with the failure recovered.
    struct TracedLink<Context: RequestContext>: HTTPResponder {
        /// The middleware as the app added it.
        let middleware: any MiddlewareProtocol<Request, Response, Context>
        /// Its name in traces.
        let name: String
        /// The chain's name in traces.
        let chain: String
        /// The rest of the route's chain.
        let next: any HTTPResponder<Context>
        /// The kind of the requests its route answers (`GET /users/{id}`), made once, not once a request.
        let kind: RouteKind

        func respond(to request: Request, context: Context) async throws -> Response {
            switch openHop(name) {
            case .untraced:
                return try await middleware.handle(request, context: context) { request, context in
                    try await next.respond(to: request, context: context)
                }
            case .opened(let trace):
                do {
                    let response = try await middleware.handle(request, context: context) { request, context in
                        try await next.respond(to: request, context: context)
                    }
                    closeHop(of: trace, threw: nil)
                    return response
                } catch {
                    closeHop(of: trace, threw: error)
                    throw error
                }
            case .first:
                return try await startingTrace(chain: chain, kind: kind, request: request, context: context) {
                    try await respond(to: request, context: context)
                }
            }
        }
    }

    /// A middleware as a hop, for the chain Hummingbird builds itself: a request that matched no route runs the
    /// router's middleware so.
    struct TracedMiddleware<Context: RequestContext>: RouterMiddleware {
        /// The middleware as the app added it.
        let wrapped: any MiddlewareProtocol<Request, Response, Context>
        /// Its name in traces: its type's name without generic arguments.
        let name: String
        /// The chain's name in traces.
        let chain: String

        func handle(
            _ request: Request,
            context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            switch openHop(name) {
            case .untraced:
                return try await wrapped.handle(request, context: context, next: next)
            case .opened(let trace):
                do {
                    let response = try await wrapped.handle(request, context: context, next: next)
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

    /// A route's responder as the last hop of its chain: *accepted* when it answers, *failed* when it throws.
    struct TracedEndpoint<Context: RequestContext>: HTTPResponder {
        /// The responder as the route was given it.
        let wrapped: any HTTPResponder<Context>
        /// Its name in traces: the method and the route's pattern.
        let name: String
        /// Its route's kind of request: its name, for requests of its method.
        let kind: RouteKind
        /// The chain's name in traces.
        let chain: String

        func respond(to request: Request, context: Context) async throws -> Response {
            switch openHop(name) {
            case .untraced:
                return try await wrapped.respond(to: request, context: context)
            case .opened(let trace):
                do {
                    let response = try await wrapped.respond(to: request, context: context)
                    closeHop(of: trace, threw: nil)
                    return response
                } catch {
                    closeHop(of: trace, threw: error)
                    throw error
                }
            case .first:
                return try await startingTrace(chain: chain, kind: kind, request: request, context: context) {
                    try await respond(to: request, context: context)
                }
            }
        }
    }

    /// The middleware a result-builder stack (`router.addMiddleware { … }`) or an array of them is made of, in
    /// order, so that each is a hop of its own. Hummingbird's builder types chain their parts exactly as adding
    /// them one by one does; anything else is one middleware.
    func middlewareParts<Context>(
        of middleware: any MiddlewareProtocol<Request, Response, Context>
    ) -> [any MiddlewareProtocol<Request, Response, Context>] {
        let typeName = String(describing: type(of: middleware))
        let isBuilderPart =
            typeName.hasPrefix("_Middleware2<") || typeName.hasPrefix("_OptionalMiddleware<")
            || typeName.hasPrefix("_SpreadMiddleware<")
        guard isBuilderPart else { return [middleware] }
        var parts: [any MiddlewareProtocol<Request, Response, Context>] = []
        for child in Mirror(reflecting: middleware).children {
            if let part = child.value as? any MiddlewareProtocol<Request, Response, Context> {
                parts += middlewareParts(of: part)
            } else if let array = child.value as? [any MiddlewareProtocol<Request, Response, Context>] {
                for part in array { parts += middlewareParts(of: part) }
            } else if let optional = child.value as? (any MiddlewareProtocol<Request, Response, Context>)? {
                if let part = optional { parts += middlewareParts(of: part) }
            } else {
                // A part of a shape this version does not know: the stack stays one hop, untouched.
                return [middleware]
            }
        }
        return parts
    }

    /// A middleware's name in traces: its type's name without module or generic arguments
    /// (`CORSMiddleware<BasicRequestContext>` → `CORSMiddleware`).
    func handlerName(of value: Any) -> String {
        let full = String(describing: type(of: value))
        return String(full.prefix { $0 != "<" })
    }
#endif
