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

        /// The request `request` seen with `context`. Reads nothing yet: a hop that is not traced pays for a copy.
        public init(request: Request, context: some RequestContext) {
            self.request = request
            endpointPath = context.coreContext.endpointPath
            logger = context.logger
        }

        /// The route pattern that matched, as Hummingbird names it (`/users/{id}`), or `nil` when none did.
        public var routePattern: String? { endpointPath.value }

        /// The request id, when the request's logger carries one.
        public var requestID: String? { logger[metadataKey: "hb.request.id"]?.description }

        /// Headers never recorded in a payload, whatever the recorder captures: credentials and cookies.
        public static var redactedHeaders: Set<String> {
            ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"]
        }

        /// `GET /users/{id}`: the method and the route's pattern, or `GET NotFound` when no route matched.
        public var commandKind: String { "\(request.method.rawValue) \(routePattern ?? "NotFound")" }

        /// The request id.
        public var commandID: String? { requestID }

        /// The method, path, query and headers (less ``redactedHeaders``) as JSON.
        public var commandPayload: JSONValue? {
            var headers: [String: JSONValue] = [:]
            for field in request.headers where !Self.redactedHeaders.contains(field.name.canonicalName) {
                let name = field.name.canonicalName
                if case .string(let earlier) = headers[name] {
                    headers[name] = .string(earlier + ", " + field.value)
                } else {
                    headers[name] = .string(field.value)
                }
            }
            var object: [String: JSONValue] = [
                "method": .string(request.method.rawValue),
                "path": .string(request.uri.path),
                "headers": .object(headers),
            ]
            if let route = routePattern { object["route"] = .string(route) }
            if let query = request.uri.query { object["query"] = .string(query) }
            return .object(object)
        }
    }
#endif
