#if Hummingbird
    import ChainTrace
    import HTTPTypes
    import Hummingbird

    /// Runs `call` — a middleware or an endpoint — as the hop `name` of the request's trace: the trace the task is
    /// running, found by one task-local read and recorded into with no lock (the links of a route run one inside
    /// the other in the request's task); at the request's first hop, a trace started for it and bound to the task
    /// for the rest. Inlined into each link, so that `call` is not a closure.
    @inline(__always)
    func hop<Context: RequestContext>(
        _ name: String,
        chain: String,
        kind: RouteKind? = nil,
        request: Request,
        context: Context,
        _ call: () async throws -> Response
    ) async throws -> Response {
        switch LinearTrace.binding {
        case .inherited:
            return try await call()
        case .running(let trace):
            guard trace.open(name) else { return try await call() }
            let response: Response
            do {
                response = try await call()
            } catch {
                trace.close(threw: error)
                throw error
            }
            trace.close(threw: nil)
            return response
        case .none:
            break
        }
        // The request's first hop. Held in an optional that `finish` empties, so that the trace is this frame's
        // alone by then, and kept for the thread's next request.
        var started = LinearTrace.start(
            command: HTTPRequestCommand(request: request, context: context, kind: kind),
            chain: chain
        )
        guard started?.open(name) == true else {
            LinearTrace.finish(&started)
            return try await call()
        }
        let response: Response
        do {
            response = try await started!.run { try await call() }
        } catch {
            started!.close(threw: error)
            LinearTrace.finish(&started)
            throw error
        }
        started!.close(threw: nil)
        LinearTrace.finish(&started)
        return response
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
            try await hop(name, chain: chain, kind: kind, request: request, context: context) {
                try await middleware.handle(request, context: context) { request, context in
                    try await next.respond(to: request, context: context)
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
            try await hop(name, chain: chain, request: request, context: context) {
                try await wrapped.handle(request, context: context, next: next)
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
            try await hop(name, chain: chain, kind: kind, request: request, context: context) {
                try await wrapped.respond(to: request, context: context)
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
