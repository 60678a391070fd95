#if Vapor
    import ChainTraceVapor
    import Foundation
    import Synchronization
    import Vapor

    /// The app's routes and middleware: what any small API has. Only the first line knows about ChainTrace.
    func configure(_ app: Application) throws {
        app.traceRequests()  // the one line: every request through every middleware, traced
        app.logger.logLevel = .warning
        // Vapor's defaults stay first: RouteLoggingMiddleware, ErrorMiddleware.
        app.middleware.use(
            CORSMiddleware(
                configuration: .init(
                    allowedOrigin: .all,
                    allowedMethods: [.GET, .POST, .DELETE],
                    allowedHeaders: [.accept, .contentType]
                )
            )
        )
        app.middleware.use(RateLimitMiddleware(requestsPerSecond: 20_000))
        app.middleware.use(ErrorPageMiddleware())
        app.get("health") { _ in "ok" }

        let api = app.grouped("api").grouped(APIKeyMiddleware(), AuditMiddleware())
        api.get("orders", ":id") { request -> String in
            guard let id = request.parameters.get("id", as: Int.self) else { throw Abort(.badRequest) }
            guard id != 0 else { throw OrderStoreUnavailable() }
            return "{\"id\":\(id),\"status\":\"shipped\"}"
        }
        api.post("orders") { _ in Response(status: .created) }
        api.delete("orders", ":id") { _ -> Response in throw Abort(.forbidden, reason: "orders are never deleted") }
    }

    /// Answers 401 unless the request carries an `x-api-key`.
    struct APIKeyMiddleware: AsyncMiddleware {
        func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
            guard let key = request.headers.first(name: "x-api-key"), !key.isEmpty else {
                return Response(status: .unauthorized)
            }
            return try await next.respond(to: request)
        }
    }

    /// Writes an audit record for every API call — to a slow audit service, here a wait of five milliseconds: the
    /// middleware `chaintrace render` flags.
    struct AuditMiddleware: AsyncMiddleware {
        func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
            try await Task.sleep(for: .milliseconds(5))
            return try await next.respond(to: request)
        }
    }

    /// Lets `requestsPerSecond` requests through each second and answers 429 to the rest (an event-loop
    /// middleware: no task of its own).
    struct RateLimitMiddleware: Middleware {
        let requestsPerSecond: Int
        private let window = RateWindow()

        init(requestsPerSecond: Int) {
            self.requestsPerSecond = requestsPerSecond
        }

        func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
            let second = Int(Date().timeIntervalSince1970)
            let allowed = window.state.withLock { window in
                if window.second != second { window = (second, 0) }
                window.count += 1
                return window.count <= requestsPerSecond
            }
            guard allowed else { return request.eventLoop.makeSucceededFuture(Response(status: .tooManyRequests)) }
            return next.respond(to: request)
        }
    }

    /// The current second and the requests counted in it, shared by every copy of the rate limiter.
    final class RateWindow: Sendable {
        let state = Mutex((second: 0, count: 0))
    }

    /// The order store could not be reached.
    struct OrderStoreUnavailable: Error {}

    /// Turns an unreachable order store into a 503 page; every other error goes on to Vapor's `ErrorMiddleware`.
    struct ErrorPageMiddleware: AsyncMiddleware {
        func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
            do {
                return try await next.respond(to: request)
            } catch is OrderStoreUnavailable {
                return Response(status: .serviceUnavailable, headers: ["Retry-After": "1"])
            }
        }
    }
#endif
