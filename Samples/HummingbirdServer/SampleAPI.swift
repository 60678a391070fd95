#if Hummingbird
    import ChainTraceHummingbird
    import Foundation
    import HTTPTypes
    import Hummingbird
    import Logging
    import Synchronization

    /// The app's routes and middleware: what any small API has. Only the first line knows about ChainTrace.
    func makeRouter() -> TracingRouter<BasicRequestContext> {
        let router = TracingRouter(context: BasicRequestContext.self)  // was: Router(context: BasicRequestContext.self)
        router.add(middleware: LogRequestsMiddleware(.debug))
        router.add(middleware: CORSMiddleware(allowOrigin: .all))
        router.add(middleware: RateLimitMiddleware(requestsPerSecond: 20_000))
        router.add(middleware: ErrorPageMiddleware())
        router.get("health") { _, _ in "ok" }

        let api = router.group("api")
        api.add(middleware: APIKeyMiddleware())
        api.add(middleware: AuditMiddleware())
        api.get("orders/:id") { _, context -> String in
            let id = try context.parameters.require("id", as: Int.self)
            guard id != 0 else { throw OrderStoreUnavailable() }
            return "{\"id\":\(id),\"status\":\"shipped\"}"
        }
        api.post("orders") { _, _ in Response(status: .created) }
        api.delete("orders/:id") { _, _ -> Response in throw HTTPError(.forbidden, message: "orders are never deleted")
        }
        return router
    }

    /// Answers 401 unless the request carries an `x-api-key`.
    struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            guard let key = request.headers[.init("x-api-key")!], !key.isEmpty else {
                return Response(status: .unauthorized)
            }
            return try await next(request, context)
        }
    }

    /// Writes an audit record for every API call — to a slow audit service, here a millisecond's wait: the
    /// middleware `chaintrace render` flags.
    struct AuditMiddleware<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            try await Task.sleep(for: .milliseconds(1))
            return try await next(request, context)
        }
    }

    /// Lets `requestsPerSecond` requests through each second and answers 429 to the rest.
    struct RateLimitMiddleware<Context: RequestContext>: RouterMiddleware {
        let requestsPerSecond: Int
        private let window = RateWindow()

        init(requestsPerSecond: Int) {
            self.requestsPerSecond = requestsPerSecond
        }

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            let second = Int(Date().timeIntervalSince1970)
            let allowed = window.state.withLock { window in
                if window.second != second { window = (second, 0) }
                window.count += 1
                return window.count <= requestsPerSecond
            }
            guard allowed else { return Response(status: .tooManyRequests) }
            return try await next(request, context)
        }
    }

    /// The current second and the requests counted in it, shared by every copy of the rate limiter.
    final class RateWindow: Sendable {
        let state = Mutex((second: 0, count: 0))
    }

    /// The order store could not be reached.
    struct OrderStoreUnavailable: Error {}

    /// Turns an unreachable order store into a 503 page; every other error goes on to Hummingbird.
    struct ErrorPageMiddleware<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            do {
                return try await next(request, context)
            } catch is OrderStoreUnavailable {
                return Response(status: .serviceUnavailable, headers: [.retryAfter: "1"])
            }
        }
    }
#endif
