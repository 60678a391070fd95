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
        /// What the command holds, in one object: a copy of the command is then one retain. A request's trace copies
        /// its command a few times on its way to the recorder, and each copy of the request, its route and its
        /// logger held in line was about ten retains and releases, through value witnesses: about 2 000
        /// instructions a traced request (callgrind, `chaintrace-http-benchmarks`, "traced" with no middleware).
        final class Storage: Sendable {
            let request: Request
            /// Where Hummingbird notes the route that matched; read only when a trace starts.
            let endpointPath: EndpointPath
            /// The request's logger, whose metadata holds the request id; read only when a trace starts.
            let logger: Logger
            /// The kind, when the route's link knows it (made once a route, not once a request).
            let knownKind: RouteKind?

            /// Takes the request and logger it is handed (`consuming`): borrowed, each was copied in and the copy
            /// handed to it destroyed, about 760 instructions a traced request (callgrind, `chaintrace-http-benchmarks`,
            /// "traced" with no middleware: 23 168 → 22 407).
            init(
                request: consuming Request,
                endpointPath: EndpointPath,
                logger: consuming Logger,
                knownKind: RouteKind?
            ) {
                self.request = request
                self.endpointPath = endpointPath
                self.logger = logger
                self.knownKind = knownKind
            }
        }

        let storage: Storage

        /// The request.
        public var request: Request { storage.request }

        /// The request `request` seen with `context`. Reads nothing yet: a hop that is not traced pays for one
        /// object.
        public init(request: Request, context: some RequestContext) {
            self.init(request: request, context: context, kind: nil)
        }

        /// The request `request` seen with `context`, of the route whose kind is `kind` (`nil`: read it when asked).
        init(request: consuming Request, context: some RequestContext, kind: RouteKind?) {
            storage = Storage(
                request: request,
                endpointPath: context.coreContext.endpointPath,
                logger: context.logger,
                knownKind: kind
            )
        }

        /// The route pattern that matched, as Hummingbird names it (`/users/{id}`), or `nil` when none did.
        public var routePattern: String? { storage.endpointPath.value }

        /// The request id, when the request's logger carries one.
        public var requestID: String? { storage.logger[metadataKey: "hb.request.id"]?.description }

        /// Headers never recorded in a payload, whatever the recorder captures: credentials and cookies.
        public static var redactedHeaders: Set<String> { HTTPRequestPayload.credentialHeaders }

        /// `GET /users/{id}`: the method and the route's pattern, or `GET NotFound` when no route matched.
        public var commandKind: String {
            let method = storage.request.method
            if let knownKind = storage.knownKind, knownKind.method == method { return knownKind.text }
            return "\(method.rawValue) \(routePattern ?? "NotFound")"
        }

        /// The request id.
        public var commandID: String? { requestID }

        /// The method, path, query and headers (less ``redactedHeaders``) as JSON.
        public var commandPayload: JSONValue? {
            let request = storage.request
            return HTTPRequestPayload.make(
                method: request.method.rawValue,
                path: request.uri.path,
                query: request.uri.query,
                route: routePattern,
                headers: request.headers.lazy.map { (name: $0.name.canonicalName, value: $0.value) }
            )
        }
    }
#endif
