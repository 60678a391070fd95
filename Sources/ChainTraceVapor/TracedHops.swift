#if Vapor
    import ChainTrace
    import NIOCore
    import Tracing
    import Vapor

    /// Where a traced request keeps its trace: in the request, which every middleware and responder of its chain is
    /// handed, whatever task or event-loop callback runs them (a task-local would not reach an `AsyncMiddleware`'s
    /// own task).
    struct CarriedTraceKey: StorageKey {
        typealias Value = CarriedTrace
    }

    extension Request {
        /// The trace this request is recorded in, if it is traced.
        var carriedTrace: CarriedTrace? { storage[CarriedTraceKey.self] }
    }

    extension EventLoopFuture where Value == Response {
        /// This future, closing `trace`'s innermost hop when it completes: callbacks run in the order added, so a hop
        /// inside closes before the one it is in. The request's first hop to close — the deepest it went, inside the
        /// span of every tracing middleware that let it through — keeps the request's `serviceContext` (Vapor's
        /// `TracingMiddleware` sets it to its span's for the middleware after it) for the trace's delivery.
        func closingHop(of trace: CarriedTrace, for request: Request) -> EventLoopFuture<Response> {
            always { result in
                switch result {
                case .success: trace.close(threw: nil)
                case .failure(let error): trace.close(threw: error)
                }
                trace.keepDeepestContext { request.serviceContext }
            }
        }
    }

    extension CarriedTrace {
        /// Hands the trace to its recorder with the `ServiceContext` its deepest hop ran in bound, so that
        /// `SpanTraceSink` makes the command's span a child of the request's span (Vapor's `TracingMiddleware`).
        func finishInDeepestContext() {
            guard let context = deepestContext as? ServiceContext else { return finish() }
            ServiceContext.withValue(context) { finish() }
        }
    }

    /// The first link of the traced chain, not a hop: starts the request's trace (the route has been matched, so the
    /// command's kind names it), keeps it in the request, and hands it to the recorder when the response is made.
    struct TraceStart: Middleware {
        let chain: String

        func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
            guard let trace = CarriedTrace.start(command: HTTPRequestCommand(request: request), chain: chain) else {
                return next.respond(to: request)
            }
            request.storage[CarriedTraceKey.self] = trace
            return next.respond(to: request).always { _ in trace.finishInDeepestContext() }
        }
    }

    /// A middleware as a hop of the request's trace. Calling `next` is *passed*, answering without it *accepted*,
    /// failing *failed*, answering after an error from below *accepted* with the failure recovered.
    struct TracedMiddleware: Middleware {
        /// The middleware as the app added it.
        let wrapped: any Middleware
        /// Its name in traces: its type's name without generic arguments.
        let name: String

        func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
            guard let trace = request.carriedTrace, trace.open(name) else {
                return wrapped.respond(to: request, chainingTo: next)
            }
            return wrapped.respond(to: request, chainingTo: next).closingHop(of: trace, for: request)
        }
    }

    /// A route's own responder as the last hop of its chain: *accepted* when it answers, *failed* when it fails.
    struct TracedEndpoint: Responder {
        /// The responder the route was given.
        let wrapped: any Responder
        /// Its name in traces: the method and the route's pattern, `GET /users/:id`.
        let name: String

        func respond(to request: Request) -> EventLoopFuture<Response> {
            guard let trace = request.carriedTrace, trace.open(name) else {
                return wrapped.respond(to: request)
            }
            return wrapped.respond(to: request).closingHop(of: trace, for: request)
        }
    }

    /// The last link of the application's middleware, not a hop for a request that matched a route; for one that
    /// matched none, the hop it ends at: `NotFound`, *failed* with Vapor's 404 (`RouteNotFound`) unless a middleware
    /// before it answers.
    struct NotFoundHop: Middleware {
        func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
            guard request.route == nil, let trace = request.carriedTrace, trace.open("NotFound") else {
                return next.respond(to: request)
            }
            return next.respond(to: request).closingHop(of: trace, for: request)
        }
    }

    /// A route's responder taken apart: the middleware of the groups it was added in (outermost first) and the
    /// responder they lead to. Vapor chains a group's middleware in front of each of its routes' responders with
    /// its own link type, which this reads; a responder of any other shape is an endpoint.
    func groupParts(of responder: any Responder) -> (middleware: [any Middleware], endpoint: any Responder) {
        guard String(describing: type(of: responder)) == "HTTPMiddlewareResponder" else { return ([], responder) }
        var middleware: (any Middleware)?
        var next: (any Responder)?
        for child in Mirror(reflecting: responder).children {
            switch child.label {
            case "middleware": middleware = child.value as? any Middleware
            case "responder": next = child.value as? any Responder
            default: break
            }
        }
        // A link of a shape this version of Vapor does not have: one endpoint, untouched.
        guard let middleware, let next else { return ([], responder) }
        let rest = groupParts(of: next)
        return ([middleware] + rest.middleware, rest.endpoint)
    }

    /// A middleware's name in traces: its type's name without module or generic arguments
    /// (`ErrorMiddleware`, `SessionsMiddleware`).
    func handlerName(of value: Any) -> String {
        let full = String(describing: type(of: value))
        return String(full.prefix { $0 != "<" })
    }
#endif
