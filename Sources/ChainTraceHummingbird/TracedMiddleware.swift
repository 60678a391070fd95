#if Hummingbird
    import ChainTrace
    import Hummingbird

    /// Runs `call` — a middleware or an endpoint — as the hop `name` of the request's trace: joined to the trace
    /// its task is running with no frame of its own when it can be, else inside the async `traceHop` (the first
    /// hop of a request, which starts the trace). Inlined into each link, so that `call` is not a closure.
    @inline(__always)
    func hop<Context: RequestContext>(
        _ name: String,
        chain: String,
        request: Request,
        context: Context,
        _ call: () async throws -> Response
    ) async throws -> Response {
        switch ChainTracing.openJoinedHop(name, commandType: HTTPRequestCommand.self, chain: chain) {
        case .untraced:
            return try await call()
        case .opened(let joined):
            let response: Response
            do {
                response = try await call()
            } catch {
                ChainTracing.closeJoinedHop(joined, threw: error)
                throw error
            }
            ChainTracing.closeJoinedHop(joined, threw: nil)
            return response
        case .needsTraceHop:
            return try await traceHop(
                name,
                command: HTTPRequestCommand(request: request, context: context),
                chain: chain
            ) {
                try await call()
            }
        }
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

        func respond(to request: Request, context: Context) async throws -> Response {
            try await hop(name, chain: chain, request: request, context: context) {
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
        /// The chain's name in traces.
        let chain: String

        func respond(to request: Request, context: Context) async throws -> Response {
            try await hop(name, chain: chain, request: request, context: context) {
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
