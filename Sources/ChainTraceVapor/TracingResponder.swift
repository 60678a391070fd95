#if Vapor
    import ChainTrace
    import NIOConcurrencyHelpers
    import NIOCore
    public import Vapor

    extension Application {
        /// Traces every request through the application's middleware — Vapor's defaults (`RouteLoggingMiddleware`,
        /// `ErrorMiddleware`) and yours, those of route groups too — to its route's endpoint, or to a `NotFound` hop:
        /// the one line that adds ChainTrace to a Vapor app. Call it anywhere in `configure`; no middleware is edited.
        ///
        /// ```swift
        /// public func configure(_ app: Application) async throws {
        ///     app.traceRequests()
        ///     app.middleware.use(CORSMiddleware())
        ///     try routes(app)
        /// }
        /// ```
        ///
        /// Every middleware is a hop, named by its type (`ErrorMiddleware`), and so is each route's endpoint, named by
        /// method and pattern (`GET /users/:id`). Requests are traced into whatever recorder is in force where
        /// Vapor hands them to the application — `ChainTracing.bootstrap(_:)` at start-up for a server, or the
        /// test's `captureTraces` or `withRecorder` scope for a request made in process (`app.testing()`). With none
        /// in force a request runs Vapor's own responder, untouched, and costs one load more.
        ///
        /// Decisions: a middleware that calls `next` *passed*; one that answers without it *accepted*; one whose
        /// future fails (or that throws, for an `AsyncMiddleware`) *failed* — the trace names the hop the error
        /// started at, the ones it only passed through stay *passed*; one that turns an error from below into a
        /// response (`ErrorMiddleware`) *accepted*, the failure kept in the trace as recovered. A hop's time is until
        /// its response is made: a body that streams afterwards is written by the server after the chain.
        ///
        /// The traced responder is built once, when Vapor first asks for the application's responder (as the server
        /// starts, or at a test's first request), from the middleware and routes configured by then.
        ///
        /// - Parameter chain: The chain's name in traces; `"HTTP"` by default.
        public func traceRequests(chain: String = "HTTP") {
            let built = TracingResponderCache(chain: chain)
            responder.use { application in built.responder(for: application) }
        }
    }

    /// The responder ``Vapor/Application/traceRequests(chain:)`` installs, built once for its application.
    final class TracingResponderCache: Sendable {
        let chain: String
        private let built = NIOLockedValueBox<TracingResponder?>(nil)

        init(chain: String) {
            self.chain = chain
        }

        func responder(for application: Application) -> TracingResponder {
            built.withLockedValue { built in
                if let built { return built }
                let responder = TracingResponder(application: application, chain: chain)
                built = responder
                return responder
            }
        }
    }

    /// What a traced application serves: each request runs the traced chain while a recorder is in force anywhere,
    /// and Vapor's own responder otherwise.
    struct TracingResponder: Responder {
        /// Vapor's own responder for the application's middleware and routes.
        let plain: any Responder
        /// The same, with every middleware and endpoint a traced hop.
        let traced: any Responder

        /// Builds both from `application`'s middleware and routes. Vapor makes its responder from the application's
        /// middleware and routes only, so the traced one is made from them while they hold the traced middleware
        /// and endpoints, which are then put back: after this the application's middleware and routes are as the
        /// app configured them.
        init(application: Application, chain: String) {
            plain = application.responder.default
            let middleware = application.middleware
            let routes = application.routes.all
            let responders = routes.map(\.responder)

            // The application's middleware as linked hops, then `NotFound` (a hop only for a request that matched
            // no route: Vapor's 404 comes from beyond it); each route's groups' middleware likewise, then its endpoint.
            let global = TracedParts(
                middleware.resolve().map { TracedPart(middleware: $0, name: handlerName(of: $0), onlyUnrouted: false) }
                    + [TracedPart(middleware: PassingMiddleware(), name: "NotFound", onlyUnrouted: true)],
                endpoint: nil
            )
            var tracedMiddleware = Middlewares()
            tracedMiddleware.use(TracedApplicationMiddleware(chain: chain, parts: global))
            for route in routes {
                let (groupMiddleware, endpoint) = groupParts(of: route.responder)
                let name = "\(route.method.rawValue) \(HTTPRequestCommand.pattern(of: route))"
                let parts = groupMiddleware.map {
                    TracedPart(middleware: $0, name: handlerName(of: $0), onlyUnrouted: false)
                }
                route.responder = TracedRoute(parts: TracedParts(parts, endpoint: name), endpoint: endpoint)
            }
            application.middleware = tracedMiddleware
            traced = application.responder.default
            application.middleware = middleware
            for (route, responder) in zip(routes, responders) { route.responder = responder }
        }

        func respond(to request: Request) -> EventLoopFuture<Response> {
            ChainTracing.mayRecord ? traced.respond(to: request) : plain.respond(to: request)
        }
    }
#endif
