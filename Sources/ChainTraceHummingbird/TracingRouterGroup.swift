#if Hummingbird
    public import HTTPTypes
    public import Hummingbird

    /// A group of a ``TracingRouter``'s routes under one path, with middleware of its own, traced as the router's is.
    ///
    /// Made by ``TracingRouter/group(_:)`` or ``TracingRouterGroup/group(_:)``; used as Hummingbird's `RouterGroup` is.
    /// Its middleware applies to the routes added to it after the middleware, and runs after the router's.
    public struct TracingRouterGroup<Context: RequestContext>: RouterMethods {
        /// The group's path, under its parent's.
        let path: RouterPath
        /// The router the group's routes go to.
        let router: TracingRouter<Context>
        /// The group's middleware; the router's runs before them.
        let middlewares: GroupMiddleware<Context>
        /// The middleware of the groups this one is inside, outermost first.
        let inherited: [GroupMiddleware<Context>]

        init(path: RouterPath, parent router: TracingRouter<Context>, inherited: [GroupMiddleware<Context>] = []) {
            self.path = path
            self.router = router
            middlewares = GroupMiddleware()
            self.inherited = inherited
        }

        /// Adds `middleware`, traced, for the group's routes added after it.
        @discardableResult
        public func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
            middlewares.plain.append(middleware)
            middlewares.traced += middlewareParts(of: middleware).map {
                NamedMiddleware(middleware: $0, name: handlerName(of: $0))
            }
            return self
        }

        /// Adds a route under the group's path, through the group's middleware to its traced endpoint.
        @discardableResult
        public func on<Responder: HTTPResponder>(
            _ path: RouterPath,
            method: HTTPRequest.Method,
            responder: Responder
        ) -> Self where Responder.Context == Context {
            let fullPath = self.path.appendingPath(path)
            var plain: any HTTPResponder<Context> = responder
            for group in [middlewares] + inherited.reversed() {
                for middleware in group.plain.reversed() { plain = MiddlewareStep(middleware: middleware, next: plain) }
            }
            router.addGroupRoute(
                fullPath,
                method: method,
                plain: plain,
                middleware: (inherited + [middlewares]).flatMap(\.traced),
                endpoint: router.endpoint(responder, path: fullPath, method: method)
            )
            return self
        }

        /// A group inside this one, under `path`.
        public func group(_ path: RouterPath = "") -> TracingRouterGroup<Context> {
            TracingRouterGroup(
                path: self.path.appendingPath(path),
                parent: router,
                inherited: inherited + [middlewares]
            )
        }
    }

    /// A group's middleware, in the order added; a class, so that the group's copies and the groups inside it see
    /// what is added later (as Hummingbird's own groups do).
    final class GroupMiddleware<Context: RequestContext> {
        /// As added.
        var plain: [any MiddlewareProtocol<Request, Response, Context>] = []
        /// Each to be a traced hop (a result-builder stack a hop per part).
        var traced: [NamedMiddleware<Context>] = []
    }

    /// One middleware of a group in front of the rest of a route's chain.
    struct MiddlewareStep<Context: RequestContext>: HTTPResponder {
        let middleware: any MiddlewareProtocol<Request, Response, Context>
        let next: any HTTPResponder<Context>

        func respond(to request: Request, context: Context) async throws -> Response {
            try await middleware.handle(request, context: context) { request, context in
                try await next.respond(to: request, context: context)
            }
        }
    }
#endif
