#if Vapor
    import ChainTrace
    import ChainTraceDistributedTracing
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

    extension TracedRun {
        /// Closes the hop just opened in the run's trace when `response`, what its middleware answered with, completes: with
        /// the hop inside it when it is the very future that hop answered with (a middleware that returns
        /// `next.respond(to:)`: no callback of its own), else from a callback of its own. The request's first hop to
        /// close — the deepest it went, inside the span of every tracing middleware that let it through — keeps the
        /// request's `serviceContext` (Vapor's `TracingMiddleware` sets it to its span's for the middleware after it)
        /// for the trace's delivery.
        func closeHop(when response: EventLoopFuture<Response>) {
            guard let hops = trace?.closeHop(whenDone: response) else { return }
            response.whenComplete { [request] result in
                switch result {
                case .success: hops.complete(threw: nil) { request.serviceContext }
                case .failure(let error): hops.complete(threw: error) { request.serviceContext }
                }
            }
        }
    }

    extension CarriedTrace {
        /// Hands the trace to its recorder with the `ServiceContext` its deepest hop ran in bound, so that
        /// `SpanTraceSink` makes the command's span a child of the request's span (Vapor's `TracingMiddleware`); the
        /// trace notes that span (`Trace.traceParent`) for a trace log.
        func finishInDeepestContext() {
            guard let context = deepestContext as? ServiceContext else { return finish() }
            setTraceParent(TraceParent(context: context))
            ServiceContext.withValue(context) { finish() }
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
