#if Vapor
    import ChainTraceVapor
    import Vapor

    /// The shapes of middleware a real Vapor app has, for the integration's tests: none of them knows about
    /// ChainTrace. Some are `Middleware` (futures), some `AsyncMiddleware` (each run in a task of its own).

    /// Adds a header and passes every request on (futures).
    struct StampMiddleware: Middleware {
        func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
            next.respond(to: request).map { response in
                response.headers.replaceOrAdd(name: "x-stamp", value: "1")
                return response
            }
        }
    }

    /// Answers 401 itself unless the request carries `x-token: good` (async).
    struct TokenMiddleware: AsyncMiddleware {
        func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
            guard request.headers.first(name: "x-token") == "good" else { return Response(status: .unauthorized) }
            return try await next.respond(to: request)
        }
    }

    /// An error the recovering middleware turns into a 503.
    struct RecoverableError: Error {}

    /// Turns a ``RecoverableError`` from below into a 503 response; lets every other error through (async).
    struct RecoveringMiddleware: AsyncMiddleware {
        func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
            do {
                return try await next.respond(to: request)
            } catch is RecoverableError {
                return Response(status: .serviceUnavailable)
            }
        }
    }

    /// The app the tests drive: Vapor's default middleware (`RouteLoggingMiddleware`, `ErrorMiddleware`), two of the
    /// app's, a group with its own, routes that answer, throw and recover. Traced as `chain`.
    func configureTestApp(_ app: Application, chain: String = "HTTP") {
        app.traceRequests(chain: chain)
        app.logger.logLevel = .error
        app.middleware.use(StampMiddleware())
        app.middleware.use(RecoveringMiddleware())
        app.get("hello") { _ in "hi" }
        app.get("users", ":id") { request in try request.parameters.require("id") }
        app.get("fail") { _ -> String in throw Abort(.conflict) }
        app.get("recoverable") { _ -> String in throw RecoverableError() }
        app.grouped("api").grouped(TokenMiddleware()).get("secret") { _ in "secret" }
    }
#endif
