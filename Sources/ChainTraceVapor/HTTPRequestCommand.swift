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
        public static var redactedHeaders: Set<String> {
            ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"]
        }

        /// `GET /users/:id`: the method and the route's pattern, or `GET NotFound` when no route matched.
        public var commandKind: String { "\(request.method.rawValue) \(routePattern ?? "NotFound")" }

        /// The request id.
        public var commandID: String? { requestID }

        /// The method, path, query and headers (less ``redactedHeaders``) as JSON.
        public var commandPayload: JSONValue? {
            var headers: [String: JSONValue] = [:]
            for (name, value) in request.headers {
                let name = name.lowercased()
                guard !Self.redactedHeaders.contains(name) else { continue }
                if case .string(let earlier) = headers[name] {
                    headers[name] = .string(earlier + ", " + value)
                } else {
                    headers[name] = .string(value)
                }
            }
            var object: [String: JSONValue] = [
                "method": .string(request.method.rawValue),
                "path": .string(request.url.path),
                "headers": .object(headers),
            ]
            if let route = routePattern { object["route"] = .string(route) }
            if let query = request.url.query { object["query"] = .string(query) }
            return .object(object)
        }

        /// `route`'s path as Vapor writes it: `/users/:id`, `/files/**`, `/` for the root.
        static func pattern(of route: Route) -> String {
            "/" + route.path.map(\.description).joined(separator: "/")
        }
    }
#endif
