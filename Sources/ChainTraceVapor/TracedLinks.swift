#if Vapor
    import ChainTrace
    import NIOCore
    import Vapor

    /// One middleware of a traced chain as a hop: its name in traces, and whether it is a hop only for a request that
    /// matched no route (the `NotFound` link at the end of the application's middleware).
    struct TracedPart: Sendable {
        let middleware: any Middleware
        let name: String
        let onlyUnrouted: Bool
    }

    /// A traced chain's middleware, in order, and the name of the hop its last responder is (a route's endpoint,
    /// `GET /users/:id`), if it is one. Vapor chains middleware with a link of its own, which reaches the request's
    /// trace only through the request's storage — a lock, a copy and a dictionary lookup, about 200 ns a hop here
    /// (`chaintrace-vapor-benchmarks`, "traceRequests(), traced"); these links hand the trace to the next with the
    /// request instead.
    final class TracedParts: Sendable {
        let parts: [TracedPart]
        let endpoint: String?

        init(_ parts: [TracedPart], endpoint: String?) {
            self.parts = parts
            self.endpoint = endpoint
        }
    }

    /// What one request's run of a traced chain carries from link to link: the chain, its trace (`nil` when the
    /// request is not traced: the links run the middleware as Vapor's would), the request, and the responder after
    /// the last link. The chain is kept here, not in each link, so that a link holds one reference.
    final class TracedRun: Sendable {
        let chain: TracedParts
        let trace: CarriedTrace?
        let request: Request
        let last: any Responder

        init(chain: TracedParts, trace: CarriedTrace?, request: Request, last: any Responder) {
            self.chain = chain
            self.trace = trace
            self.request = request
            self.last = last
        }
    }

    /// The chain from link `index` on, as the responder a middleware is handed as `next`: two words, held in the
    /// existential's own buffer (no allocation a hop). A middleware that calls `next` *passed*; one that answers
    /// without it *accepted*; one whose future fails (or that throws, for an `AsyncMiddleware`) *failed*; one that
    /// answers after an error from below *accepted* with the failure recovered.
    struct TracedStep: Responder {
        let index: Int
        let run: TracedRun

        func respond(to request: Request) -> EventLoopFuture<Response> {
            // The part is read in place, each time, and the trace through optional chaining: both borrowed. Bound to
            // locals, the part's copy and the trace's were five retains and releases a hop
            // (`chaintrace-vapor-benchmarks`, "traceRequests(), traced").
            guard index < run.chain.parts.count else { return respondAtEnd(to: request) }
            let next = TracedStep(index: index + 1, run: run)
            if run.chain.parts[index].onlyUnrouted, request.route != nil { return next.respond(to: request) }
            guard run.trace?.open(run.chain.parts[index].name) ?? false else {
                return run.chain.parts[index].middleware.respond(to: request, chainingTo: next)
            }
            let response = run.chain.parts[index].middleware.respond(to: request, chainingTo: next)
            run.closeHop(when: response)
            return response
        }

        /// The responder after the last link, a hop of its own when it is a route's endpoint.
        private func respondAtEnd(to request: Request) -> EventLoopFuture<Response> {
            guard let name = run.chain.endpoint, run.trace?.open(name) ?? false else {
                return run.last.respond(to: request)
            }
            let response = run.last.respond(to: request)
            run.closeHop(when: response)
            return response
        }
    }

    /// The application's one middleware while traced: starts the request's trace (the route has been matched, so the
    /// command's kind names it), keeps it in the request for its route's chain, runs the application's middleware
    /// as linked hops to Vapor's router, and hands the trace to the recorder when the response is made.
    struct TracedApplicationMiddleware: Middleware {
        let chain: String
        let parts: TracedParts

        func respond(to request: Request, chainingTo router: any Responder) -> EventLoopFuture<Response> {
            let trace = CarriedTrace.start(command: HTTPRequestCommand(request: request), chain: chain)
            if let trace { request.storage[CarriedTraceKey.self] = trace }
            let response = TracedStep(
                index: 0,
                run: TracedRun(chain: parts, trace: trace, request: request, last: router)
            )
            .respond(to: request)
            guard let trace else { return response }
            response.whenComplete { _ in trace.finishInDeepestContext() }
            return response
        }
    }

    /// A route's responder while traced: its groups' middleware as linked hops, then its endpoint as the last hop.
    /// Finds the request's trace in the request, once.
    struct TracedRoute: Responder {
        let parts: TracedParts
        let endpoint: any Responder

        func respond(to request: Request) -> EventLoopFuture<Response> {
            TracedStep(
                index: 0,
                run: TracedRun(chain: parts, trace: request.carriedTrace, request: request, last: endpoint)
            )
            .respond(to: request)
        }
    }

    /// Passes every request on: the `NotFound` link's middleware, whose hop is the link's.
    struct PassingMiddleware: Middleware {
        func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
            next.respond(to: request)
        }
    }
#endif
