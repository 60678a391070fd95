#if Hummingbird
    import ChainTrace
    import Hummingbird

    /// One middleware of a ``TracingRouter`` as a hop: the middleware's own code, unchanged, run inside
    /// `traceHop`, so that calling `next` is *passed*, answering without it *accepted*, throwing *failed* and
    /// answering after an error from below *accepted* with the failure recovered.
    struct TracedMiddleware<Context: RequestContext>: RouterMiddleware {
        /// The middleware as the user added it.
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
            try await traceHop(name, command: HTTPRequestCommand(request: request, context: context), chain: chain) {
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
            try await traceHop(name, command: HTTPRequestCommand(request: request, context: context), chain: chain) {
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
