#if Hummingbird
    public import ChainTrace
    import HTTPTypes
    public import Hummingbird
    import Logging

    /// A request as ChainTrace sees it: the command a traced middleware stack handles.
    ///
    /// Its kind is the method and the route's pattern — `GET /users/{id}`, never the raw path, so reports group
    /// requests by route without one kind per id — or `GET NotFound` when no route matched. Its id is the request id
    /// Hummingbird gives every request (`hb.request.id` in its logger metadata). Its payload, recorded only when the
    /// recorder captures payloads, is the method, path, query and headers, less the headers that carry credentials
    /// (``HTTPRequestCommand/redactedHeaders``); the body is never read.
    public struct HTTPRequestCommand: TracedCommand, Sendable {
        /// The request.
        public let request: Request
        /// Where Hummingbird notes the route that matched; read only when a trace starts.
        let endpointPath: EndpointPath
        /// The request's logger, whose metadata holds the request id; read only when a trace starts.
        let logger: Logger

        /// The kind, when the route's link knows it (made once a route, not once a request).
        let knownKind: RouteKind?

        /// The request `request` seen with `context`. Reads nothing yet: a hop that is not traced pays for a copy.
        public init(request: Request, context: some RequestContext) {
            self.init(request: request, context: context, kind: nil)
        }

        /// The request `request` seen with `context`, of the route whose kind is `kind` (`nil`: read it when asked).
        init(request: Request, context: some RequestContext, kind: RouteKind?) {
            self.request = request
            endpointPath = context.coreContext.endpointPath
            logger = context.logger
            knownKind = kind
        }

        /// The route pattern that matched, as Hummingbird names it (`/users/{id}`), or `nil` when none did.
        public var routePattern: String? { endpointPath.value }

        /// The request id, when the request's logger carries one.
        public var requestID: String? { logger[metadataKey: "hb.request.id"]?.description }

        /// Headers never recorded in a payload, whatever the recorder captures: credentials and cookies.
        public static var redactedHeaders: Set<String> { HTTPRequestPayload.credentialHeaders }

        /// `GET /users/{id}`: the method and the route's pattern, or `GET NotFound` when no route matched.
        public var commandKind: String {
            if let knownKind, knownKind.method == request.method { return knownKind.text }
            return "\(request.method.rawValue) \(routePattern ?? "NotFound")"
        }

        /// The request id.
        public var commandID: String? { requestID }

        /// The method, path, query and headers (less ``redactedHeaders``) as JSON.
        public var commandPayload: JSONValue? {
            HTTPRequestPayload.make(
                method: request.method.rawValue,
                path: request.uri.path,
                query: request.uri.query,
                route: routePattern,
                headers: request.headers.lazy.map { (name: $0.name.canonicalName, value: $0.value) }
            )
        }
    }
#endif
