#if Hummingbird
    import ChainTrace
    import ChainTraceHummingbird
    import HTTPTypes
    import Hummingbird

    /// The shapes of middleware a real app has, for the integration's tests: none of them knows about ChainTrace.

    /// Adds a header and passes every request on.
    struct StampMiddleware<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            var response = try await next(request, context)
            response.headers[.init("x-stamp")!] = "1"
            return response
        }
    }

    /// Answers 401 itself unless the request carries `x-token: good`.
    struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            guard request.headers[.init("x-token")!] == "good" else { return Response(status: .unauthorized) }
            return try await next(request, context)
        }
    }

    /// An error the recovering middleware turns into a 503.
    struct RecoverableError: Error {}

    /// Turns a ``RecoverableError`` from below into a 503 response; lets every other error through.
    struct RecoveringMiddleware<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            do {
                return try await next(request, context)
            } catch is RecoverableError {
                return Response(status: .serviceUnavailable)
            }
        }
    }

    /// Passes every request on, then adds to the response the endpoint path the request's context has by then.
    struct EndpointEchoMiddleware<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            var response = try await next(request, context)
            response.headers.append(.init(name: .init("x-endpoint")!, value: context.endpointPath ?? "-"))
            return response
        }
    }

    /// Passes every request on and does nothing else: the benchmark's empty middleware.
    struct EmptyMiddleware<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            try await next(request, context)
        }
    }

    /// The app the tests drive, built on a ``TracingRouter``: router middleware, a group with its own, a route added
    /// before and one after a middleware, routes that throw and one that recovers.
    func makeTestRouter() -> TracingRouter<BasicRequestContext> {
        let router = TracingRouter(context: BasicRequestContext.self)
        router.add(middleware: StampMiddleware())
        router.add(middleware: RecoveringMiddleware())
        router.get("hello") { _, _ in "hi" }
        router.get("users/:id") { _, context in try context.parameters.require("id") }
        router.get("fail") { _, _ -> String in throw HTTPError(.conflict) }
        router.get("recoverable") { _, _ -> String in throw RecoverableError() }
        router.group("api").add(middleware: TokenMiddleware()).get("secret") { _, _ in "secret" }
        router.add(middleware: EmptyMiddleware())
        router.get("late") { _, _ in "late" }
        return router
    }
#endif
