#if Vapor
    public import ChainTrace
    public import Vapor

    /// A request as ChainTrace sees it: the command a traced Vapor application's middleware handle.
    ///
    /// Its kind is the method and the route's pattern — `GET /users/:id`, never the raw path, so reports group
    /// requests by route without one kind per id — or `GET NotFound` when no route matched. Its id is the request's
    /// `id` (the `X-Request-Id` header when the client sent one, else Vapor's own). Its payload, recorded only when
    /// the recorder captures payloads, is the method, path, query and headers, less the headers that carry
    /// credentials (``HTTPRequestCommand/redactedHeaders``); the body is never read.
    public struct HTTPRequestCommand: TracedCommand, Sendable {
        /// The request.
        public let request: Request

        /// The request `request`. Reads nothing yet.
        public init(request: Request) {
            self.request = request
        }

        /// The pattern of the route that matched, as Vapor writes it (`/users/:id`), or `nil` when none did.
        public var routePattern: String? {
            request.route.map { Self.pattern(of: $0) }
        }

        /// The request id.
        public var requestID: String { request.id }

        /// Headers never recorded in a payload, whatever the recorder captures: credentials and cookies.
        public static var redactedHeaders: Set<String> { HTTPRequestPayload.credentialHeaders }

        /// `GET /users/:id`: the method and the route's pattern, or `GET NotFound` when no route matched.
        public var commandKind: String { "\(request.method.rawValue) \(routePattern ?? "NotFound")" }

        /// The request id.
        public var commandID: String? { requestID }

        /// The method, path, query and headers (less ``redactedHeaders``) as JSON.
        public var commandPayload: JSONValue? {
            HTTPRequestPayload.make(
                method: request.method.rawValue,
                path: request.url.path,
                query: request.url.query,
                route: routePattern,
                headers: request.headers.lazy.map { (name: $0.name, value: $0.value) }
            )
        }

        /// `route`'s path as Vapor writes it: `/users/:id`, `/files/**`, `/` for the root.
        static func pattern(of route: Route) -> String {
            "/" + route.path.map(\.description).joined(separator: "/")
        }
    }
#endif
